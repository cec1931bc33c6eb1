#include "decide/clearml_requests.h"

#include "decide/clearml_actions.h"
#include "util/flat_record.h"

namespace rescfg::clearml {

bool RenderEnqueueRequests(const ScheduleReport& report, const QueueList* queues,
                           const std::function<bool(std::string_view)>& sink) {
  constexpr size_t kPiece = size_t(1) << 20;
  std::string out;
  out.reserve(kPiece + 4096);
  const bool whole = ForEachAction(report, [&](const ClearmlAction& action) {
    const JobOutcome job = report.jobs[action.job];
    if (action.kind == ActionKind::kMove) {
      const Queue* queue = queues ? queues->FindByName(action.to) : nullptr;
      out.append("{\"endpoint\": \"tasks.enqueue\", \"body\": {\"task\": ");
      AppendJsonString(&out, *job.id);
      out.append(queue ? ", \"queue\": " : ", \"queue_name\": ");
      AppendJsonString(&out, queue ? queue->id : action.to);
      out.append(", \"update_execution_queue\": false}}\n");
    } else {
      // Asynchronous and not forced (rescfg(1), schedule --format clearml): a task with a
      // live worker lets go through its agent.
      out.append("{\"endpoint\": \"tasks.stop\", \"body\": {\"task\": ");
      AppendJsonString(&out, *job.id);
      out.append(", \"force\": false, \"status_reason\": ");
      AppendJsonString(&out, StopReason(report, *action.preemption));
      out.append("}}\n");
    }
    if (out.size() < kPiece) return true;
    const bool taken = sink(out);
    out.clear();
    return taken;
  });
  if (!whole) return false;
  return out.empty() || sink(out);
}

std::string RenderEnqueueRequests(const ScheduleReport& report, const QueueList* queues) {
  std::string all;
  RenderEnqueueRequests(report, queues, [&](std::string_view piece) {
    all.append(piece);
    return true;
  });
  return all;
}

}  // namespace rescfg::clearml
