#pragma once
/// What the validation checks share: the configuration with name indexes,
/// paths for findings, and the findings list. Internal to lib/validate.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "util/finding.h"

namespace rescfg {

class CheckContext {
 public:
  CheckContext(const Config& config, const std::string& file, std::vector<Finding>* findings);

  const Config& config() const { return config_; }

  void Error(const char* code, Mark mark, std::string path, std::string message,
             std::string hint = "");
  void Warning(const char* code, Mark mark, std::string path, std::string message,
               std::string hint = "");
  /// True when any error has been recorded so far, by the loader or a check.
  bool HasErrors() const;
  /// True when the loader reported a finding at `path` or below it: a check
  /// about the same field then stays quiet, so that one mistake gives one
  /// finding.
  bool Reported(std::string_view path) const;

  /// The first pool, profile or policy of that name; null when there is none.
  /// Later entries with the same name are duplicate-name errors.
  const Pool* FindPool(std::string_view name) const;
  const Profile* FindProfile(std::string_view name) const;
  const Policy* FindPolicy(std::string_view name) const;
  /// The first entry with the same name as this one (itself when unique).
  const Pool* First(const Pool& pool) const { return FindPool(pool.name); }
  const Profile* First(const Profile& profile) const { return FindProfile(profile.name); }
  const Policy* First(const Policy& policy) const { return FindPolicy(policy.name); }

  /// "did you mean 'X'?" for a misspelt name, or "". Bounded: after a number
  /// of searches it gives up, so a file with thousands of bad references
  /// against thousands of names still validates quickly.
  std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates);
  const std::vector<std::string>& pool_names() const { return pool_names_; }
  const std::vector<std::string>& profile_names() const { return profile_names_; }
  const std::vector<std::string>& policy_names() const { return policy_names_; }

 private:
  const Config& config_;
  const std::string& file_;
  std::vector<Finding>* findings_;
  std::map<std::string, const Pool*, std::less<>> pools_;
  std::map<std::string, const Profile*, std::less<>> profiles_;
  std::map<std::string, const Policy*, std::less<>> policies_;
  std::vector<std::string> pool_names_, profile_names_, policy_names_;
  int suggestions_left_ = 200;
  std::set<std::string, std::less<>> loader_paths_;  ///< of the findings before the checks
};

/// Paths as the loader writes them: "pools[NAME]", "profiles[NAME]", ...
/// List indexes are 0-based.
std::string PoolPath(const Pool& pool);
std::string ProfilePath(const Profile& profile);
std::string PolicyPath(const Policy& policy);
std::string Indexed(const std::string& path, const char* list, size_t index);

/// Names joined for messages: "A, B and C"; long lists end in "and N more".
std::string JoinNames(const std::vector<std::string>& names);

/// duplicate-name, duplicate-link, duplicate-policy-profile, duplicate-queue.
void CheckUniqueness(CheckContext& context);
/// shared-queue, policy-queue-clash: pool and link queues.
void CheckPoolQueues(CheckContext& context);
/// mixed-queue (a warning): a pool-side queue receiving jobs of different sizes.
void CheckQueueSizing(CheckContext& context);
/// unknown-reference, unlinked-profile, priority-mismatch.
void CheckReferences(CheckContext& context);
/// bad-dynamic-parameter.
void CheckDynamicParameters(CheckContext& context);
/// reserved-above-limit, allotment-above-limit, allotment-too-large.
void CheckLimits(CheckContext& context);
/// nodes-resources-mismatch, guaranteed-above-resources, too-many-machines,
/// allotment-fits-no-machine; k8s-machine-names (a warning).
void CheckMachines(CheckContext& context);
/// multi-machine-allotment, dynamic-queue (warnings): jobs no ClearML agent
/// of a linked pool starts, or sizes as rescfg does.
void CheckAgentReach(CheckContext& context);
/// reservations-unsatisfiable: the max-flow / Hall check.
void CheckReservations(CheckContext& context);
/// Every warning.
void CheckWarnings(CheckContext& context);
/// preemption-without-reservation (a warning).
void CheckPreemption(CheckContext& context);
/// rename-clash, rename-chain, rename-loop, duplicate-rename.
void CheckRenames(CheckContext& context);

}  // namespace rescfg
