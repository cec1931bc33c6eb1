#pragma once
/// `rescfg schedule --format clearml` (rescfg(5), SCHEDULE OUTPUT): for every assignment, in
/// placement order, the ClearML API request that hands the task to its pool
/// queue while it stays in its policy queue's accounting, one JSON object a
/// line:
///   {"endpoint": "tasks.enqueue", "body": {"task": "ID", "queue": "QUEUE_ID",
///    "update_execution_queue": false}}
/// A script posts each body to <api server>/<endpoint>.

#include <functional>
#include <string>
#include <string_view>

#include "clearml/queues.h"
#include "decide/report.h"

namespace rescfg::clearml {

/// The requests, passed to `sink` in pieces of about a megabyte. A queue
/// that `queues` (may be null) gives no ID for is named instead:
/// `"queue_name": "NAME"`. Stops and returns false as soon as the sink does.
bool RenderEnqueueRequests(const ScheduleReport& report, const QueueList* queues,
                           const std::function<bool(std::string_view)>& sink);

/// The same, whole.
std::string RenderEnqueueRequests(const ScheduleReport& report, const QueueList* queues);

}  // namespace rescfg::clearml
