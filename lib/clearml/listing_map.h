#pragma once
/// Where each task ID is listed in the queues' `entries`, looked up by the
/// ID's hash. Every queued task of a snapshot is looked up once, in a table
/// far bigger than the caches: the slots hold the hash, the listing and the
/// ID itself (up to 44 bytes; ClearML's IDs have 32), one cache line each,
/// so that a look-up reads only the line its parse prefetched when it read
/// the ID, not that line and then the ID's text in the queues file.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace rescfg::clearml {

/// Where a task is listed: its queue and its 1-based place in `entries`.
struct Listing {
  uint32_t queue = 0;
  uint32_t position = 0;
};

class ListingMap {
 public:
  ListingMap() = default;
  /// Room for `count` IDs (added with Add) at no more than 2/3 full.
  explicit ListingMap(size_t count);

  /// Adds the task's listing under `hash` (HashText of the ID, or any hash
  /// the look-ups give alike) unless the ID is there: the first one stays.
  /// `task` is viewed, not copied, when longer than a slot holds.
  void Add(std::string_view task, uint64_t hash, Listing listing);
  /// The listing of the task, or nullptr. The text is compared only in a
  /// slot whose hash is the same.
  const Listing* Find(std::string_view task, uint64_t hash) const;
  /// Starts loading the slot a look-up with `hash` reads first, and the next.
  void Prefetch(uint64_t hash) const {
    if (slots_.empty()) return;
    const Slot* slot = &slots_[Index(hash)];
    __builtin_prefetch(slot);
    __builtin_prefetch(slot + 1);  // the table has one slot past the last
  }
  size_t size() const { return size_; }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static constexpr size_t kInline = 44;
  struct alignas(64) Slot {
    uint64_t hash = 0;
    Listing listing;
    uint32_t size = kEmpty;  ///< of the ID
    char text[kInline];      ///< the ID when it fits, else the address of its text
    std::string_view Key() const {
      if (size <= kInline) return {text, size};
      const char* data;
      std::memcpy(&data, text, sizeof data);
      return {data, size};
    }
  };
  static_assert(sizeof(Slot) == 64, "a slot is one cache line");
  /// The first slot to look at: `hash` scaled to the table (its high bits).
  size_t Index(uint64_t hash) const {
    return static_cast<size_t>((static_cast<unsigned __int128>(hash) * capacity_) >> 64);
  }
  size_t Next(size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }

  std::vector<Slot> slots_;  ///< capacity_ slots and one never used (for Prefetch)
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace rescfg::clearml
