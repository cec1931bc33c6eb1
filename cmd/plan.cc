/// `rescfg plan`: what `provision` would do, saved to a plan file that
/// `rescfg provision --plan` applies exactly, onto the same revision only.

#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands.h"
#include "config/canonical.h"
#include "config_source.h"
#include "output_file.h"
#include "removed_queues.h"
#include "shown_path.h"
#include "state/history.h"
#include "state/plan.h"
#include "state/plan_key.h"
#include "state/revision_check.h"
#include "state/state_store.h"
#include "util/atomic_file.h"
#include "util/file_io.h"
#include "util/markdown.h"

namespace rescfg::cmd {
namespace {

/// A state directory that does not exist yet is made (one level, as
/// provision makes it) to hold the plan key; one whose parent does not
/// exist is refused now rather than when the plan is applied.
bool MakeStateDirectoryForPlan(const std::string& dir) {
  if (PathExists(dir)) return true;
  const std::string parent = DirectoryOf(dir);
  struct stat st {};
  if (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    spdlog::error("no plan written: the state directory '{}' does not exist and neither does its parent '{}'; "
                  "provision creates one level only: create '{}' first",
                  dir, parent, parent);
    return false;
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    spdlog::error("no plan written: cannot create the state directory '{}': {}", dir, std::strerror(errno));
    return false;
  }
  std::string error;
  if (!SyncDirectory(parent, &error)) {
    spdlog::error("no plan written: {}", error);
    return false;
  }
  return true;
}

}  // namespace

namespace {

/// The plan's warnings, one item each, for the reviewer: what the merge
/// would leave waiting or uncounted.
void AddWarningsMarkdown(const std::vector<Finding>& warnings, MarkdownDocument& doc) {
  if (warnings.empty()) return;
  std::string list = "**" + std::to_string(warnings.size()) + (warnings.size() == 1 ? " warning" : " warnings") + "**\n";
  for (const Finding& f : warnings) {
    list += "\n- " + MarkdownCode(f.code) + ": " + MarkdownText(f.message) + (f.hint.empty() ? "" : " (" + MarkdownText(f.hint) + ")");
  }
  doc.Add(list);
}

/// The summary of a plan for a pull-request comment.
std::string PlanMarkdown(const Plan& plan, const std::string& given_dir, const std::string& given_output) {
  const std::string dir = PathForComment(given_dir);
  const std::string output = PathForComment(given_output);
  MarkdownDocument doc;
  if (plan.up_to_date()) {
    doc.Add("### rescfg plan: provisioned revision " + std::to_string(plan.base_revision) + " is up to date");
    doc.Add("The plan changes nothing in " + MarkdownCode(dir) + ".");
    return doc.Finish();
  }
  doc.Add("### rescfg plan: revision " + std::to_string(plan.revision) + " onto provisioned revision " +
          std::to_string(plan.base_revision));
  RenderDiffMarkdown(plan.diff, doc);
  AddWarningsMarkdown(plan.warnings, doc);
  doc.Add("Apply it with " + MarkdownCode("rescfg provision --plan " + output + " --state " + dir) + ".");
  return doc.Finish();
}

}  // namespace

int RunPlan(const PlanOptions& options) {
  int exit_code = kExitOk;
  if (options.format == "markdown" && options.output == "-") {
    spdlog::error("--format markdown writes the summary to standard output; give the plan a file with -o");
    return kExitUnusable;
  }
  auto source = ReadConfigSource(options.file);
  if (!source) return kExitUnusable;
  std::vector<Finding> findings;
  auto config = LoadConfigTextForCommand(*source, DisplayName(options.file), kExitFindings, &exit_code, &findings);
  if (!config) {
    spdlog::error("no plan written");
    return exit_code;
  }
  if (options.strict && !findings.empty()) {
    spdlog::error("no plan written: {} warning{} and --strict", findings.size(), findings.size() == 1 ? "" : "s");
    return kExitFindings;
  }
  const std::string dir = StateDirOrDefault(options.state_dir);
  if (!MakeStateDirectoryForPlan(dir)) return kExitUnusable;
  std::optional<StateStore> store;
  if (!OpenStateForChange(dir, /*write=*/false, options.lock_timeout_seconds, &store)) return kExitUnusable;
  std::string error;
  // The key that signs the plan lives in the state directory: made by the
  // first plan, read by provision --plan.
  auto key = PlanKey(dir, /*create=*/true, &error);
  if (!key) {
    spdlog::error("no plan written: {}", error);
    return kExitUnusable;
  }

  Plan plan;
  plan.canonical = WriteCanonical(*config);
  // A plan that could not be stored is no plan: the round-trip guard of
  // the commit, run now.
  if (std::string problem = RoundTripProblem(plan.canonical); !problem.empty()) {
    spdlog::error("no plan written: {}; this is a bug in rescfg, please report it", problem);
    return kExitUnusable;
  }
  auto change = PlanChange(store ? &*store : nullptr, *config, plan.canonical, &error);
  if (!change) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  if (!change->base_warning.empty()) spdlog::warn("{}: {}", dir, change->base_warning);
  if (!AddRemovedQueueFindings(*change, *config, options.jobs, dir, &change->rename_findings)) return kExitUnusable;
  if (!RenameFindingsAllowed(&change->rename_findings, DisplayName(options.file), options.strict)) {
    spdlog::error("no plan written: a warning and --strict");
    return kExitFindings;
  }
  plan.created = UtcNow();
  plan.user = CurrentUser();
  plan.file = DisplayName(options.file);
  plan.message = options.message;
  plan.base_revision = change->base_revision;
  plan.base_sha256 = change->base_sha256;
  plan.revision = change->up_to_date ? change->base_revision : change->base_revision + 1;
  plan.source = std::move(*source);
  plan.changes = static_cast<long>(change->diff.changes.size());
  plan.diff_text = RenderDiffText(change->diff);
  plan.diff = std::move(change->diff);
  plan.warnings = std::move(findings);
  plan.warnings.insert(plan.warnings.end(), change->rename_findings.begin(), change->rename_findings.end());
  store.reset();  // the lock is not held while the plan is written

  const bool to_stdout = options.output == "-";
  if (!WriteOutput(options.output, RenderPlan(plan, *key))) return kExitUnusable;
  const std::string summary =
      plan.up_to_date()
          ? "Revision " + std::to_string(plan.base_revision) + " is up to date; the plan changes nothing.\n"
          : "Plan: revision " + std::to_string(plan.revision) + " onto revision " +
                std::to_string(plan.base_revision) + " of " + dir + " (" + std::to_string(plan.changes) +
                (plan.changes == 1 ? " change" : " changes") + "). Apply it with: rescfg provision --plan " +
                options.output + " --state " + dir + "\n";
  if (to_stdout) {
    spdlog::info("{}", summary.substr(0, summary.size() - 1));
    return kExitOk;
  }
  const std::string out = options.format == "markdown" ? PlanMarkdown(plan, dir, options.output)
                                                        : plan.diff_text + summary;
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (std::fflush(stdout) != 0) {
    spdlog::error("the plan was written to {}, but its summary could not be written to standard output",
                  options.output);
    return kExitPartial;
  }
  return kExitOk;
}

}  // namespace rescfg::cmd
