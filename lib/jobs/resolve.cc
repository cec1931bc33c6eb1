#include "jobs/resolve.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "config/human_amount.h"
#include "jobs/job_directory.h"
#include "jobs/job_fields.h"
#include "jobs/need.h"
#include "jobs/queue_order.h"
#include "jobs/repeated_ids.h"
#include "jobs/resolved_part.h"
#include "jobs/resolve_clearml.h"
#include "jobs/run_facts.h"
#include "util/flat_record.h"
#include "util/joined_thread.h"
#include "util/rfc3339.h"
#include "util/yaml_input.h"

namespace rescfg {
namespace {

std::string Str(TextRef t) { return std::string(*t); }

/// Why a text field cannot be carried to the output as it is: "" when it is
/// valid UTF-8. YAML escapes such as "\_" and "\N" decode to bytes that are
/// not, and no output may alter an id silently.
std::string NotUtf8(const char* field, TextRef t) {
  if (!t || JsonPlainPrefix(*t) == t->size() || IsValidUtf8(*t, nullptr)) return "";
  size_t at = 0;
  while (Utf8SequenceLength(*t, at) > 0) at += Utf8SequenceLength(*t, at);
  static constexpr char kHex[] = "0123456789ABCDEF";
  const unsigned char byte = static_cast<unsigned char>((*t)[at]);
  return std::string(field) + " is not valid UTF-8: byte " + kHex[byte >> 4] + kHex[byte & 0xF] + " at byte " +
         std::to_string(at + 1) + " (the YAML escapes \\_ and \\N decode to such bytes; write the character itself or \\uXXXX)";
}

/// `t` when it can be carried to the output as it is, else none.
TextRef Utf8OrNone(TextRef t) { return NotUtf8("", t).empty() ? t : TextRef(); }

/// Resolves entries one by one; several resolvers may share a directory
/// and work on different ranges at once.
class Resolver {
 public:
  /// `queues` answers for `dir`, remembering (one per thread).
  Resolver(const Config& config, QueueMemo& queues, const ConfigNames& names, ResolvedPart* part)
      : config_(config), dir_(queues.dir()), queues_(queues), names_(names), part_(*part) {}

  /// Resolves entries[0, count) into outcome slots [first, first + count);
  /// `repeated` (by slot; null: no id repeats) marks duplicate ids.
  void Resolve(const JobEntry* entries, size_t count, size_t first, const std::vector<bool>* repeated,
               Outcomes::Writer* outcomes);

 private:
  /// What an entry means before it is told running or queued: the first
  /// problem found, whether its id repeats, and what it names.
  struct EntryTerms {
    std::string invalid;
    bool duplicate = false;
    std::optional<QueueTarget> via_queue;
    std::optional<uint32_t> policy, profile;
  };

  /// Resolves entry `e` of slot `i` into `out`.
  void ResolveOne(const JobEntry& e, size_t i, const std::vector<bool>* repeated, OutcomeRecord& out);
  /// The halves of ResolveOne: a running job holds; a queued one waits to be decided.
  void ResolveRunning(const JobEntry& e, size_t i, EntryTerms t, OutcomeRecord& out);
  void ResolveQueued(const JobEntry& e, size_t i, EntryTerms t, OutcomeRecord& out);

  TextRef Keep(TextRef t) { return t ? TextRef(part_.text.Keep(*t)) : TextRef(); }
  TextRef Keep(std::string_view t) { return part_.text.Keep(t); }
  TextRef Keep(const std::string& t) { return part_.text.Keep(t); }

  /// Marks the outcome rejected. Its message's place is the entry's line
  /// (the user finds it in the file), and its column where one line holds
  /// many entries (a ClearML document) or the reader found the problem
  /// there. A rejection that carries nothing of its entry is kept compact.
  void Reject(OutcomeRecord* out, const JobEntry& entry, const char* reason, const std::string& message) {
    out->status = JobStatus::kRejected;
    out->reason = OutcomeReasonCode(reason);
    part_.rejected.push_back(static_cast<uint32_t>(slot_));
    out->policy = Keep(Utf8OrNone(entry.policy));
    out->profile = Keep(Utf8OrNone(entry.profile));
    out->pool = 0;
    out->route = 0;
    out->resource_ticks = OutcomeRecord::kNoResources;
    const EntryPlace place = PlaceOf(entry);
    out->message_line = place.line;
    out->message_column = place.column;
    if (!out->id && !out->policy && !out->profile && !out->name && !out->node && out->need_source == NeedSource() &&
        !out->warning &&
        outcomes_->Compact(slot_, out->entry, out->message_line, out->message_column, reason, message, &part_.text)) {
      kept_ = true;
      return;
    }
    out->message_text = Keep(message);
  }

