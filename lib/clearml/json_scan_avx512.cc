// Built with AVX-512 (CMakeLists.txt) where the compiler targets x86-64;
// called only where the processor has it (BracketsEndFast).
#include "clearml/json_scan.h"

#if defined(__AVX512BW__)
#include <immintrin.h>

#include "clearml/json_scan_blocks.h"
#endif

namespace rescfg::clearml {

#if defined(__AVX512BW__)

bool BracketsEndAvx512Built() { return true; }

BracketsEnd BracketsEndAvx512(const char* start, const char* end, bool* line_breaks) {
  const __m512i quote = _mm512_set1_epi8('"'), backslash = _mm512_set1_epi8('\\');
  const __m512i case_bit = _mm512_set1_epi8(0x20), open = _mm512_set1_epi8('{'), close = _mm512_set1_epi8('}');
  const __m512i lf = _mm512_set1_epi8('\n'), cr = _mm512_set1_epi8('\r');
  return ScanBlocks(start, end, line_breaks, [&](const char* block) {
    const __m512i v = _mm512_loadu_si512(block);
    const __m512i folded = _mm512_or_si512(v, case_bit);  // '[' and ']' as '{' and '}'
    BlockMasks m;
    m.quotes = _mm512_cmpeq_epi8_mask(v, quote);
    m.escapes = _mm512_cmpeq_epi8_mask(v, backslash);
    m.brackets = _mm512_cmpeq_epi8_mask(folded, open) | _mm512_cmpeq_epi8_mask(folded, close);
    m.breaks = _mm512_cmpeq_epi8_mask(v, lf) | _mm512_cmpeq_epi8_mask(v, cr);
    return m;
  });
}

#else

bool BracketsEndAvx512Built() { return false; }

BracketsEnd BracketsEndAvx512(const char* start, const char* end, bool* line_breaks) {
  return BracketsEndFast(start, end, line_breaks);  // never called: not built for it
}

#endif

}  // namespace rescfg::clearml
