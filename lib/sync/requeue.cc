#include "sync/requeue.h"

#include <simdjson.h>

#include "sync/server_text.h"
#include "util/crash_point.h"
#include "util/flat_record.h"

namespace rescfg::sync {
namespace {

std::string EnqueueBody(const MoveIntent& m) {
  std::string body = "{\"task\": ";
  AppendJsonString(&body, m.task);
  body += ", \"queue\": ";
  AppendJsonString(&body, m.from_id);
  body += ", \"status_reason\": ";
  AppendJsonString(&body, RequeueReason(m));
  return body + "}";
}

std::string FrontBody(const MoveIntent& m) {
  std::string body = "{\"queue\": ";
  AppendJsonString(&body, m.from_id);
  body += ", \"task\": ";
  AppendJsonString(&body, m.task);
  return body + "}";
}

MoveReport Report(const Clock& clock, const MoveIntent& m, MoveResult result, std::string detail, bool open = false) {
  return {m, UtcNowMicros(clock), result, std::move(detail), open};
}

/// queues.move_task_to_front: "" when done, else why not (the task stays re-queued, at the end).
std::string ToFront(ApiClient& api, const MoveIntent& m) {
  const ApiAnswer front = api.Call("queues.move_task_to_front", FrontBody(m));
  if (front.ok()) return "";
  return "queues.move_task_to_front: " + front.Describe() + "; it waits at the end of " + m.from;
}

void Unanswered(SettleOutcome* outcome, const std::string& what) {
  outcome->ok = false;
  outcome->failure.kind = ApiAnswer::Kind::kUnreachable;
  outcome->failure.message = what;
}

/// A stop or re-queue intent a crash (or a silent server) left open.
void SettleOpen(ApiClient& api, Journal& journal, const MoveIntent& m, const Clock& clock, SettleOutcome* outcome) {
  const VictimLook look = LookAtVictim(api, m.task);
  std::string note = "unfinished " + std::string(ActionKindName(m.kind)) + " of task " + ServerText(m.task) + ": ";
  if (!look.ok) {
    Unanswered(outcome, "tasks.get_all: no answer about task " + m.task);
    outcome->notes.push_back(note + "the server did not answer; settled at the next cycle");
    return;
  }
  if (m.kind == ActionKind::kStop) {
    // The journal says rescfg asked for this stop: a victim stopping or
    // stopped now is rescfg's (re-queued once stopped); any other is left
    // alone, and only a newer decision stops it.
    const bool stopped = look.status == "stopped" ||
                         (look.status == "in_progress" && look.status_message.find("stopping") != std::string::npos);
    journal.Finish(m.seq, stopped ? MoveResultName(MoveResult::kStopped) : "undone", false);
    outcome->notes.push_back(note + (stopped ? "stopped (" + look.status + ")" : "not stopped: left alone"));
    return;
  }
  MoveReport report;
  if (look.status == "stopped" && !m.changed.empty() && look.status_changed == m.changed) {
    outcome->acted = true;  // never enqueued: do it now
    report = RequeueTask(api, m, clock);
  } else if (look.status == "queued" && look.queue == m.from_id && look.status_reason.find(kPushedBack) != std::string::npos) {
    outcome->acted = true;  // enqueued: to the front, again
    const std::string front = ToFront(api, m);
    report = Report(clock, m, MoveResult::kRequeued, front);
  } else {
    journal.Finish(m.seq, "undone", false);
    journal.ReleaseStop(m.task);
    outcome->notes.push_back(note + "its status is " + ServerText(look.status) + ": left alone");
    return;
  }
  outcome->notes.push_back(note + MoveResultName(report.result) +
                           (report.detail.empty() ? "" : " (" + ServerText(report.detail) + ")"));
  if (report.open) {
    Unanswered(outcome, report.detail);
  } else {
    journal.Finish(m.seq, MoveResultName(report.result), false);
    journal.ReleaseStop(m.task);
  }
  outcome->reports.push_back(std::move(report));
}

/// A stopped victim back to the head of its policy queue: intent, then the calls.
bool Requeue(ApiClient& api, Journal& journal, const MoveIntent& stop, const VictimLook& look, int64_t cycle,
             const Clock& clock, SettleOutcome* outcome, std::string* error) {
  MoveIntent m = stop;
  m.kind = ActionKind::kRequeue;
  m.cycle = cycle;
  m.changed = look.status_changed;
  std::vector<MoveIntent> one{m};
  if (!journal.Begin(&one, error)) return false;
  m.seq = one[0].seq;
  CrashPoint();
  outcome->acted = true;
  MoveReport report = RequeueTask(api, m, clock);
  if (report.open) {
    Unanswered(outcome, report.detail);
  } else {
    journal.Finish(m.seq, MoveResultName(report.result), false);
    if (report.result != MoveResult::kFailed) journal.ReleaseStop(m.task);
  }
  outcome->reports.push_back(std::move(report));
  return true;
}

}  // namespace

int64_t StopTimeoutMicros(const Config& config) {
  return config.preemption ? config.preemption->stop_timeout_us : PreemptionSettings::kDefaultStopTimeoutMicros;
}

std::string RequeueReason(const MoveIntent& stop) {
  return "rescfg: " + std::string(kPushedBack) + ": preempted for " + stop.preemptor + " in " + stop.pool;
}

StopState JudgeStop(const MoveIntent& stop, const VictimLook& look, int64_t now_us, int64_t stop_timeout_us) {
  if (!look.found) return StopState::kLetGo;
  if (look.status == "stopped") return StopState::kStopped;
  if (look.status != "in_progress" || look.status_message.find("stopping") == std::string::npos) {
    return StopState::kLetGo;
  }
  return now_us - stop.asked_us > stop_timeout_us ? StopState::kStuck : StopState::kWaiting;
}

MoveReport RequeueTask(ApiClient& api, const MoveIntent& m, const Clock& clock) {
  const ApiAnswer enqueued = api.Call("tasks.enqueue", EnqueueBody(m));
  if (!enqueued.ok()) {
    const std::string detail = "tasks.enqueue: " + enqueued.Describe();
    if (enqueued.kind == ApiAnswer::Kind::kRefused) {
      return Report(clock, m, MeansTaskChanged(enqueued.subcode) ? MoveResult::kSkipped : MoveResult::kFailed, detail);
    }
    return Report(clock, m, MoveResult::kFailed, detail + "; settled at the next cycle", true);
  }
  CrashPoint();
  return Report(clock, m, MoveResult::kRequeued, ToFront(api, m));
}

SettleOutcome SettlePreemptions(ApiClient& api, Journal& journal, int64_t cycle, int64_t stop_timeout_us,
                                const Clock& clock, std::string* error) {
  SettleOutcome outcome;
  const std::map<uint64_t, MoveIntent> open = journal.unfinished();  // a copy: Finish changes it
  for (const auto& [seq, m] : open) {
    if (m.kind != ActionKind::kMove) SettleOpen(api, journal, m, clock, &outcome);
  }
  if (!outcome.ok) return outcome;
  const std::map<std::string, MoveIntent> stops = journal.stops();
  for (const auto& [task, stop] : stops) {
    const VictimLook look = LookAtVictim(api, task);
    if (!look.ok) {
      Unanswered(&outcome, "tasks.get_all: no answer about task " + task);
      return outcome;
    }
    const int64_t now = clock.UtcMicros();
    switch (JudgeStop(stop, look, now, stop_timeout_us)) {
      case StopState::kWaiting: break;
      case StopState::kStuck: {
        const std::string detail = "still in_progress " + std::to_string((now - stop.asked_us) / 1'000'000) +
                                   " s after its stop was asked (stopTimeout " +
                                   std::to_string(stop_timeout_us / 1'000'000) + " s); it keeps holding " + stop.pool;
        outcome.notes.push_back("stop of task " + ServerText(task) + " stuck: " + detail);
        outcome.reports.push_back(Report(clock, stop, MoveResult::kStuck, detail));
        break;
      }
      case StopState::kStopped:
        if (!Requeue(api, journal, stop, look, cycle, clock, &outcome, error)) return outcome;
        break;
      case StopState::kLetGo:
        journal.ReleaseStop(task);
        outcome.notes.push_back("task " + ServerText(task) + " that rescfg stopped is " +
                                ServerText(look.found ? look.status : "gone") + " now: not re-queued");
        break;
    }
    if (!error->empty()) return outcome;
  }
  return outcome;
}

}  // namespace rescfg::sync
