#pragma once
/// Where a JSON string's text stops being plain: the first quote or
/// backslash, looked for eight bytes at a time (strings are most of a large
/// JSON file's bytes, and most have no escape).

#include <cstdint>
#include <cstring>

namespace rescfg {

/// The first '"' or '\\' in [p, end), or `end` when there is none.
inline const char* QuoteOrBackslash(const char* p, const char* end) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // The first hit is the lowest byte whose high bit the zero-byte test sets
  // (false hits only lie above it).
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t quote = w ^ (kOnes * '"'), backslash = w ^ (kOnes * '\\');
    const uint64_t hit = (((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash)) & kHigh;
    if (hit != 0) return p + __builtin_ctzll(hit) / 8;
    p += 8;
  }
#endif
  while (p < end && *p != '"' && *p != '\\') ++p;
  return p;
}

}  // namespace rescfg
