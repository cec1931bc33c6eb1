#include "jobs/json_lines.h"

#include <algorithm>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rescfg::json {

namespace {

/// LoneCarriageReturnsToNewlines on [p, end), followed by `next` ('\0' at the
/// text's end), counting the line feeds there are then. Left to right, so a
/// carriage return is judged by the byte after it as the file has it.
size_t NewlinesAfterLoneCrs(char* p, char* const end, char next) {
  size_t newlines = 0;
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), zero = _mm_setzero_si128();
  // Line feeds counted per byte lane (a compare gives -1), summed before a lane can overflow.
  __m128i lanes = zero;
  auto sum = [&] {
    const __m128i halves = _mm_sad_epu8(lanes, zero);
    newlines += static_cast<size_t>(_mm_cvtsi128_si64(halves)) +
                static_cast<size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(halves, halves)));
    lanes = zero;
  };
  for (int blocks = 0; end - p >= 16; p += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if (const int returns = _mm_movemask_epi8(_mm_cmpeq_epi8(v, cr)); returns != 0) {
      for (auto r = static_cast<unsigned>(returns); r != 0; r &= r - 1) {
        const int i = __builtin_ctz(r);
        if ((p + i + 1 < end ? p[i + 1] : next) != '\n') p[i] = '\n';
      }
      v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    }
    lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, lf));
    if (++blocks == 255) {
      sum();
      blocks = 0;
    }
  }
  sum();
#endif
  for (; p < end; ++p) {
    if (*p == '\r' && (p + 1 < end ? p[1] : next) != '\n') *p = '\n';
    newlines += *p == '\n';
  }
  return newlines;
}

}  // namespace

LineParts PrepareLines(char* data, size_t size) {
  const std::string_view text = WithoutByteOrderMark(std::string_view(data, size));
  char* const begin = data + (size - text.size());
  char* const end = data + size;
  if (text.size() < kParallelBytes || std::thread::hardware_concurrency() < 2) {
    return {nullptr, NewlinesAfterLoneCrs(begin, end, '\0') + 1, 0, {}};
  }
  // The halves SecondHalf splits at: the first part ends with the first
  // newline from the middle on. Each half counts its line feeds by block.
  char* const half = begin + text.size() / 2;
  const char next = *half;  // as the file has it, before the other thread turns it
  const size_t blocks = (text.size() + kLineBlock - 1) / kLineBlock;
  std::vector<size_t> first(blocks, 0), rest(blocks, 0);
  auto count = [&](char* from, char* to, char after, std::vector<size_t>* by_block) {
    while (from < to) {
      const auto block = static_cast<size_t>(from - begin) / kLineBlock;
      char* const block_end = std::min(to, begin + (block + 1) * kLineBlock);
      (*by_block)[block] += NewlinesAfterLoneCrs(from, block_end, block_end < to ? *block_end : after);
      from = block_end;
    }
  };
  {
    JoinedThread worker([&] { count(half, end, '\0', &rest); });
    count(begin, half, next, &first);
  }
  size_t newlines = 0;
  for (size_t block = 0; block < blocks; ++block) {
    first[block] += rest[block];  // both halves' line feeds in the block
    newlines += first[block];
  }
  const auto* middle = static_cast<const char*>(std::memchr(half, '\n', text.size() / 2));
  if (middle == nullptr || middle + 1 == end) return {nullptr, newlines + 1, 0, {}};
  return PartsFromBlocks(text, middle + 1, first, newlines);
}

}  // namespace rescfg::json
