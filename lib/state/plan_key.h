#pragma once
/// The secret that signs plans (rescfg(1), COMMANDS "an edited plan is unusable"): 32
/// random bytes, written as hex to DIR/plan-key with mode 0600 by the first
/// `rescfg plan` against the state directory. A plan carries the
/// HMAC-SHA256 of its text under that key, so an edited plan, or one made
/// against another state directory, is refused. It protects against edits
/// by anyone who cannot read the state directory (a pull request, an
/// artifact store, a copy in transit); whoever can read the key can sign.

#include <optional>
#include <string>

namespace rescfg {

/// The key's file name in a state directory.
constexpr const char* kPlanKeyFile = "plan-key";

/// The plan key of state directory `dir`. With `create`, a missing key is
/// made (atomically: two plans racing agree on one key). nullopt with
/// `error` set when it is missing (without `create`), damaged or cannot
/// be written.
std::optional<std::string> PlanKey(const std::string& dir, bool create, std::string* error);

}  // namespace rescfg