  const Config& config_;
  const JobDirectory& dir_;
  QueueMemo& queues_;
  const ConfigNames& names_;
  ResolvedPart& part_;
  Outcomes::Writer* outcomes_ = nullptr;  ///< of the range being resolved
  size_t slot_ = 0;                       ///< of the entry being resolved
  bool kept_ = false;                     ///< its outcome is kept already (compact)
};

void Resolver::Resolve(const JobEntry* entries, size_t count, size_t first, const std::vector<bool>* repeated,
                       Outcomes::Writer* outcomes) {
  outcomes_ = outcomes;
  for (size_t i = 0; i < count; ++i) queues_.Prefetch(entries[i].queue_key);
  for (size_t i = first; i < first + count; ++i) {
    OutcomeRecord out;
    slot_ = i;
    kept_ = false;
    ResolveOne(entries[i - first], i, repeated, out);
    if (!kept_) outcomes->Whole(i, out);
  }
  if (!part_.beyond_nanos.empty()) part_.beyond_nanos.resize(part_.queued.size());
  if (!part_.listed_rank.empty()) part_.listed_rank.resize(part_.queued.size());
}

void Resolver::ResolveOne(const JobEntry& e, size_t i, const std::vector<bool>* repeated, OutcomeRecord& out) {
  EntryTerms t;
  out.entry = static_cast<uint32_t>(e.entry);
  if (!e.params.empty()) part_.near_misses.Note(e);
  t.invalid = e.invalid;
  for (auto [field, text] : {std::pair{"id", e.id}, {"policy", e.policy}, {"profile", e.profile},
                             {"queue", e.queue}, {"pool", e.pool}}) {
    if (t.invalid.empty()) t.invalid = NotUtf8(field, text);
  }
  // An id that is not UTF-8 is no usable id: the entry is named by number.
  if (e.id && !e.id->empty() && NotUtf8("id", e.id).empty()) out.id = Keep(*e.id);
  if (e.name && NotUtf8("name", e.name).empty()) out.name = Keep(*e.name);
  t.duplicate = repeated != nullptr && (*repeated)[i];

  if (e.clearml_task && e.queue) part_.matches.Count(TaskMatchesQueue(queues_, e), e, &part_.text);
  // A ClearML task handed over to a pool, or in flight, runs as far as
  // the pools are concerned (rescfg(5), JOBS FILE, ClearML task snapshots): it is never decided again.
  const bool running = (e.state && *e.state == "running") || (t.invalid.empty() && TaskRunsAlready(queues_, e));
  if (t.invalid.empty() && e.state && *e.state != "running" && *e.state != "queued") {
    t.invalid = "state must be queued or running, not '" + std::string(e.state->substr(0, 40)) + "'";
  }
  if (t.invalid.empty() && !out.id) t.invalid = e.id ? "id must not be empty" : "required field 'id' is missing";

  // Which queue, policy and profile the entry means.
  if (e.queue) {
    if (const QueueTarget* target = queues_.PolicyQueue(*e.queue, e.queue_key)) t.via_queue = *target;
  }
  t.policy = JobDirectory::Find(dir_.policies, e.policy);
  t.profile = JobDirectory::Find(dir_.profiles, e.profile);
  if (t.via_queue) {
    if (!e.policy) t.policy = t.via_queue->policy;
    if (!e.profile) t.profile = t.via_queue->profile;
  }
  if (running) {
    ResolveRunning(e, i, std::move(t), out);
  } else {
    ResolveQueued(e, i, std::move(t), out);
  }
}

void Resolver::ResolveRunning(const JobEntry& e, size_t i, EntryTerms t, OutcomeRecord& out) {
  const ConfigNames& names = names_;
  std::string& invalid = t.invalid;
  std::optional<uint32_t>& policy = t.policy;
  std::optional<uint32_t>& profile = t.profile;
  const bool duplicate = t.duplicate;
  out.status = JobStatus::kRunning;
  out.need_source = NeedSource::kHolding;
  std::optional<Quantity> holding;
  TaskPlacement task;
  if (e.clearml_task) {
    if (invalid.empty()) {
      task = PlaceTask(config_, dir_, e);
      invalid = task.invalid;
      profile = task.profile;
      holding = task.holding;
      policy = task.policy;
    }
  } else if (invalid.empty() && !e.pool) {
    invalid = "required field 'pool' is missing (a running job names its pool)";
  }
  if (e.clearml_task) {
    // Placed above.
  } else if (invalid.empty() && e.resources) {
    QuantityError error;
    holding = ParseQuantity(*e.resources, &error);
    if (!holding) invalid = "resources: " + error.message + (error.hint.empty() ? "" : " (" + error.hint + ")");
  }
  int64_t started_us = kUnknownTime;
  bool stopping = false;
  if (invalid.empty()) invalid = ReadRunFacts(e, &started_us, &stopping);
  if (!invalid.empty() || holding || e.clearml_task) {
    // Read above.
  } else {
    if (!profile) {
      invalid = "cannot tell what it holds: no resources given and its profile is " +
                std::string(e.profile || e.queue ? "unknown" : "not given");
    } else {
      NeedSource source;
      std::string note;
      holding = NeedOf(config_.profiles[*profile], e, &source, &note);
      if (source == NeedSource::kInvalid) invalid = note;
    }
  }
  if (!invalid.empty()) { Reject(&out, e, "invalid-job", invalid); return; }
  if (duplicate) { Reject(&out, e, "duplicate-id", "id '" + Str(out.id) + "' appears earlier in the file"); return; }
  auto pool = e.clearml_task ? task.pool : JobDirectory::Find(dir_.pools, e.pool);
  if (!pool && !e.clearml_task) {
    Reject(&out, e, "unknown-pool", "pool '" + Str(e.pool) + "' is not in the configuration");
    return;
  }
  // A task whose pool cannot be told holds in none (PlaceTask gave it a policy).
  if (pool) {
    out.pool = Outcomes::PoolNumber(*pool);
    out.route = Outcomes::PoolRoute(*pool, false);
  }
  out.set_resources(holding);
  out.warning = task.warning;
  out.policy = policy ? TextRef(names.policies[*policy]) : Keep(e.policy);
  out.profile = profile ? TextRef(names.profiles[*profile]) : Keep(e.profile);
  std::string message;
  auto warn = [&](const std::string& w) { message += (message.empty() ? "" : "; ") + w; };
  if (!task.note.empty()) warn(task.note);
  if (std::string renamed = dir_.RenameNote(e); !renamed.empty()) warn(renamed);
  if (!policy) warn(e.policy ? "policy '" + Str(e.policy) + "' no longer exists; counted in the pool only"
                             : "no policy; counted in the pool only");
  if (!profile && e.profile) warn("profile '" + Str(e.profile) + "' no longer exists");
  if (profile && pool) {
    // Its queue is that of its profile's link to the pool (rescfg(5), SCHEDULE OUTPUT).
    const auto& links = config_.profiles[*profile].links;
    const std::string_view pool_name = names.pools[*pool];
    auto link = std::find_if(links.begin(), links.end(), [&](const Link& l) { return l.pool == pool_name; });
    if (link == links.end()) {
      warn("pool '" + std::string(pool_name) + "' is not linked to profile '" + Str(out.profile) + "'");
    } else {
      out.route = outcomes_->store().LinkRoute(*profile, static_cast<size_t>(link - links.begin()), false);
    }
  }
  if (policy && profile && !dir_.Allowed(*policy, *profile)) {
    warn("policy '" + Str(out.policy) + "' does not list profile '" + Str(out.profile) + "'");
  }
  Holding held{pool, policy, *holding};
  held.started_us = started_us;
  held.stopping = stopping;
  held.handed_over = TaskRunsAlready(queues_, e);
  if (config_.preemption) part_.holding_profile.push_back(profile ? *profile : SchedulingInput::kNoProfile);
  // Its machine (rescfg(5), JOBS FILE); names become numbers once the whole
  // file is read (AssignMachines). A bad node never frees a machine: the job
  // holds in the pool, on none. A ClearML task's node is its worker's host
  // part, which names no machine in a pool with `names: none`: there it is
  // placed as a job without a node.
  const PoolNodes* nodes = pool && config_.pools[*pool].nodes ? &*config_.pools[*pool].nodes : nullptr;
  if (nodes != nullptr && (!e.clearml_task || nodes->names_from_workers)) {
    if (e.node_mistyped || (e.node && e.node->empty()) || !NotUtf8("node", e.node).empty()) {
      warn("node must be a non-empty string; it holds in the pool only, on no machine");
      held.machine = Holding::kPoolOnly;
    } else if (e.node) {
      out.node = Keep(e.node);
    }
  }
  if (!message.empty()) out.message_text = Keep(message);
  part_.holdings.push_back(held);
  part_.running.push_back(i);
}

void Resolver::ResolveQueued(const JobEntry& e, size_t i, EntryTerms t, OutcomeRecord& out) {
  const ConfigNames& names = names_;
  std::vector<OrderKey>& ordering = part_.ordering;
  std::vector<std::string_view>& beyond_nanos = part_.beyond_nanos;
  std::string& invalid = t.invalid;
  const std::optional<QueueTarget>& via_queue = t.via_queue;
  const std::optional<uint32_t>& policy = t.policy;
  const std::optional<uint32_t>& profile = t.profile;
  const bool duplicate = t.duplicate;
  std::optional<Timestamp> enqueued;
  if (invalid.empty() && !e.queue && (!e.policy || !e.profile)) {
    invalid = std::string("required field '") + (e.policy ? "profile" : "policy") +
              "' is missing (give policy and profile, or queue)";
  }
  if (invalid.empty() && via_queue) {
    if (e.policy && policy != via_queue->policy) {  // an old name of its policy is its policy
      invalid = "queue '" + Str(e.queue) + "' belongs to policy '" + config_.policies[via_queue->policy].name +
                "', not '" + Str(e.policy) + "'";
    } else if (e.profile && profile != via_queue->profile) {
      invalid = "queue '" + Str(e.queue) + "' is for profile '" + config_.profiles[via_queue->profile].name +
                "', not '" + Str(e.profile) + "'";
    }
  }
  const char* time_field = e.clearml_task ? "status_changed" : "enqueued";
  if (e.enqueued_mistyped) {
    if (!invalid.empty()) invalid += "; ";
    invalid += std::string("field '") + time_field + "' must be a string";
  }
  if (invalid.empty() && e.enqueued) {
    enqueued = ParseRfc3339(*e.enqueued);
    if (!enqueued) {
      invalid = std::string(time_field) + " '" + std::string(e.enqueued->substr(0, 40)) +
                "' is not an RFC 3339 time such as 2026-11-29T10:00:00Z";
    }
  }
  if (!invalid.empty()) { Reject(&out, e, "invalid-job", invalid); return; }
  if (duplicate) { Reject(&out, e, "duplicate-id", "id '" + Str(out.id) + "' appears earlier in the file"); return; }
  if (e.queue && !via_queue) {
    Reject(&out, e, "unknown-queue",
           "no policy has a queue named '" + Str(e.queue) + "'" +
               (e.queue_from_id ? " (an execution.queue ID that no queue of --clearml-queues lists is taken as a name)"
                                : ""));
    return;
  }
  if (!policy) { Reject(&out, e, "unknown-policy", "policy '" + Str(e.policy) + "' is not in the configuration"); return; }
  if (!profile) { Reject(&out, e, "unknown-profile", "profile '" + Str(e.profile) + "' is not in the configuration"); return; }
  if (!dir_.Allowed(*policy, *profile)) {
    Reject(&out, e, "profile-not-allowed", "policy '" + config_.policies[*policy].name + "' does not list profile '" +
                                            config_.profiles[*profile].name + "'");
    return;
  }
  out.status = JobStatus::kPending;
  out.policy = names.policies[*policy];
  out.profile = names.profiles[*profile];
  std::string note;
  NeedSource source;
  Quantity need = NeedOf(config_.profiles[*profile], e, &source, &note);
  out.need_source = source;
  if (source == NeedSource::kInvalid) {
    out.need_source = NeedSource::kNone;
    Reject(&out, e, "invalid-job", note);
    return;
  }
  out.set_resources(need);
  if (std::string renamed = dir_.RenameNote(e); !renamed.empty()) note += (note.empty() ? "" : "; ") + renamed;
  if (!note.empty()) out.message_text = Keep(note);  // kept for pending jobs' messages
  QueuedJob job;
  job.policy = *policy;
  job.profile = *profile;
  job.need = need;
  job.position = static_cast<uint32_t>(i);
  if (enqueued) job.enqueued_us = MicrosOf(*enqueued);
  if (e.queue_rank > 0) {
    // Room for the rest at once (the queued jobs' room; memory never written is never taken).
    if (part_.listed_rank.empty()) part_.listed_rank.reserve(part_.queued.capacity());
    part_.listed_rank.resize(part_.queued.size() + 1);
    part_.listed_rank.back() = e.queue_rank;
  }
  if (e.queue_rank == 0 && enqueued && !enqueued->beyond_nanos.empty()) {
    beyond_nanos.resize(part_.queued.size() + 1);
    beyond_nanos.back() = enqueued->beyond_nanos;
  }
  ordering.push_back(MakeOrderKey(enqueued, e.queue_rank, static_cast<uint32_t>(part_.queued.size())));
  part_.queued.push_back(job);
  part_.queued_outcome.push_back(static_cast<uint32_t>(i));
}

/// Entries from this many on are resolved as two halves on two threads.
constexpr size_t kParallelEntries = size_t(1) << 16;

}  // namespace

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries, ResolveThreads threads) {
  ResolvedJobs resolved;
  resolved.names = CopyNames(config, &resolved.text, &resolved.outcomes);
  const JobDirectory dir(config);
  const std::vector<bool> repeated = RepeatedIds(entries);
  const size_t n = entries.size();
  resolved.outcomes.Reserve(n);
  // Entries are independent once repeated ids are known: the second half
  // is resolved beside the first and joined after it, as if in one pass.
  ResolvedPart parts[2];
  size_t second_from = n;
  std::optional<Outcomes::Writer> writers[2];
  const size_t parallel_from = threads == ResolveThreads::kAuto ? kParallelEntries : SIZE_MAX;
  const bool split = SplitAcrossCores(n, parallel_from, [&](size_t half, size_t from, size_t to) {
    ReservePart(&parts[half], n - from);
    if (half == 1) second_from = from;
    writers[half].emplace(&resolved.outcomes, from);
    QueueMemo queues(dir);
    Resolver(config, queues, resolved.names, &parts[half])
        .Resolve(entries.data() + from, to - from, from, &repeated, &*writers[half]);
  });
  if (!writers[1]) writers[1].emplace(&resolved.outcomes, n);
  std::vector<Outcomes::Written> written;
  written.push_back({std::move(*writers[0]), second_from});
  written.push_back({std::move(*writers[1]), n - second_from});
  resolved.outcomes.Join(std::move(written));
  if (split) JoinPart(std::move(parts[1]), &parts[0]);
  AssignMachines(config, &parts[0], resolved.outcomes);
  PutInQueueOrder(std::move(parts[0]), &resolved);
  return resolved;
}

