#pragma once
/// ClearML's IDs are 32 lowercase hexadecimal characters (a UUID's hex):
/// packed, one is 16 bytes, compared as two words.

#include <cstdint>
#include <string_view>

namespace rescfg::clearml {

/// The 16 bytes an ID of 32 lowercase hexadecimal characters spells (`low`
/// the first 8 as memcpy reads them, `high` the last 8): distinct IDs of
/// that form pack to distinct values.
struct PackedId {
  uint64_t low = 0, high = 0;
  bool operator==(const PackedId&) const = default;
};

/// Packs `id` into `out` when it has that form; false (and `out` unchanged)
/// for any other text, uppercase hexadecimal included.
bool PackHexId(std::string_view id, PackedId* out);

}  // namespace rescfg::clearml
