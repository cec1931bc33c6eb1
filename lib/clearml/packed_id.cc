#include "clearml/packed_id.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rescfg::clearml {

namespace {

#if defined(__SSE2__)
/// The 16 hexadecimal digits of `text` as nibbles (one a byte), and whether
/// each byte is a lowercase hexadecimal digit.
__m128i Nibbles(__m128i text, __m128i* valid) {
  const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
  // x < n, unsigned, as a signed comparison with the top bits flipped.
  const __m128i digit = _mm_sub_epi8(text, _mm_set1_epi8('0'));
  const __m128i letter = _mm_sub_epi8(text, _mm_set1_epi8('a'));
  const __m128i is_digit = _mm_cmplt_epi8(_mm_xor_si128(digit, flip), _mm_set1_epi8(static_cast<char>(0x80 + 10)));
  const __m128i is_letter = _mm_cmplt_epi8(_mm_xor_si128(letter, flip), _mm_set1_epi8(static_cast<char>(0x80 + 6)));
  *valid = _mm_or_si128(is_digit, is_letter);
  return _mm_or_si128(_mm_and_si128(is_digit, digit),
                      _mm_and_si128(is_letter, _mm_add_epi8(letter, _mm_set1_epi8(10))));
}

/// Two nibbles a byte: each pair of bytes (first, second) as first << 4 | second.
__m128i PairsOf(__m128i nibbles) {
  const __m128i first = _mm_slli_epi16(_mm_and_si128(nibbles, _mm_set1_epi16(0x00ff)), 4);
  return _mm_or_si128(first, _mm_srli_epi16(nibbles, 8));
}
#else
int Nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}
#endif

}  // namespace

bool PackHexId(std::string_view id, PackedId* out) {
  constexpr size_t kLength = 32;
  if (id.size() != kLength) return false;
  unsigned char bytes[kLength / 2];
#if defined(__SSE2__)
  __m128i valid_a, valid_b;
  const __m128i a = Nibbles(_mm_loadu_si128(reinterpret_cast<const __m128i*>(id.data())), &valid_a);
  const __m128i b = Nibbles(_mm_loadu_si128(reinterpret_cast<const __m128i*>(id.data() + 16)), &valid_b);
  if (_mm_movemask_epi8(_mm_and_si128(valid_a, valid_b)) != 0xffff) return false;
  _mm_storeu_si128(reinterpret_cast<__m128i*>(bytes), _mm_packus_epi16(PairsOf(a), PairsOf(b)));
#else
  for (size_t i = 0; i < kLength / 2; ++i) {
    const int first = Nibble(id[2 * i]), second = Nibble(id[2 * i + 1]);
    if (first < 0 || second < 0) return false;
    bytes[i] = static_cast<unsigned char>(first << 4 | second);
  }
#endif
  std::memcpy(&out->low, bytes, 8);
  std::memcpy(&out->high, bytes + 8, 8);
  return true;
}

}  // namespace rescfg::clearml