/// A range of slots resolved by one thread at a time, file order within it.
struct ResolutionAsRead::Part {
  Part(Outcomes* outcomes, size_t from_slot, size_t room, size_t by) : from(from_slot), thread(by) {
    ReservePart(&part, room);
    writer.emplace(outcomes, from);
  }
  ResolvedPart part;
  std::optional<Outcomes::Writer> writer;
  size_t from;
  size_t filled = 0;
  size_t thread;  ///< whose memo answers for it
};

struct ResolutionAsRead::State {
  State(const Config& c, size_t room, size_t second, std::vector<bool> known)
      : config(c), dir(c), repeated(std::move(known)) {
    resolved.names = CopyNames(config, &resolved.text, &resolved.outcomes);
    resolved.outcomes.Reserve(room);
    // The first part is joined the others: room for all of them.
    parts[0] = std::make_unique<Part>(&resolved.outcomes, 0, room, 0);
    parts[1] = std::make_unique<Part>(&resolved.outcomes, second, room - second, 1);
  }
  const Config& config;
  const JobDirectory dir;
  QueueMemo queues[2] = {QueueMemo(dir), QueueMemo(dir)};  ///< per thread
  ResolvedJobs resolved;
  /// Each is written once, by the thread that then resolves it: a fixed
  /// array, so that adding one moves none another thread is using.
  std::array<std::unique_ptr<Part>, kMaxParts> parts;
  std::atomic<size_t> count = 2;
  std::vector<bool> repeated;  ///< by slot; empty: none known
};

