#pragma once
/// One ClearML task object read into an entry (rescfg(5), JOBS FILE, ClearML task snapshots), with the
/// companions it is linked to: the queues (IDs to names, places in their
/// `entries`) and the workers (who runs a task). Shared by the document
/// forms and JSON Lines of tasks; one parser per thread.

#include <simdjson.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clearml/queues.h"
#include "clearml/task_text.h"
#include "clearml/tasks.h"
#include "clearml/workers.h"
#include "jobs/job.h"
#include "jobs/json_values.h"
#include "jobs/params.h"
#include "util/text_arena.h"

namespace rescfg::clearml {

using simdjson::error_code;

/// What every task is looked up in: the companions, built once they are
/// read and only read while tasks are parsed (by two threads in large
/// files). Names entries keep are copied into the jobs' arena, which
/// outlives the companions.
struct Lookups {
  Lookups(const Companions& companions, LoadedJobs* out)
      : queues(companions.queues), workers(companions.workers), handovers(companions.handovers) {
    TextArena& arena = JobsArena(out);
    if (queues) {
      for (const Queue& queue : queues->queues) queue_names.push_back(arena.Keep(queue.name));
    }
    if (workers) {
      std::deque<TaskWorker>& made = out->text->workers;
      const size_t base = made.size();
      for (const Worker& w : workers->workers) {
        TaskWorker& task_worker = out->text->workers.emplace_back();  // a deque: addresses stay
        task_worker.id = arena.Keep(w.id);
        bool from_id = false;
        if (!w.queue.empty()) task_worker.queue = arena.Keep(QueueName(w.queue, &from_id));
        for (const Ref& ref : w.queues) task_worker.queues.push_back(arena.Keep(QueueName(ref, &from_id)));
        task_workers.push_back(&task_worker);
      }
      // Workers that claim the same task, linked in file order.
      for (size_t i = 0; i < task_workers.size(); ++i) {
        if (auto next = workers->NextClaim(i)) made[base + i].also = task_workers[*next];
      }
    }
  }

  /// The queue a reference stands for (rescfg(5), JOBS FILE, ClearML task snapshots): its name; else the name
  /// of the queue with its ID; else the ID itself, taken as a name.
  std::string_view QueueName(const Ref& ref, bool* from_id) const {
    *from_id = false;
    if (!ref.name.empty()) return ref.name;
    if (queues) {
      if (const Queue* q = queues->FindById(ref.id)) return queue_names[static_cast<size_t>(q - queues->queues.data())];
    }
    *from_id = true;
    return ref.id;
  }

  const QueueList* queues;
  const WorkerList* workers;
  const Handovers* handovers;
  std::vector<std::string_view> queue_names;   ///< per queue of `queues`
  std::vector<const TaskWorker*> task_workers;  ///< per worker of `workers`
};

/// A task's listing looked up before the task is read (TaskParser::LookAhead):
/// that of the ID its text starts with.
struct ListingAhead {
  std::string_view id;  ///< the ID at the start of the task's text; empty when it starts otherwise
  std::optional<Listing> listing;
};

/// Reads task objects into entries; one per thread.
class TaskParser {
 public:
  TaskParser(const ParamQuery& query, const Lookups& lookups, TextArena* arena)
      : query_(query), lookups_(lookups), capture_(query), arena_(arena) {}

  /// Reads one task object into `entry`. A syntax error is returned (with
  /// `*at` where simdjson stopped, when known) and the entry is then to be
  /// reset; a value that is not an object sets `*not_object`. `ahead`: what
  /// LookAhead found for this task, taken when the task reads to that ID.
  error_code Read(json::ParseSpan span, JobEntry* entry, const char** at, bool* not_object,
                  const ListingAhead* ahead = nullptr);
  /// The listings of `count` tasks about to be read, from their texts: those
  /// that start with their ID (`{"id": "...", ...}`, as a server sends them).
  /// In a large snapshot each look-up is a cache miss in a table far bigger
  /// than the caches; one at a time, as each task is read, they wait on
  /// memory in turn, while a batch of them, looked up together, overlap.
  void LookAhead(const std::string_view* texts, size_t count, ListingAhead* out) const;
  /// JSON Lines: a malformed line is an invalid entry, as in a jobs file.
  void ReadLine(json::ParseSpan line, JobEntry* entry);
  /// Whether tasks are first read off their text (ReadTaskText); off, the
  /// parser reads every task (tests compare the two).
  void set_text_first(bool on) { text_first_ = on; }

 private:
  error_code Field(TaskKey key, std::string_view name, od::value value, JobEntry* entry);
  error_code Execution(od::value value, JobEntry* entry);
  /// What a string field holds, viewed in place when possible.
  error_code String(od::value value, TextRef* out) {
    std::string_view text;
    if (auto error = json::StableString(value, in_place_, arena_, &text)) return error;
    *out = text;
    return simdjson::SUCCESS;
  }
  /// Takes what ReadTaskText found, as Field takes what the parser finds.
  void Take(const TaskText& text, JobEntry* entry);
  void Finish(JobEntry* entry);
  /// Why an `{id, name}` reference cannot be taken: the queues file gives
  /// its ID another name, or its name another ID ("" when it agrees, or
  /// nothing tells).
  std::string Disagreement(const Ref& ref) const;

  /// Links the task to the companions: its queue ID to a name, a queued
  /// task to its place in its queue's `entries`, a running one to its worker.
  void Link(JobEntry* entry) const;

  const ParamQuery& query_;
  const Lookups& lookups_;
  ParamCapture capture_;
  TextArena* arena_;
  od::parser parser_;
  bool in_place_ = false;
  bool text_first_ = true;
  const char* text_end_ = nullptr;  ///< of the task's text, for SkipQuick
  // The task being read.
  std::string_view status_;
  std::string_view status_message_;  ///< "stopping": a stop was asked for (rescfg(5), ClearML task snapshots)
  bool status_seen_ = false, status_mistyped_ = false, execution_mistyped_ = false;
  Ref queue_;
  std::string queue_shape_;
  uint32_t seen_ = 0;  ///< TaskKey bits (and one for execution.queue), for keys given twice
  const ListingAhead* ahead_ = nullptr;  ///< this task's listing, when it was looked up ahead
  std::string_view hashed_id_;  ///< the ID whose hash (HashText) is id_hash_
  uint64_t id_hash_ = 0;
};

/// An entry that keeps only its number and place (a task that could not be read).
void ResetEntry(JobEntry* entry);

}  // namespace rescfg::clearml
