/// Amounts that contradict each other: reservations above limits, fixed
/// allotments no pool or limit can hold; and dynamic parameter paths.

#include <optional>

#include "validate/checks.h"

namespace rescfg {
namespace {

/// Why `parameter` is not a task parameter path, or "" when it is one.
std::string ParameterProblem(std::string_view parameter) {
  auto rest_after = [&](std::string_view root) -> std::optional<std::string_view> {
    if (parameter.substr(0, root.size()) != root) return std::nullopt;
    return parameter.substr(root.size());
  };
  if (auto key = rest_after("runtime.")) {
    return key->empty() ? "names no runtime key" : "";
  }
  if (auto name = rest_after("configuration.")) {
    return name->empty() ? "names no configuration entry" : "";
  }
  if (auto rest = rest_after("hyperparams.")) {
    size_t dot = rest->find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == rest->size()) {
      return "needs a section and a name: hyperparams.SECTION.NAME";
    }
    return "";
  }
  return "is not under runtime., hyperparams. or configuration.";
}

}  // namespace

void CheckDynamicParameters(CheckContext& context) {
  for (const auto& profile : context.config().profiles) {
    if (!profile.dynamic_parameter) continue;
    std::string problem = ParameterProblem(*profile.dynamic_parameter);
    if (problem.empty()) continue;
    context.Error("bad-dynamic-parameter", profile.dynamic_mark,
                  ProfilePath(profile) + ".dynamic.parameter",
                  "dynamic parameter '" + *profile.dynamic_parameter + "' " + problem,
                  "use runtime.KEY, hyperparams.SECTION.NAME or configuration.NAME");
  }
}

void CheckLimits(CheckContext& context) {
  const Config& config = context.config();
  for (const auto& policy : config.policies) {
    if (!policy.limit) continue;
    const Quantity limit = *policy.limit;
    if (policy.reserved > limit) {
      context.Error("reserved-above-limit", policy.reserved_mark, PolicyPath(policy) + ".reserved",
                    "policy '" + policy.name + "' reserves " + policy.reserved.ToString() +
                        ", more than its limit of " + limit.ToString(),
                    "a reservation can never be used beyond the limit; lower reserved or raise limit");
    }
    for (size_t i = 0; i < policy.profiles.size(); ++i) {
      const Profile* profile = context.FindProfile(policy.profiles[i].profile);
      // A zero allotment only comes from a field the loader already refused.
      if (!profile || profile->dynamic_parameter || profile->allotment.is_zero()) continue;
      if (profile->allotment <= limit) continue;
      context.Error("allotment-above-limit", policy.profiles[i].profile_mark,
                    Indexed(PolicyPath(policy), "profiles", i),
                    "profile '" + profile->name + "' has a fixed allotment of " +
                        profile->allotment.ToString() + ", more than the limit of " +
                        limit.ToString() + " of policy '" + policy.name +
                        "': its jobs could never run",
                    "raise the limit, or drop the profile from this policy");
    }
  }
  for (const auto& profile : config.profiles) {
    if (profile.dynamic_parameter || profile.allotment.is_zero()) continue;
    std::vector<std::string> sizes;
    bool fits = false;
    for (const auto& link : profile.links) {
      const Pool* pool = context.FindPool(link.pool);
      if (!pool || pool->resources.is_zero()) continue;
      if (profile.allotment <= pool->resources) fits = true;
      sizes.push_back("'" + pool->name + "' (" + pool->resources.ToString() + ")");
    }
    if (fits || sizes.empty()) continue;
    context.Error("allotment-too-large", profile.allotment_mark, ProfilePath(profile) + ".allotment",
                  "allotment " + profile.allotment.ToString() + " of profile '" + profile.name +
                      "' is larger than every linked pool (" + JoinNames(sizes) +
                      "): its jobs could never run",
                  "link a pool that is large enough, or lower the allotment");
  }
}

}  // namespace rescfg