ResolutionAsRead::ResolutionAsRead(const Config& config, size_t room, size_t second_from, std::vector<bool> repeated)
    : state_(std::make_unique<State>(config, room, std::min(second_from, room), std::move(repeated))) {}

ResolutionAsRead::~ResolutionAsRead() = default;

size_t ResolutionAsRead::AddPart(size_t from, size_t room, size_t thread) {
  State& s = *state_;
  const size_t part = s.count.fetch_add(1);
  if (part >= kMaxParts) throw std::length_error("more than " + std::to_string(kMaxParts) + " parts");
  s.parts[part] = std::make_unique<Part>(&s.resolved.outcomes, from, room, thread);
  return part;
}

void ResolutionAsRead::Resolve(size_t part, const JobEntry* entries, size_t count) {
  State& s = *state_;
  Part& p = *s.parts[part];
  Resolver(s.config, s.queues[p.thread], s.resolved.names, &p.part)
      .Resolve(entries, count, p.from + p.filled, s.repeated.empty() ? nullptr : &s.repeated, &*p.writer);
  p.filled += count;
}

std::optional<ResolvedJobs> ResolutionAsRead::Finish(std::vector<bool>* repeated_slots) && {
  State& s = *state_;
  Outcomes& outcomes = s.resolved.outcomes;
  std::vector<Part*> parts;
  for (size_t k = 0; k < std::min(s.count.load(), kMaxParts); ++k) parts.push_back(s.parts[k].get());
  std::sort(parts.begin(), parts.end(), [](const Part* a, const Part* b) { return a->from < b->from; });
  // A part after slots left over (blank lines before it) moves down,
  // renumbered, and what points at its outcomes follows.
  std::vector<Outcomes::Written> written;
  std::vector<size_t> joined_from;  ///< by part: where its outcomes start once joined
  size_t at = 0;
  for (Part* p : parts) {
    written.push_back({std::move(*p->writer), p->filled});
    joined_from.push_back(at);
    const auto gap = static_cast<uint32_t>(p->from - at);
    if (gap > 0 && p->filled > 0) {
      for (QueuedJob& job : p->part.queued) job.position -= gap;
      for (uint32_t& index : p->part.queued_outcome) index -= gap;
      for (uint32_t& index : p->part.rejected) index -= gap;
      for (uint32_t& index : p->part.running) index -= gap;
    }
    at += p->filled;
  }
  outcomes.Join(std::move(written));
  // A repeated id makes the later entry a duplicate (unless invalid
  // anyway): rare, and then read again knowing which. The ids are looked
  // at beside the join (which moves no outcome and no text).
  std::vector<bool> later;
  JoinedThread check([&] {
    if (s.repeated.empty()) later = RepeatedIds(outcomes);
  });
  for (size_t k = 1; k < parts.size(); ++k) JoinPart(std::move(parts[k]->part), &parts[0]->part);
  AssignMachines(s.config, &parts[0]->part, s.resolved.outcomes);
  PutInQueueOrder(std::move(parts[0]->part), &s.resolved);
  check.Join();
  if (std::find(later.begin(), later.end(), true) != later.end()) {
    // By slot, as the second reading will number them.
    repeated_slots->assign(parts.back()->from + parts.back()->filled, false);
    for (size_t k = 0; k < parts.size(); ++k) {
      for (size_t i = 0; i < parts[k]->filled; ++i) {
        if (later[joined_from[k] + i]) (*repeated_slots)[parts[k]->from + i] = true;
      }
    }
    return std::nullopt;
  }
  return std::move(s.resolved);
}

}  // namespace rescfg
