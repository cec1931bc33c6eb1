#include "util/text_arena.h"

#include <algorithm>
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
    // Blocks grow with the arena, up to kLargestBlock: a large input's
    // texts take few blocks, each big enough for huge pages (huge_pages.cc).
    const size_t block = std::min(std::max(kBlock, capacity_ / 2), kLargestBlock);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(block));
    capacity_ += block;
    next_ = blocks_.back().get();
    left_ = block;
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
