#pragma once
/// Plans (rescfg(1), COMMANDS `rescfg plan`): what a provision would do, saved, so
/// that exactly the reviewed change is applied, and only onto the revision
/// it was made against.
///
/// A plan file is one JSON object (kind: Plan, apiVersion: rescfg/v1),
/// written with two-space indents so that people can read it and jq can
/// query it. Its last member is "signature": the HMAC-SHA256, under the
/// state directory's plan key (state/plan_key.h), of every byte of the file
/// before the signature's line. Any edit makes the file unusable, and so
/// does applying it to another state directory; a plan cannot be re-signed
/// without the key.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "diff/config_diff.h"
#include "util/finding.h"

namespace rescfg {

class StateStore;

struct Plan {
  std::string created;      ///< UTC, RFC 3339
  std::string user;
  std::string file;         ///< the configuration file, as named when the plan was made
  std::string message;      ///< for the history ("" when none was given)
  long base_revision = 0;   ///< the revision the plan applies onto (0: nothing provisioned)
  std::string base_sha256;  ///< its sha256 ("" for revision 0)
  long revision = 0;        ///< the revision applying it makes (base_revision when up to date)
  std::string canonical;    ///< the new configuration, canonical form
  std::string source;       ///< the new configuration as written, byte for byte
  long changes = 0;         ///< the number of changes
  std::string diff_text;    ///< the diff, as `rescfg diff` prints it
  ConfigDiff diff;          ///< the changes (rendering only; not read back)
  std::vector<Finding> warnings;  ///< of the file and against the base (rendering only; not read back)
  bool up_to_date() const { return revision == base_revision; }
};

/// The plan file's text, signed with `key`.
std::string RenderPlan(const Plan& plan, std::string_view key);

/// Reads a plan file. nullopt with `error` set when it is not a rescfg plan
/// (foreign) or was damaged or edited (signature under `key`, sha256s,
/// missing or mistyped fields). The `diff` of the result is empty.
std::optional<Plan> ParsePlan(std::string_view text, std::string_view key, std::string* error);


/// What provisioning `config` (defaults applied, canonical text
/// `canonical`) onto a state does: its base (`store` may be null: a state
/// directory that does not exist yet, revision 0), the diff, and whether it
/// is up to date. nullopt with `error` set when the base cannot be read.
struct PlannedChange {
  long base_revision = 0;
  std::string base_sha256;
  ConfigDiff diff;
  bool up_to_date = false;  ///< same canonical text, or no change that means anything
  /// Set when the base revision is intact but does not load under this
  /// version (a state bricked by an earlier bug): the diff is then against
  /// an empty configuration, so that provisioning the fix stays possible.
  std::string base_warning;
  /// rename-unknown warnings of the configuration against the base (their
  /// file left empty for the caller to name).
  std::vector<Finding> rename_findings;
  /// The base configuration, when there is one that loads (for the
  /// removed-policy-queue warnings, rescfg(5), RENAMES).
  std::optional<Config> base;
};
std::optional<PlannedChange> PlanChange(const StateStore* store, const Config& config, const std::string& canonical,
                                        std::string* error);

/// Whether what `change` does is what `plan` shows (its diff, its count of
/// changes, its revision): "" when it is, else what differs. A signed plan
/// whose configuration was edited together with a forged signature (by
/// someone holding the key) is still refused by this.
std::string PlanDisagreement(const Plan& plan, const PlannedChange& change);

}  // namespace rescfg
