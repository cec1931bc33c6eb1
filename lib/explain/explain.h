#pragma once
/// `rescfg explain JOB`: one job's story in the pass of rescfg-scheduling(7), THE PASS — its need
/// and where it came from, each linked pool in link order with what was
/// free when the job was considered, the jobs placed ahead of it there and
/// the rule that put them ahead, and its final reason. The ninja
/// "explanations" of the scheduler, for the user who asks "why not mine?".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "explain/preemption_explain.h"
#include "jobs/job.h"
#include "util/quantity.h"

namespace rescfg {

/// Why a job placed in a linked pool went ahead of the explained one, at the
/// moment it was placed (stable codes, for scripts).
enum class AheadRule : uint8_t {
  kExecutionPriority,  ///< its profile ranks before in the pool's executionPriority
  kPolicyPriority,     ///< its policy ranks before in the profile's policyPriority
  kQueueOrder,         ///< earlier in queue order (enqueued time, then file)
  kFilePosition,       ///< a tie broken by position in the file
  kStrictFifo,         ///< the explained job waited behind the head of its StrictFIFO queue
  kOwnLimit,           ///< the explained job would have taken its policy beyond its limit
  kReservation,        ///< ...or left another policy's reservation uncoverable (rule 3)
  kNoRoom,             ///< ...or did not fit in any linked pool anyway
};
const char* AheadRuleName(AheadRule rule);

struct AheadJob {
  std::string job, policy, profile;
  Quantity resources;
  AheadRule rule = AheadRule::kQueueOrder;
  std::string detail;  ///< the rule in words, with the names and amounts involved
};

/// One linked pool of the explained job, in link order.
struct ExplainedPool {
  std::string pool, link, queue;
  Quantity size, free_at_start, free_when_decided;
  /// A pool made of machines: the most free on one machine when decided.
  std::optional<Quantity> largest_free_when_decided;
  bool paused = false;
  bool machines_estimated = false;  ///< `nodes.names: none`: Kubernetes or an autoscaler places its machines
  GpuFractions gpu_fractions;  ///< so that amounts count MIG slices
  /// What rules 1–3 said for the job there when it was decided (placed, or
  /// at the end of the pass): "placed here", "no room", ...
  std::string verdict;
  std::vector<AheadJob> ahead;  ///< placed there before the job was decided, in placement order
  size_t ahead_total = 0;       ///< all of them, when `ahead` was cut short
};

struct Explanation {
  std::string job;
  size_t entry = 0;                 ///< 1-based entry number in the jobs file
  std::string status;               ///< assigned | pending | rejected | running
  std::string policy, profile, queue;
  std::optional<Quantity> need;
  std::string need_source;          ///< allotment | parameter | fallback | holding
  std::string need_note;            ///< why a dynamic value fell back, if it did
  std::optional<size_t> placed_at;  ///< assigned: its place in placement order (1-based)
  std::string pool;                 ///< assigned or running: its pool
  bool machines_estimated = false;  ///< that pool's machines are placed by Kubernetes or an autoscaler
  std::vector<ExplainedPool> pools; ///< queued jobs: every linked pool, in link order
  std::string reason, message;      ///< pending or rejected: the final reason; or the running job's warnings
  std::optional<PreemptionStory> preemption;  ///< with preemption configured: a waiting or running job's part
};

/// Explains the first entry with id `job`. nullopt with `error` set when no
/// entry has that id (with a did-you-mean when one is close). At most
/// `max_ahead` jobs are listed per pool (the count says how many there were).
std::optional<Explanation> ExplainJob(const Config& config, const std::vector<JobEntry>& entries,
                                      std::string_view job, size_t max_ahead, std::string* error,
                                      int64_t now_us = kUnknownTime);
/// The same for a loaded file, resolved as read or not; its entries are
/// freed as soon as they are resolved (lower peak memory).
std::optional<Explanation> ExplainJob(const Config& config, LoadedJobs&& jobs, std::string_view job,
                                      size_t max_ahead, std::string* error, int64_t now_us = kUnknownTime);

/// For people: the story in a few indented paragraphs.
std::string RenderExplanationText(const Explanation& e);
/// For scripts: one JSON object.
std::string RenderExplanationJson(const Explanation& e);

}  // namespace rescfg
