#include "util/text_arena.h"

#include <cstring>

namespace rescfg {

char* TextArena::Allocate(size_t size) {
  if (size > left_) {
    // Large strings get a block of their own; the current block stays open.
    if (size > kBlock / 4) {
      blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
      capacity_ += size;
      return blocks_.back().get();
    }
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlock));
    capacity_ += kBlock;
    next_ = blocks_.back().get();
    left_ = kBlock;
  }
  char* out = next_;
  next_ += size;
  left_ -= size;
  return out;
}

void TextArena::Absorb(TextArena&& other) {
  for (auto& block : other.blocks_) blocks_.push_back(std::move(block));
  capacity_ += other.capacity_;
  other.blocks_.clear();
  other.next_ = nullptr;
  other.left_ = 0;
  other.capacity_ = 0;
}

std::string_view TextArena::Keep(std::string_view text) {
  if (text.empty()) return std::string_view("", 0);
  char* out = Allocate(text.size());
  std::memcpy(out, text.data(), text.size());
  return {out, text.size()};
}

}  // namespace rescfg
