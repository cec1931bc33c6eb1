#pragma once
/// Name look-ups for large inputs: a fast hash of short text and a map from
/// names (views kept elsewhere) to small values, built once.

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace rescfg {

/// A fast hash of short text (ids), 8 bytes at a time.
inline uint64_t HashText(std::string_view s) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  uint64_t w = 0;
  std::memcpy(&w, s.data() + i, s.size() - i);
  h = (h ^ w) * 0x94D049BB133111EBULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 32);
}

/// A name lookup built once: open addressing over one array, no node per
/// name. The first value added for a name stays.
template <typename V>
class NameMap {
 public:
  explicit NameMap(size_t expected = 0) { Reserve(expected); }
  void emplace(std::string_view name, V value) {
    if (2 * (size_ + 1) > slots_.size()) Reserve(2 * (size_ + 1));
    const uint64_t h = HashText(name);
    for (size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& slot = slots_[i];
      if (!slot.used) {
        slot = {name, h, value, true};
        ++size_;
        return;
      }
      if (slot.hash == h && slot.name == name) return;
    }
  }
  /// Starts loading the slot `name` would be looked up in (for a look-up a
  /// little later: large maps are far bigger than the caches).
  void prefetch(std::string_view name) const { __builtin_prefetch(&slots_[HashText(name) & (slots_.size() - 1)]); }
  /// Then, once the slot is loaded, starts loading the key a look-up of
  /// `name` would compare with (the keys view text elsewhere).
  void prefetch_key(std::string_view name) const {
    const uint64_t h = HashText(name);
    for (size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (!slot.used) return;
      if (slot.hash == h) {
        __builtin_prefetch(slot.name.data());
        return;
      }
    }
  }
  bool empty() const { return size_ == 0; }
  const V* find(std::string_view name) const {
    const uint64_t h = HashText(name);
    for (size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (!slot.used) return nullptr;
      if (slot.hash == h && slot.name == name) return &slot.value;
    }
  }

 private:
  struct Slot {
    std::string_view name;
    uint64_t hash = 0;
    V value{};
    bool used = false;
  };
  void Reserve(size_t count) {
    size_t capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    if (capacity <= slots_.size()) return;
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.used) emplace(slot.name, slot.value);
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace rescfg
