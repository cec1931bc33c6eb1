#pragma once
/// The pass's ready candidate slots, smallest selection key first.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "schedule/selection_key.h"

namespace rescfg {

/// Slots that may have a target, smallest key first: a binary heap whose
/// entries go stale when their slot is filed again or withdrawn (a version
/// per slot tells), instead of an ordered set that allocates per insertion.
/// Stale entries are dropped when they reach the top, or all at once when
/// they outnumber the live ones twice over.
class ReadySlots {
 public:
  /// Room for slots 0..slots-1 (slots are only ever added).
  void Grow(size_t slots) {
    version_.resize(slots, 0);
    filed_.resize(slots, false);
  }
  void File(const SelectionKey& key) {
    uint32_t s = key.slot;
    if (!filed_[s]) ++live_;
    filed_[s] = true;
    ++version_[s];  // an entry filed before is stale now
    if (heap_.size() > 2 * live_ + 1024) Compact();
    heap_.push_back({key, version_[s]});
    std::push_heap(heap_.begin(), heap_.end(), Later);
  }
  void Withdraw(uint32_t s) {
    if (!filed_[s]) return;
    filed_[s] = false;
    --live_;
  }
  bool empty() {
    DropStale();
    return heap_.empty();
  }
  /// The smallest live key; only after !empty().
  const SelectionKey& top() const { return heap_.front().key; }
  void pop() {
    Withdraw(heap_.front().key.slot);
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    heap_.pop_back();
  }

 private:
  struct Entry { SelectionKey key; uint64_t version; };
  static bool Later(const Entry& a, const Entry& b) { return b.key < a.key; }
  bool Live(const Entry& e) const { return filed_[e.key.slot] && version_[e.key.slot] == e.version; }
  void DropStale() {
    while (!heap_.empty() && !Live(heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), Later);
      heap_.pop_back();
    }
  }
  void Compact() {
    std::erase_if(heap_, [&](const Entry& e) { return !Live(e); });
    std::make_heap(heap_.begin(), heap_.end(), Later);
  }

  std::vector<Entry> heap_;
  std::vector<uint64_t> version_;
  std::vector<bool> filed_;
  size_t live_ = 0;
};

}  // namespace rescfg
