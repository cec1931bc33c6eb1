#pragma once
/// A map from short texts (IDs) to small values, looked up by the text's
/// hash, for tables far bigger than the caches or read between passes over
/// much more data: each slot holds the hash, the value and the text itself
/// (when it fits), one cache line, so that a look-up reads only the line it
/// lands on, not that line and then the text kept somewhere else.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace rescfg {

template <typename V>
class TextKeyMap {
 public:
  TextKeyMap() = default;
  /// Room for `count` keys (added with Add) at no more than 2/3 full.
  explicit TextKeyMap(size_t count) : slots_(count + count / 2 + 2), capacity_(slots_.size() - 1) {}

  /// Adds `value` under `key` with `hash` (HashText of the key, or any hash
  /// the look-ups give alike) unless the key is there: the first one stays.
  /// `key` is viewed, not copied, when longer than a slot holds.
  void Add(std::string_view key, uint64_t hash, V value) {
    if (3 * (size_ + 1) > 2 * capacity_) {  // more than the room asked for: grow
      TextKeyMap bigger(2 * (size_ + 1));
      for (size_t i = 0; i < capacity_; ++i) {
        if (slots_[i].size != kEmpty) bigger.Add(slots_[i].Key(), slots_[i].hash, slots_[i].value);
      }
      *this = std::move(bigger);
    }
    for (size_t i = Index(hash);; i = Next(i)) {
      Slot& slot = slots_[i];
      if (slot.size == kEmpty) {
        slot.hash = hash;
        slot.value = value;
        slot.size = static_cast<uint32_t>(key.size());
        if (key.size() <= kInline) {
          std::memcpy(slot.text, key.data(), key.size());
        } else {
          const char* data = key.data();
          std::memcpy(slot.text, &data, sizeof data);
        }
        ++size_;
        return;
      }
      if (slot.hash == hash && slot.Key() == key) return;
    }
  }
  /// The value of the key, or nullptr. The text is compared only in a slot
  /// whose hash is the same.
  const V* Find(std::string_view key, uint64_t hash) const {
    if (capacity_ == 0) return nullptr;
    for (size_t i = Index(hash);; i = Next(i)) {
      const Slot& slot = slots_[i];
      if (slot.size == kEmpty) return nullptr;
      if (slot.hash == hash && slot.size == key.size() && slot.Key() == key) return &slot.value;
    }
  }
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
  static constexpr size_t kInline = 64 - sizeof(uint64_t) - sizeof(V) - sizeof(uint32_t);
  static_assert(alignof(V) <= alignof(uint32_t) && sizeof(V) <= 16, "a value of a few words at most");
  struct alignas(64) Slot {
    uint64_t hash = 0;
    V value{};
    uint32_t size = kEmpty;  ///< of the key
    char text[kInline];      ///< the key when it fits, else the address of its text
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

}  // namespace rescfg
