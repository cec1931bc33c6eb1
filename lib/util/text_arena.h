#pragma once
/// Append-only storage for many small strings: one allocation per block
/// instead of one per string, and stable addresses (moving the arena moves
/// only its block list), so TextRef views stay valid for its lifetime.

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace rescfg {

class TextArena {
 public:
  TextArena() = default;
  TextArena(TextArena&&) = default;
  TextArena& operator=(TextArena&&) = default;

  /// A copy of `text` that lives as long as the arena.
  std::string_view Keep(std::string_view text);
  /// Room for `size` bytes the caller fills at once.
  char* Allocate(size_t size);
  /// Takes over `other`'s blocks (views into them stay valid).
  void Absorb(TextArena&& other);
  /// Bytes held by all blocks.
  size_t capacity() const { return capacity_; }

 private:
  static constexpr size_t kBlock = 64 * 1024;
  static constexpr size_t kLargestBlock = 4 * 1024 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  size_t left_ = 0;
  size_t capacity_ = 0;
};

}  // namespace rescfg
