#pragma once
/// Where each task ID is listed in the queues' `entries`, looked up by the
/// ID's hash. Every queued task of a snapshot is looked up once, in a table
/// far bigger than the caches: the slots hold the hash, the listing and the
/// ID itself (up to 44 bytes; ClearML's IDs have 32), one cache line each
/// (TextKeyMap), so that a look-up reads only the line its parse prefetched
/// when it read the ID, not that line and then the ID's text in the queues
/// file.

#include <cstdint>

#include "util/text_key_map.h"

namespace rescfg::clearml {

/// Where a task is listed: its queue and its 1-based place in `entries`.
struct Listing {
  uint32_t queue = 0;
  uint32_t position = 0;
};

using ListingMap = TextKeyMap<Listing>;

}  // namespace rescfg::clearml
