#include "decide/clearml_requests.h"

#include "util/flat_record.h"

namespace rescfg::clearml {

bool RenderEnqueueRequests(const ScheduleReport& report, const QueueList* queues,
                           const std::function<bool(std::string_view)>& sink) {
  constexpr size_t kPiece = size_t(1) << 20;
  std::string out;
  out.reserve(kPiece + 4096);
  for (size_t index : report.assignments) {
    const JobOutcome& job = report.jobs[index];
    const Queue* queue = queues ? queues->FindByName(*job.queue) : nullptr;
    out.append("{\"endpoint\": \"tasks.enqueue\", \"body\": {\"task\": ");
    AppendJsonString(&out, *job.id);
    out.append(queue ? ", \"queue\": " : ", \"queue_name\": ");
    AppendJsonString(&out, queue ? queue->id : *job.queue);
    out.append(", \"update_execution_queue\": false}}\n");
    if (out.size() >= kPiece) {
      if (!sink(out)) return false;
      out.clear();
    }
  }
  // Then one stop per victim (rescfg(1), schedule --format clearml): asynchronous and not forced,
  // so a task with a live worker lets go through its agent.
  for (const PreemptionOutcome& p : report.preemptions) {
    const JobOutcome preemptor = report.jobs[p.job];
    for (size_t victim : p.victims) {
      const JobOutcome job = report.jobs[victim];
      out.append("{\"endpoint\": \"tasks.stop\", \"body\": {\"task\": ");
      AppendJsonString(&out, *job.id);
      out.append(", \"force\": false, \"status_reason\": ");
      AppendJsonString(&out, "rescfg: preempted for " + std::string(*preemptor.policy) + "/" + std::string(*preemptor.id) +
                                 " in " + std::string(p.pool));
      out.append("}}\n");
    }
  }
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
