#pragma once
/// The count a `queues.remove_task` answer gives: `{"data": {"removed": N}}`.
/// A ClearML server always sends it; an answer without it (a proxy, a
/// server of another make) says the call went through but not whether an
/// entry went with it, and each caller decides what that means (a stale
/// entry's removal: not removed; a move: its enqueue's own guard decides).

#include <cstdint>
#include <optional>
#include <string_view>

namespace rescfg::sync {

/// `data.removed` when it is a whole number of at least 0; nullopt when the
/// body is not JSON, or the field is missing or of another type.
std::optional<int64_t> RemovedCount(std::string_view body);

}  // namespace rescfg::sync
