/// Pools made of machines and elastic pools (rescfg(5), CONFIGURATION v3): sizes that
/// contradict each other, fixed allotments no linked machine can hold, and machines of a
/// Kubernetes pool named after worker ids.

#include "validate/checks.h"

namespace rescfg {
namespace {

/// Machines of every pool together; the pass keeps a free amount for each.
constexpr int64_t kMaxMachines = 1'000'000;

std::string NodesText(const PoolNodes& nodes) {
  return std::to_string(nodes.count) + " machines of " + std::to_string(nodes.gpus) + " GPUs";
}

}  // namespace

void CheckMachines(CheckContext& context) {
  const Config& config = context.config();
  int64_t machines = 0;
  for (const auto& pool : config.pools) {
    if (pool.nodes) {
      const Quantity product = Quantity::Units(pool.nodes->count * pool.nodes->gpus);
      if (pool.resources_given && pool.resources != product) {
        context.Error("nodes-resources-mismatch", pool.resources_mark, PoolPath(pool) + ".resources",
                      "pool '" + pool.name + "' has " + NodesText(*pool.nodes) + " (" + product.ToString() +
                          "), but resources says " + pool.resources.ToString(),
                      "make resources " + product.ToString() + ", or leave it out");
      }
      machines += pool.nodes->count;
      if (machines > kMaxMachines && machines - pool.nodes->count <= kMaxMachines) {
        context.Error("too-many-machines", pool.nodes->mark, PoolPath(pool) + ".nodes",
                      "the pools have more than " + std::to_string(kMaxMachines) + " machines together",
                      "describe fewer, larger machines");
      }
    }
    if (pool.nodes && pool.nodes->names_from_workers && !IsDefaultPoolKubernetes(config, pool)) {
      // Its kubernetes block says which nodes it is: the k8s glue export
      // serves it, and the glue's worker ids (GLUE_ID:TASK_ID) name no machine.
      context.Warning("k8s-machine-names", pool.nodes->mark, PoolPath(pool) + ".nodes",
                      "pool '" + pool.name + "' is " + NodesText(*pool.nodes) +
                          " that Kubernetes places tasks on, but takes a task's machine from its worker's id: the "
                          "ClearML k8s glue names workers GLUE_ID:TASK_ID, so every task would seem to run on one "
                          "machine",
                      "write nodes: {count: " + std::to_string(pool.nodes->count) + ", gpus: " +
                          std::to_string(pool.nodes->gpus) + ", names: none}: running tasks are then put where a new "
                          "task of their need would go, and the machines are shown as estimated");
    }
    if (pool.guaranteed && *pool.guaranteed > pool.resources) {
      context.Error("guaranteed-above-resources", pool.guaranteed_mark, PoolPath(pool) + ".guaranteed",
                    "pool '" + pool.name + "' guarantees " + pool.guaranteed->ToString() +
                        ", more than its resources of " + pool.resources.ToString(),
                    "guaranteed is the part of resources that is always there: at most " +
                        pool.resources.ToString());
    }
  }
  for (const auto& profile : config.profiles) {
    if (profile.dynamic_parameter || profile.allotment.is_zero()) continue;
    std::vector<std::string> machines_of;
    bool fits = false, small_enough = false;
    for (const auto& link : profile.links) {
      const Pool* pool = context.FindPool(link.pool);
      if (!pool || pool->resources.is_zero()) continue;
      fits = fits || FitsEmptyPool(*pool, profile.allotment);
      small_enough = small_enough || profile.allotment <= pool->resources;
      if (pool->nodes) machines_of.push_back("'" + pool->name + "' (" + NodesText(*pool->nodes) + ")");
    }
    // Larger than every linked pool is allotment-too-large already.
    if (fits || !small_enough) continue;
    context.Error("allotment-fits-no-machine", profile.allotment_mark, ProfilePath(profile) + ".allotment",
                  "allotment " + profile.allotment.ToString() + " of profile '" + profile.name +
                      "' fits no linked pool's machines: a job runs on one machine, or takes whole machines (" +
                      JoinNames(machines_of) + "): its jobs could never run",
                  "make the allotment at most one machine's GPUs or a whole number of machines, or link a "
                  "pool whose machines can hold it");
  }
}

}  // namespace rescfg
