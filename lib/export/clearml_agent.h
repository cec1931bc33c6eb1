#pragma once
/// `rescfg export clearml-agent` (rescfg(1), export clearml-agent): what ClearML agents need so
/// that they give each task the GPUs rescfg accounts for it. Per pool, the
/// Helm values of the agent's Kubernetes glue chart (k8s-glue), or the
/// command line of a bare-metal `clearml-agent daemon` (daemon).
///
/// Each document starts with a `# pool: NAME` line; Helm values then name
/// their chart in a `# chart:` line and carry the pool's node labels and
/// tolerations in `basePodTemplate`, so its agent starts pods only on its
/// machines. Helm values documents are separated by `---`; daemon command
/// lines, shell-quoted so that the output can be pasted into sh whatever
/// the queue names, by a blank line, one line per machine of a pool with
/// `nodes`. What the agent cannot take as the configuration says is an
/// ExportFinding (codes: mixed-queue, dynamic-queue, inexpressible-fraction,
/// fractional-pool-size, unused-pool, option-like-queue, open-chart,
/// one-agent-many-gpus, multi-machine-allotment); `--pool` naming no pool
/// is an error.

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "config/model.h"
#include "export/export_result.h"

namespace rescfg {

enum class AgentMode { kK8sGlue, kDaemon };

/// The Helm chart k8s-glue values are for (rescfg(1), export clearml-agent v3). The per-queue
/// `queues:` map and `monitoredResources` exist only in ClearML's Enterprise
/// agent chart; the open-source clearml-agent chart takes one comma-separated
/// `queue` list, every pod from one `basePodTemplate`.
enum class AgentChart { kEnterprise, kOpen };

struct ClearmlAgentOptions {
  AgentMode mode = AgentMode::kK8sGlue;
  std::string pool;  ///< "": every pool, in file order; else only this one
  AgentChart chart = AgentChart::kEnterprise;
};

/// `config` must be valid with defaults applied.
ExportResult ExportClearmlAgent(const Config& config, const ClearmlAgentOptions& options);

/// One queue a pool's agent serves: a link queue, or the pool's own queue
/// where links use it.
struct AgentQueue {
  std::string name;
  std::string path;  ///< where it is written: profiles[P].links[i].queue or pools[X].queue
  Mark mark;
  /// The profiles whose link to the pool names this queue, in the pool's
  /// execution priority order.
  std::vector<const Profile*> profiles;
  /// Those whose tasks reach it: the ones a policy uses, or all of them
  /// when no policy uses any. Its agent sizes every task the same, for the
  /// largest allotment among them.
  std::vector<const Profile*> senders;
  const Profile* largest = nullptr;  ///< the first sender with the largest allotment
  const Profile* dynamic = nullptr;  ///< the first dynamic sender, if any
  bool mixed = false;                ///< senders of different sizes (rescfg(5), CONFIGURATION mixed-queue)
};

/// The look-ups that find a pool's queues, built once for a configuration,
/// so that a file with thousands of pools and profiles exports in linear time.
class AgentQueueIndex {
 public:
  explicit AgentQueueIndex(const Config& config);
  /// The queues of `pool` in its execution priority order (the order its
  /// agent pulls from them), each once.
  std::vector<AgentQueue> Queues(const Pool& pool) const;

 private:
  struct LinkRef {
    const Profile* profile;
    size_t index;  ///< in profile->links
  };
  /// pool name -> profile name -> the profile's link to that pool
  std::unordered_map<std::string_view, std::unordered_map<std::string_view, LinkRef>> links_;
  std::unordered_set<std::string_view> used_;  ///< profiles some policy uses
};

/// AgentQueueIndex(config).Queues(pool).
std::vector<AgentQueue> PoolAgentQueues(const Config& config, const Pool& pool);

}  // namespace rescfg
