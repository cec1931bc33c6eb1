#include "clearml/listing_map.h"

#include <cstring>

namespace rescfg::clearml {

ListingMap::ListingMap(size_t count) : slots_(count + count / 2 + 2), capacity_(slots_.size() - 1) {}

void ListingMap::Add(std::string_view task, uint64_t hash, Listing listing) {
  if (3 * (size_ + 1) > 2 * capacity_) {  // more than the room asked for: grow
    ListingMap bigger(2 * (size_ + 1));
    for (size_t i = 0; i < capacity_; ++i) {
      if (slots_[i].size != kEmpty) bigger.Add(slots_[i].Key(), slots_[i].hash, slots_[i].listing);
    }
    *this = std::move(bigger);
  }
  for (size_t i = Index(hash);; i = Next(i)) {
    Slot& slot = slots_[i];
    if (slot.size == kEmpty) {
      slot.hash = hash;
      slot.listing = listing;
      slot.size = static_cast<uint32_t>(task.size());
      if (task.size() <= kInline) {
        std::memcpy(slot.text, task.data(), task.size());
      } else {
        const char* data = task.data();
        std::memcpy(slot.text, &data, sizeof data);
      }
      ++size_;
      return;
    }
    if (slot.hash == hash && slot.Key() == task) return;
  }
}

const Listing* ListingMap::Find(std::string_view task, uint64_t hash) const {
  if (capacity_ == 0) return nullptr;
  for (size_t i = Index(hash);; i = Next(i)) {
    const Slot& slot = slots_[i];
    if (slot.size == kEmpty) return nullptr;
    if (slot.hash == hash && slot.size == task.size() && slot.Key() == task) return &slot.listing;
  }
}

}  // namespace rescfg::clearml
