#pragma once
/// Whether a queue lists a task now, read from the server again. A move
/// refused with 703 ("not in that queue") may mean that an earlier attempt
/// took the task out (the move goes on) or that a person moved it to another
/// queue meanwhile (queues.add_task leaves its execution.queue as it was):
/// only a fresh reading of the queues tells them apart, and enqueueing a
/// task that another queue lists would list it twice (rescfg(1), "rescfg
/// sync").

#include <string>

#include "sync/api_client.h"

namespace rescfg::sync {

struct ListingNow {
  bool ok = false;    ///< false: the queues could not be read
  std::string queue;  ///< the name of the queue that lists it ("" for none)
};

/// queues.get_all (hidden queues included), looked through for `task`.
ListingNow TaskListingNow(ApiClient& api, const std::string& task);

}  // namespace rescfg::sync
