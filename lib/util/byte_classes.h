#pragma once
/// Whether a text has control characters or bytes beyond ASCII, sixteen or
/// eight bytes at a time: a JSON text with neither needs no UTF-8 check, and its strings
/// no check for unescaped control characters.

#include <cstdint>
#include <cstring>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace rescfg {

struct ByteClasses {
  bool control = false;  ///< a byte below 0x20 (line breaks and tabs too)
  bool high = false;     ///< a byte of 0x80 or above (not ASCII)
};

inline ByteClasses ClassifyBytes(std::string_view text) {
  constexpr uint64_t kHigh = 0x8080808080808080ULL, kLow7 = 0x7F7F7F7F7F7F7F7FULL, k0x60 = 0x6060606060606060ULL;
  uint64_t high = 0, control = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
#ifdef __SSE2__
  // Sixteen bytes at a time: a signed compare below 0x20 takes the bytes of
  // 0x80 and above too, which the byte's own high bit tells apart.
  __m128i below = _mm_setzero_si128(), ored = _mm_setzero_si128();
  const __m128i space = _mm_set1_epi8(0x20);
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    below = _mm_or_si128(below, _mm_andnot_si128(v, _mm_cmplt_epi8(v, space)));
    ored = _mm_or_si128(ored, v);
  }
  control = _mm_movemask_epi8(below) != 0 ? kHigh : 0;
  high = _mm_movemask_epi8(ored) != 0 ? kHigh : 0;
#endif
  for (; end - p >= 8; p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    high |= w;
    // An ASCII byte plus 0x60 reaches 0x80 when it is 0x20 or more (no carry
    // leaves a byte: 0x7F + 0x60 < 0x100).
    control |= ~((w & kLow7) + k0x60) & ~w;
  }
  ByteClasses classes{(control & kHigh) != 0, (high & kHigh) != 0};
  for (; p < end; ++p) {
    const auto b = static_cast<unsigned char>(*p);
    classes.control |= b < 0x20;
    classes.high |= b >= 0x80;
  }
  return classes;
}

}  // namespace rescfg
