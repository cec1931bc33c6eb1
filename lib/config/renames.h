#pragma once
/// Renames (rescfg(5), RENAMES): `renamedFrom: OLD` on a pool, profile or
/// policy says it is the object provisioned until now as OLD.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "util/finding.h"

namespace rescfg {

/// Old name -> new name, per kind.
struct RenameMap {
  std::map<std::string, std::string, std::less<>> pools, profiles, policies;
  bool empty() const { return pools.empty() && profiles.empty() && policies.empty(); }
};

/// Every renamedFrom of a configuration (the first object of a name).
RenameMap RenamesOf(const Config& config);

/// The renames of `config` that `provisioned` has still to follow: the old
/// name is provisioned and the new one is not.
RenameMap RenamesAgainst(const Config& provisioned, const Config& config);

/// `provisioned` with the renames done: objects carry their new names (and
/// the new file's renamedFrom), references to them follow. Queues are
/// values and keep theirs (a default queue that changes is a change).
Config FollowRenames(const Config& provisioned, const RenameMap& renames, const Config& config);

/// rename-unknown warnings: a renamedFrom whose old name the provisioned
/// configuration does not know (nothing to follow) and whose object is not
/// provisioned under its new name with the same renamedFrom already.
void CheckRenamesKnown(const Config& provisioned, const Config& config, const std::string& file,
                       std::vector<Finding>* findings);

/// A queue that a rename leaves behind: the old default queue of a policy
/// entry whose policy or profile was renamed (`Dev/1xGPU` now
/// `Platform/single`), or the old queue of a renamed pool whose queue
/// followed its name. Tasks may wait there until they drain.
struct LeftQueue {
  std::string old_queue, queue;  ///< before and now
  std::string path;              ///< the renamed object's renamedFrom, e.g. policies[Platform].renamedFrom
  Mark mark;                     ///< where that renamedFrom is written
  std::string rename;            ///< "policy Dev is now Platform"
};
std::vector<LeftQueue> QueuesLeftByRenames(const Config& config);

}  // namespace rescfg
