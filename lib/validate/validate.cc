#include "validate/validate.h"

#include <algorithm>

#include "util/edit_distance.h"
#include "validate/checks.h"

namespace rescfg {

CheckContext::CheckContext(const Config& config, const std::string& file,
                           std::vector<Finding>* findings)
    : config_(config), file_(file), findings_(findings) {
  for (const Finding& f : *findings) loader_paths_.insert(f.path);
  for (const auto& pool : config.pools) {
    if (pools_.emplace(pool.name, &pool).second) pool_names_.push_back(pool.name);
  }
  for (const auto& profile : config.profiles) {
    if (profiles_.emplace(profile.name, &profile).second) profile_names_.push_back(profile.name);
  }
  for (const auto& policy : config.policies) {
    if (policies_.emplace(policy.name, &policy).second) policy_names_.push_back(policy.name);
  }
}

void CheckContext::Error(const char* code, Mark mark, std::string path, std::string message,
                         std::string hint) {
  findings_->push_back({code, Severity::kError, file_, mark, std::move(path), std::move(message),
                        std::move(hint)});
}

void CheckContext::Warning(const char* code, Mark mark, std::string path, std::string message,
                           std::string hint) {
  findings_->push_back({code, Severity::kWarning, file_, mark, std::move(path),
                        std::move(message), std::move(hint)});
}

bool CheckContext::HasErrors() const { return rescfg::HasErrors(*findings_); }

bool CheckContext::Reported(std::string_view path) const {
  for (auto it = loader_paths_.lower_bound(path); it != loader_paths_.end(); ++it) {
    if (it->compare(0, path.size(), path) != 0) break;  // past the paths that start with it
    if (it->size() == path.size() || (*it)[path.size()] == '.' || (*it)[path.size()] == '[') return true;
  }
  return false;
}

namespace {
template <typename T>
const T* Lookup(const std::map<std::string, const T*, std::less<>>& index, std::string_view name) {
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}
}  // namespace

const Pool* CheckContext::FindPool(std::string_view name) const { return Lookup(pools_, name); }
const Profile* CheckContext::FindProfile(std::string_view name) const {
  return Lookup(profiles_, name);
}
const Policy* CheckContext::FindPolicy(std::string_view name) const {
  return Lookup(policies_, name);
}

std::string CheckContext::DidYouMean(std::string_view name,
                                     const std::vector<std::string>& candidates) {
  if (suggestions_left_ <= 0) return "";
  --suggestions_left_;
  std::string close = ClosestMatch(name, candidates);
  return close.empty() ? "" : "did you mean '" + close + "'?";
}

std::string PoolPath(const Pool& pool) { return "pools[" + pool.name + "]"; }
std::string ProfilePath(const Profile& profile) { return "profiles[" + profile.name + "]"; }
std::string PolicyPath(const Policy& policy) { return "policies[" + policy.name + "]"; }
std::string Indexed(const std::string& path, const char* list, size_t index) {
  return path + "." + list + "[" + std::to_string(index) + "]";
}

std::string JoinNames(const std::vector<std::string>& names) {
  constexpr size_t kShown = 8;
  std::string out;
  size_t shown = names.size() > kShown + 1 ? kShown : names.size();
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? " and " : ", ";
    out += names[i];
  }
  if (shown < names.size()) out += " and " + std::to_string(names.size() - shown) + " more";
  return out;
}

void SortFindings(std::vector<Finding>::iterator begin, std::vector<Finding>::iterator end) {
  // A top-level path ("pool", "apiVersion", "") names no list entry or field below.
  auto top_level = [](const Finding& f) { return f.path.find_first_of(".[") == std::string::npos; };
  std::stable_sort(begin, end, [&](const Finding& a, const Finding& b) {
    if (top_level(a) != top_level(b)) return top_level(a);
    if (a.mark.line != b.mark.line) return a.mark.line < b.mark.line;
    return a.mark.column < b.mark.column;
  });
}

void ValidateConfig(const Config& config, const std::string& file, std::vector<Finding>* findings) {
  size_t first = findings->size();
  CheckContext context(config, file, findings);
  CheckUniqueness(context);
  CheckPoolQueues(context);
  CheckReferences(context);
  CheckDynamicParameters(context);
  CheckLimits(context);
  CheckMachines(context);
  CheckRenames(context);
  // Capacity is only meaningful on a model without holes.
  if (!context.HasErrors()) CheckReservations(context);
  CheckWarnings(context);
  CheckPreemption(context);
  CheckQueueSizing(context);
  CheckAgentReach(context);
  SortFindings(findings->begin() + static_cast<std::ptrdiff_t>(first), findings->end());
}

}  // namespace rescfg
