/// `rescfg provision`: validate a configuration and store it as the next
/// revision of the state directory (created on the first provision).

#include <spdlog/spdlog.h>

#include <cstdio>
#include <sys/stat.h>

#include "commands.h"
#include "config/canonical.h"
#include "config_source.h"
#include "diff/config_diff.h"
#include "state/state_store.h"

namespace rescfg::cmd {
namespace {

void Print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

bool DirectoryExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

int RunProvision(const ProvisionOptions& options) {
  int exit_code = kExitOk;
  std::vector<Finding> findings;
  auto config = LoadConfigForCommand(options.file, kExitFindings, &exit_code, &findings);
  if (!config) {
    spdlog::error("not provisioned: the state is unchanged");
    return exit_code;
  }
  size_t warnings = findings.size();  // only warnings remain in a valid configuration
  if (options.strict && warnings > 0) {
    spdlog::error("not provisioned: {} warning{} and --strict", warnings, warnings == 1 ? "" : "s");
    return kExitFindings;
  }
  const std::string dir = StateDirOrDefault(options.state_dir);
  const std::string canonical = WriteCanonical(*config);

  std::string error;
  std::optional<StateStore> store;
  const bool exists = DirectoryExists(dir);
  if (!exists && options.expect_revision && *options.expect_revision != 0) {
    spdlog::error("not provisioned: '{}' does not exist (revision 0), not revision {} as expected", dir,
                  *options.expect_revision);
    return kExitFindings;
  }
  if (!options.dry_run || exists) {
    store = StateStore::Open(dir, options.dry_run ? StateStore::Access::kRead : StateStore::Access::kWrite,
                             options.lock_timeout_seconds, &error);
    if (!store) {
      spdlog::error("{}", error);
      return kExitUnusable;
    }
    for (const auto& note : store->notes()) spdlog::warn("{}: {}", dir, note);
  }
  const long current = store ? store->revision() : 0;
  if (options.expect_revision && *options.expect_revision != current) {
    spdlog::error("not provisioned: the current revision of '{}' is {}, not {} as expected", dir,
                  current, *options.expect_revision);
    return kExitFindings;
  }
  std::optional<Config> old_config;
  if (store) {
    old_config = store->ReadConfig(current, &error, /*validate=*/false);
  } else {
    old_config = Config{};
    ApplyDefaults(*old_config);
  }
  if (!old_config) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  ConfigDiff diff = DiffConfigs(*old_config, *config);
  Print(RenderDiffText(diff));
  std::string old_text;
  if (current > 0) old_text = store->ReadRevision(current, &error).value_or("");
  // Up to date: the same canonical text, or no change that means anything
  // (a new order of pools is none).
  if (current > 0 && (old_text == canonical || diff.empty())) {
    Print("Revision " + std::to_string(current) + " is up to date; nothing to provision.\n");
    if (!options.dry_run && store->config_copy_stale()) {
      spdlog::warn("{}: completing the interrupted provision of revision {}: rewriting config.yaml", dir, current);
      if (!store->RewriteConfigCopy(&error)) {
        spdlog::error("{}", error);
        return kExitUnusable;
      }
    }
    return kExitOk;
  }
  const std::string count = std::to_string(diff.changes.size()) +
                            (diff.changes.size() == 1 ? " change" : " changes");
  if (options.dry_run) {
    Print("Dry run: would provision revision " + std::to_string(current + 1) + " (" + count +
          ") in " + dir + ".\n");
    return kExitOk;
  }
  if (!store->Commit(canonical, options.message, static_cast<long>(diff.changes.size()), &error)) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  Print("Provisioned revision " + std::to_string(store->revision()) + " (" + count + ") in " + dir + ".\n");
  return std::fflush(stdout) == 0 ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
