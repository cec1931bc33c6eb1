#pragma once
/// The block scan behind BracketsEndFast, for any way of finding the
/// quotes, backslashes, brackets and line breaks of 64 bytes: SSE2, which
/// every x86-64 has (json_scan.cc), and AVX-512, which most servers have
/// (json_scan_avx512.cc, built for it and called only where the processor
/// has it). Internal linkage on purpose: each file that includes this has
/// its own copy, built for its own instructions, so that no copy built for
/// AVX-512 stands in for the other where the processor lacks it.

#include <cstdint>
#include <cstring>

#include "clearml/json_scan.h"

namespace rescfg::clearml {
namespace {  // internal linkage: see above

/// What one block of 64 bytes holds, a bit a byte.
struct BlockMasks {
  uint64_t quotes = 0;
  uint64_t escapes = 0;   ///< backslashes
  uint64_t brackets = 0;  ///< '{', '}', '[' and ']'
  uint64_t breaks = 0;    ///< line feeds and carriage returns
};

/// Bit i set when an odd number of bits at or below i are set in `x`.
inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/// BracketsEndFast with `masks(block)` giving each block's BlockMasks.
template <typename Masks>
BracketsEnd ScanBlocks(const char* start, const char* end, bool* line_breaks, Masks masks) {
  // The closers owed, innermost last; a scan deeper than this is the
  // scalar one's (no document of a server's nests so deep).
  constexpr int kDepth = 256;
  char closers[kDepth];
  closers[0] = *start == '{' ? '}' : ']';
  int top = 0;          // of `closers`
  uint64_t breaks = 0;  // of every block read, for `line_breaks`
  bool in_string = false;
  const char* string_start = nullptr;  // the opening quote of the string the scan is in
  uint64_t skip = 0;                   // an escape's byte that opens the next block
  alignas(64) char tail[64];
  BracketsEnd result;
  auto finish = [&](const BracketsEnd& found) {
    if (line_breaks != nullptr) *line_breaks = breaks != 0;
    return found;
  };
  // A bracket outside strings: false when the scan ends there (`result`
  // set). Without a branch on which bracket it is (they come in no order a
  // predictor learns): '{' and '[' have bit 1 set, '}' and ']' do not, and
  // each opener's closer is two past it.
  auto bracket = [&](const char* at) {
    const char c = *at;
    const int opens = (c >> 1) & 1;
    const bool mismatch = opens == 0 && closers[top] != c;
    closers[top + 1] = static_cast<char>(c + 2);  // above the top when it closes: never read
    top += 2 * opens - 1;
    if (__builtin_expect(!mismatch && top >= 0 && top < kDepth - 1, 1)) return true;
    if (mismatch) {
      result = finish({BracketsEnd::kMismatch, at, closers[top + 1]});
    } else if (top < 0) {
      result = finish({BracketsEnd::kClosed, at});
    } else {  // too deep for the stack
      if (line_breaks != nullptr) *line_breaks = true;
      result = BracketsEndScalar(start, end);
    }
    return false;
  };
  for (const char* p = start + 1; p < end; p += 64) {
    // The 64 bytes at p; the last ones, fewer, read from a copy (zeros match nothing).
    const char* block = p;
    if (end - p < 64) {
      std::memset(tail, 0, sizeof tail);
      std::memcpy(tail, p, static_cast<size_t>(end - p));
      block = tail;
    }
    const BlockMasks m = masks(block);
    breaks |= m.breaks;
    const uint64_t quotes = m.quotes & ~skip, escapes = m.escapes & ~skip, brackets = m.brackets & ~skip;
    skip = 0;
    if (escapes == 0) {
      // No backslash: every quote opens or closes a string, so what is
      // inside strings is the running parity of the quotes.
      const uint64_t inside = PrefixXor(quotes) ^ (in_string ? ~uint64_t{0} : 0);
      for (uint64_t outside = brackets & ~inside; outside != 0; outside &= outside - 1) {
        if (!bracket(p + __builtin_ctzll(outside))) return result;
      }
      if (quotes != 0) {
        in_string = (inside >> 63) != 0;
        if (in_string) string_start = p + 63 - __builtin_clzll(quotes);
      }
      continue;
    }
    // Backslashes escape only inside strings: the hits one by one.
    for (uint64_t hits = quotes | escapes | brackets; hits != 0; hits &= hits - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(hits));
      const char c = block[i];
      if (in_string) {
        if (c == '"') {
          in_string = false;
        } else if (c == '\\') {
          if (i == 63) {
            skip = 1;  // the escaped byte opens the next block
          } else {
            hits &= ~(uint64_t{2} << i);  // the escaped byte is never a hit
          }
        }
      } else if (c == '"') {
        in_string = true;
        string_start = p + i;
      } else if (c != '\\' && !bracket(p + i)) {  // a backslash outside strings is left for the parser
        return result;
      }
    }
  }
  if (in_string) return finish({BracketsEnd::kStringNotClosed, string_start});
  return finish({BracketsEnd::kNeverClosed, start});
}

}  // namespace
}  // namespace rescfg::clearml
