#pragma once
/// One entry of a jobs file (rescfg(5), JOBS FILE), as written: nothing resolved against
/// a configuration yet. lib/jobs/resolve turns entries into scheduling input.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "util/file_text.h"
#include "util/finding.h"
#include "util/text_arena.h"
#include "util/text_ref.h"

namespace rescfg {

enum class JobsFormat { kYaml, kJsonLines };

/// The value found at one dynamic-parameter path of a job.
struct ParamValue {
  TextRef path;  ///< e.g. runtime.gpus_request
  TextRef text;  ///< scalar text; none: present but not a scalar
  /// The path is absent and `text` is a key of params within two edits of
  /// it ("runtime.gpu_request"): a likely typo, warned about.
  bool near_miss = false;
};

/// The ClearML worker that runs a task (rescfg(5), JOBS FILE, ClearML task snapshots), with its queues as names.
struct TaskWorker {
  TextRef id;                  ///< the worker's id, for messages
  TextRef queue;               ///< the queue it took the task from
  std::vector<TextRef> queues; ///< the queues it serves
  /// The next worker whose `task.id` names the same task, in the workers
  /// file's order: two workers claiming one task must not make its pool
  /// depend on that order.
  const TaskWorker* also = nullptr;
};

/// How a scalar field was written (the trace fields of rescfg-scheduling(7), THE SIMULATION CLOCK care: a
/// duration must be a number, not a string).
enum class ScalarStyle : uint8_t {
  kAbsent,     ///< not given (or null)
  kPlain,      ///< a plain YAML scalar or a JSON number
  kQuoted,     ///< a quoted YAML scalar or a JSON string
  kNotScalar,  ///< a mapping, a list, or a JSON boolean: no text kept
};

struct JobEntry {
  size_t entry = 0;  ///< 1-based position among the file's entries (blank JSONL lines not counted)
  Mark mark;         ///< where the entry starts
  /// Non-empty when the entry is malformed as a whole or a field is
  /// mistyped: the entry is rejected as invalid-job with this message.
  std::string invalid;
  // Text fields view the loaded file or its arena (JobsText): the entries
  // are valid while the LoadedJobs that made them (or a copy of its `text`)
  // lives.
  TextRef id, policy, profile, queue;
  TextRef state;      ///< as written; absent means queued
  TextRef pool;
  TextRef node;       ///< a running job's machine (rescfg(5), JOBS FILE v3), as written
  TextRef resources;  ///< scalar text of `resources`
  TextRef enqueued;   ///< scalar text of `enqueued` (ClearML tasks: of `status_changed`)
  /// Running only: scalar text of `started` (when its current run began; ClearML tasks: the
  /// sync's record of the run start, else the task's `started`) and of `stopping` (ClearML
  /// tasks: "true" when its `status_message` is `stopping`). Read by preemption.
  TextRef started, stopping;
  std::vector<ParamValue> params;  ///< only the paths asked for, when present
  // ClearML task snapshots (rescfg(5), JOBS FILE, ClearML task snapshots); unset for the other formats.
  TextRef name;                      ///< the task's name, carried to the outputs
  const TaskWorker* worker = nullptr;  ///< a running task's worker, when a workers file names one
  uint32_t queue_rank = 0;  ///< 1-based position in its queue's `entries`; 0: not listed
  /// A number the reader gives each distinct text of `queue` it views (0:
  /// none), by which resolution remembers what a name is (QueueMemo).
  uint32_t queue_key = 0;
  /// A queued task: the queue whose `entries` list it (the first, in the
  /// queues file's order), whatever its `execution.queue` says. A pool or
  /// link queue there means it was handed over; another queue that is no
  /// policy queue, that it is in flight (rescfg(5), JOBS FILE, ClearML task snapshots).
  TextRef listed_in;
  /// What the sync journal says of the task (clearml::Handovers): the pool
  /// it was handed to and the policy queue it was read in.
  TextRef handed_pool, handed_policy_queue;
  /// `enqueued` is there but not a string: invalid for a queued job, ignored
  /// on a running one (rescfg(5), JOBS FILE), so the readers leave the verdict to resolution.
  bool enqueued_mistyped = false;
  /// `node` is there but not a string: the job still holds, in its pool only
  /// (a machine is never freed for a typo), and its message says so.
  bool node_mistyped = false;
  /// `invalid` was found at `mark`'s column (a JSON syntax error), which
  /// its message's place names.
  bool invalid_at_column = false;
  bool clearml_task = false;    ///< read from a ClearML snapshot: its pool comes from its queue or worker
  bool queue_from_id = false;   ///< ClearML: `queue` is an ID no queues file lists, taken as a name
  // Trace fields (rescfg-scheduling(7), THE SIMULATION CLOCK); other commands ignore them, whatever they hold.
  TextRef submitted;  ///< scalar text of `submitted`
  TextRef duration;   ///< scalar text of `duration`, a number's exactly as written
  ScalarStyle submitted_style = ScalarStyle::kAbsent;
  ScalarStyle duration_style = ScalarStyle::kAbsent;
};

/// What the entries' text points into: the file as read (JSON Lines strings
/// without escapes are viewed in place) and an arena for everything else.
struct JobsText {
  FileText source;  ///< the file as read: copied, or mapped when large
  TextArena arena;
  std::deque<TaskWorker> workers;  ///< ClearML: what entries' `worker` points to
};

struct ResolvedJobs;

struct LoadedJobs {
  std::string file;
  std::vector<JobEntry> entries;
  /// Set instead of `entries` when the jobs were resolved as they were read
  /// (LoadJobsFile with a configuration).
  std::shared_ptr<ResolvedJobs> resolved;
  std::vector<Finding> findings;  ///< why the file is unusable, if it is
  bool unusable = false;          ///< unreadable, YAML syntax error, wrong kind (exit 2)
  std::shared_ptr<JobsText> text;  ///< keeps the entries' text alive
};

/// The arena of `jobs->text`, created on first use.
inline TextArena& JobsArena(LoadedJobs* jobs) {
  if (!jobs->text) jobs->text = std::make_shared<JobsText>();
  return jobs->text->arena;
}

}  // namespace rescfg
