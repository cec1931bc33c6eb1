/// `rescfg provision`: validate a configuration (a file, or the one a plan
/// carries) and store it as the next revision of the state directory
/// (created on the first provision).

#include <spdlog/spdlog.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "commands.h"
#include "config/canonical.h"
#include "config_source.h"
#include "removed_queues.h"
#include "diff/config_diff.h"
#include "state/plan.h"
#include "state/plan_key.h"
#include "state/state_store.h"
#include "util/crash_point.h"
#include "util/digest.h"
#include "util/file_io.h"

namespace rescfg::cmd {
namespace {

/// Writes `text` to standard output at once; false with `error` set when
/// it cannot be written.
bool Report(const std::string& text, std::string* error) {
  if (AtWriteFault() || std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
      std::fflush(stdout) != 0) {
    *error = std::string("cannot write to standard output: ") + std::strerror(errno);
    return false;
  }
  return true;
}

/// What is to be provisioned: from a file or from a plan.
struct Proposal {
  std::string source, canonical, message;
  Config config;
  const Plan* plan = nullptr;  ///< set when applying a plan
};

/// True when the state's last revision is this plan, applied onto its base
/// (a merge job run again).
bool AlreadyApplied(const Plan& plan, const StateStore* store) {
  if (!store || plan.up_to_date() || store->revision() != plan.revision) return false;
  const auto& history = store->history();
  return history.back().sha256 == Sha256Hex(plan.canonical) &&
         (plan.base_revision == 0 || history[plan.base_revision - 1].sha256 == plan.base_sha256);
}

/// Refuses (exit 1) a state that is no longer where the plan was made.
bool AtPlanBase(const Plan& plan, long current, const std::string& current_sha, const std::string& dir) {
  if (current == plan.base_revision && current_sha == plan.base_sha256) return true;
  if (current == plan.base_revision) {
    spdlog::error("not provisioned: revision {} of '{}' is not the one the plan was made against (sha256 {}, plan "
                  "{}); make a new plan",
                  current, dir, current_sha.substr(0, 12), plan.base_sha256.substr(0, 12));
  } else {
    spdlog::error("not provisioned: '{}' is at revision {}, the plan was made against revision {}; someone "
                  "provisioned in between: make a new plan and review it",
                  dir, current, plan.base_revision);
  }
  return false;
}

int Provision(const ProvisionOptions& options, const Proposal& proposal) {
  const std::string dir = StateDirOrDefault(options.state_dir);
  const bool exists = PathExists(dir);
  const long expected_base = proposal.plan ? proposal.plan->base_revision : options.expect_revision.value_or(0);
  if (!exists && (proposal.plan || options.expect_revision) && expected_base != 0) {
    spdlog::error("not provisioned: '{}' does not exist (revision 0), not revision {} as expected", dir, expected_base);
    return kExitFindings;
  }
  std::optional<StateStore> store;
  if (!OpenStateForChange(dir, !options.dry_run, options.lock_timeout_seconds, &store)) return kExitUnusable;
  const long current = store ? store->revision() : 0;
  if (options.expect_revision && *options.expect_revision != current) {
    spdlog::error("not provisioned: the current revision of '{}' is {}, not {} as expected", dir, current,
                  *options.expect_revision);
    return kExitFindings;
  }
  if (proposal.plan && AlreadyApplied(*proposal.plan, store ? &*store : nullptr)) {
    // The state is no longer at the plan's base (rescfg(1), COMMANDS: refused), but
    // say why: a merge job run again finds its own plan applied.
    spdlog::error("not provisioned: the plan is already applied: '{}' is at revision {}, made from this plan's "
                  "configuration on its base revision {}; nothing to do",
                  dir, current, proposal.plan->base_revision);
    return kExitFindings;
  }
  if (proposal.plan && !AtPlanBase(*proposal.plan, current, store ? store->revision_sha256() : "", dir)) {
    return kExitFindings;
  }
  std::string error;
  auto change = PlanChange(store ? &*store : nullptr, proposal.config, proposal.canonical, &error);
  if (!change) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  if (!change->base_warning.empty()) spdlog::warn("{}: {}", dir, change->base_warning);
  if (!AddRemovedQueueFindings(*change, proposal.config, options.jobs, dir, &change->rename_findings)) return kExitUnusable;
  if (!RenameFindingsAllowed(&change->rename_findings,
                             proposal.plan ? proposal.plan->file : DisplayName(options.file), options.strict)) {
    spdlog::error("not provisioned: a warning and --strict; the state is unchanged");
    return kExitFindings;
  }
  // What is applied is what was reviewed: the diff of the carried
  // configuration against the base, recomputed, must be the one shown.
  if (proposal.plan) {
    if (std::string why = PlanDisagreement(*proposal.plan, *change); !why.empty()) {
      spdlog::error("not provisioned: the plan was edited: {}; the state is unchanged", why);
      return kExitUnusable;
    }
  }
  // The diff goes out before anything is written: when standard output
  // cannot be written, nothing has happened yet.
  if (!Report(RenderDiffText(change->diff), &error)) {
    spdlog::error("not provisioned: {}; the state is unchanged", error);
    return kExitUnusable;
  }
  if (change->up_to_date) {
    if (!Report("Revision " + std::to_string(current) + " is up to date; nothing to provision.\n", &error)) {
      spdlog::error("{}", error);
      return kExitUnusable;
    }
    if (!options.dry_run && store->config_copy_stale()) {
      spdlog::warn("{}: completing the interrupted provision of revision {}: rewriting config.yaml", dir, current);
      if (!store->RewriteConfigCopy(&error)) {
        spdlog::error("{}", error);
        return kExitUnusable;
      }
    }
    return kExitOk;
  }
  const size_t changes = change->diff.changes.size();
  const std::string count = std::to_string(changes) + (changes == 1 ? " change" : " changes");
  if (options.dry_run) {
    if (!Report("Dry run: would provision revision " + std::to_string(current + 1) + " (" + count + ") in " + dir +
                    ".\n",
                &error)) {
      spdlog::error("{}", error);
      return kExitUnusable;
    }
    return kExitOk;
  }
  StateStore::NewRevision next{proposal.canonical, proposal.source, proposal.message, static_cast<long>(changes)};
  const long revision = current + 1;
  switch (store->Commit(next, &error)) {
    case StateStore::CommitResult::kCommitted: break;
    case StateStore::CommitResult::kRefused:
      spdlog::error("not provisioned: {}; this is a bug in rescfg, please report it; the state is unchanged", error);
      return kExitUnusable;
    case StateStore::CommitResult::kNotCommitted:
      spdlog::error("not provisioned: {}; the state is unchanged (revision {})", error, current);
      return kExitUnusable;
    case StateStore::CommitResult::kCommittedCopyFailed:
      spdlog::error("provisioned revision {}, but config.yaml could not be rewritten: {}; the state is consistent "
                    "at revision {} and the next provision rewrites config.yaml",
                    revision, error, revision);
      return kExitPartial;
  }
  if (!Report("Provisioned revision " + std::to_string(revision) + " (" + count + ") in " + dir + ".\n", &error)) {
    spdlog::error("provisioned revision {}, but its report was lost: {}; the state is consistent at revision {}",
                  revision, error, revision);
    return kExitPartial;
  }
  return kExitOk;
}

/// The configuration a plan carries, checked again under this binary.
std::optional<Proposal> FromPlan(const ProvisionOptions& options, Plan* plan, int* exit_code) {
  std::string error;
  auto text = ReadWholeFile(options.plan, &error);
  std::optional<std::string> key;
  if (text) key = PlanKey(StateDirOrDefault(options.state_dir), /*create=*/false, &error);
  std::optional<Plan> parsed;
  if (key) parsed = ParsePlan(*text, *key, &error);
  if (!parsed) {
    spdlog::error("{}: unusable plan: {}", DisplayName(options.plan), error);
    *exit_code = kExitUnusable;
    return std::nullopt;
  }
  *plan = std::move(*parsed);
  Proposal proposal;
  proposal.plan = plan;
  proposal.source = plan->source;
  proposal.message = options.message.empty() ? plan->message : options.message;
  std::vector<Finding> findings;
  auto config = LoadConfigTextForCommand(plan->source, plan->file + " (in " + DisplayName(options.plan) + ")",
                                         kExitFindings, exit_code, &findings);
  if (!config) {
    spdlog::error("not provisioned: the plan's configuration is not valid under this version of rescfg; the "
                  "state is unchanged");
    return std::nullopt;
  }
  if (options.strict && !findings.empty()) {
    spdlog::error("not provisioned: {} warning{} and --strict", findings.size(), findings.size() == 1 ? "" : "s");
    *exit_code = kExitFindings;
    return std::nullopt;
  }
  proposal.config = std::move(*config);
  proposal.canonical = WriteCanonical(proposal.config);
  if (proposal.canonical != plan->canonical) {
    spdlog::error("not provisioned: this version of rescfg writes the plan's configuration in another canonical "
                  "form than the rescfg that made the plan; make a new plan");
    *exit_code = kExitFindings;
    return std::nullopt;
  }
  return proposal;
}

}  // namespace

int RunProvision(const ProvisionOptions& options) {
  // A closed pipe is an error to report, not a signal that ends the
  // process between two steps of a provision.
  std::signal(SIGPIPE, SIG_IGN);
  int exit_code = kExitOk;
  if (options.plan.empty() == options.file.empty()) {
    spdlog::error("give a configuration FILE or --plan PLAN, not both");
    return kExitUnusable;
  }
  Plan plan;
  std::optional<Proposal> proposal;
  if (!options.plan.empty()) {
    proposal = FromPlan(options, &plan, &exit_code);
    if (!proposal) return exit_code;
    return Provision(options, *proposal);
  }
  auto source = ReadConfigSource(options.file);
  if (!source) {
    spdlog::error("not provisioned: the state is unchanged");
    return kExitUnusable;
  }
  std::vector<Finding> findings;
  auto config = LoadConfigTextForCommand(*source, DisplayName(options.file), kExitFindings, &exit_code, &findings);
  if (!config) {
    spdlog::error("not provisioned: the state is unchanged");
    return exit_code;
  }
  size_t warnings = findings.size();  // only warnings remain in a valid configuration
  if (options.strict && warnings > 0) {
    spdlog::error("not provisioned: {} warning{} and --strict", warnings, warnings == 1 ? "" : "s");
    return kExitFindings;
  }
  proposal.emplace();
  proposal->source = std::move(*source);
  proposal->config = std::move(*config);
  proposal->canonical = WriteCanonical(proposal->config);
  proposal->message = options.message;
  return Provision(options, *proposal);
}

}  // namespace rescfg::cmd
