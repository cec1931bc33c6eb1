#include "clearml/json_scan.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "clearml/json_scan_blocks.h"
#include "util/quote_search.h"

namespace rescfg::clearml {

namespace {

/// The end of the string starting at `p` (a quote), or nullptr: a byte at a time.
const char* StringEndScalar(const char* p, const char* end) {
  for (++p; p < end; ++p) {
    if (*p == '"') return p + 1;
    if (*p == '\\') ++p;  // an escape: the next byte is never the closing quote
  }
  return nullptr;
}

/// The first line feed or carriage return in [p, end), or `end`.
const char* FindLineBreak(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int hits = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
    if (hits != 0) return p + __builtin_ctz(static_cast<unsigned>(hits));
  }
#endif
  while (p < end && *p != '\n' && *p != '\r') ++p;
  return p;
}

}  // namespace

BracketsEnd BracketsEndScalar(const char* start, const char* end) {
  std::string closers(1, *start == '{' ? '}' : ']');
  for (const char* p = start + 1; p < end; ++p) {
    switch (*p) {
      case '"': {
        const char* e = StringEndScalar(p, end);
        if (e == nullptr) return {BracketsEnd::kStringNotClosed, p};
        p = e - 1;
        break;
      }
      case '{': closers.push_back('}'); break;
      case '[': closers.push_back(']'); break;
      case '}':
      case ']':
        if (closers.back() != *p) return {BracketsEnd::kMismatch, p, closers.back()};
        closers.pop_back();
        if (closers.empty()) return {BracketsEnd::kClosed, p};
        break;
      default: break;
    }
  }
  return {BracketsEnd::kNeverClosed, start};
}

#if defined(__SSE2__)

BracketsEnd BracketsEndSse2(const char* start, const char* end, bool* line_breaks) {
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i case_bit = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  return ScanBlocks(start, end, line_breaks, [&](const char* block) {
    BlockMasks m;
    for (int k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * k));
      const __m128i folded = _mm_or_si128(v, case_bit);  // '[' and ']' as '{' and '}'
      auto bits = [&](__m128i hit) {
        return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(hit))) << (16 * k);
      };
      m.quotes |= bits(_mm_cmpeq_epi8(v, quote));
      m.escapes |= bits(_mm_cmpeq_epi8(v, backslash));
      m.brackets |= bits(_mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)));
      m.breaks |= bits(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
    }
    return m;
  });
}

bool BracketsEndAvx512Usable() {
  static const bool usable =
      BracketsEndAvx512Built() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  return usable;
}

BracketsEnd BracketsEndFast(const char* start, const char* end, bool* line_breaks) {
  return BracketsEndAvx512Usable() ? BracketsEndAvx512(start, end, line_breaks)
                                   : BracketsEndSse2(start, end, line_breaks);
}

#else

BracketsEnd BracketsEndSse2(const char* start, const char* end, bool* line_breaks) {
  if (line_breaks != nullptr) *line_breaks = true;
  return BracketsEndScalar(start, end);
}

bool BracketsEndAvx512Usable() { return false; }

BracketsEnd BracketsEndFast(const char* start, const char* end, bool* line_breaks) {
  return BracketsEndSse2(start, end, line_breaks);
}

#endif

void JsonScanner::SkipSpace() {
  while (p_ < end_) {
    const char c = *p_;
    if (!LineEndsAt(p_) && c != ' ' && c != '\t' && c != '\r') return;
    ++p_;
  }
}

bool JsonScanner::Consume(char c) {
  if (p_ == end_ || *p_ != c) return false;
  ++p_;
  return true;
}

void JsonScanner::MoveTo(const char* to) {
  if (to <= p_) return;
  for (const char* p = p_; p < to; ++p) {
    p = FindLineBreak(p, to);
    if (p == to) break;
    LineEndsAt(p);
  }
  p_ = to;
}

bool JsonScanner::Fail(const char* at, std::string message) {
  MoveTo(at < end_ ? at : end_);  // so that Here() names the problem
  error_ = std::move(message);
  return false;
}

const char* JsonScanner::StringEnd(const char* p) const {
  ++p;  // the opening quote
  for (;;) {
    p = QuoteOrBackslash(p, end_);
    if (p >= end_) return nullptr;
    if (*p == '"') return p + 1;
    p += 2;  // an escape: the next byte is never the closing quote
    if (p > end_) return nullptr;
  }
}

bool JsonScanner::ReadString(std::string_view* raw) {
  if (p_ == end_ || *p_ != '"') return Fail(p_, "expected a string");
  const char* e = StringEnd(p_);
  if (e == nullptr) return Fail(p_, "a string is not closed");
  *raw = std::string_view(p_, static_cast<size_t>(e - p_));
  p_ = e;
  return true;
}

bool JsonScanner::SkipValue(std::string_view* value) {
  const char* start = p_;
  if (p_ == end_) return Fail(p_, "expected a value, found the end of the file");
  const char c = *p_;
  if (c == '"') {
    std::string_view raw;
    if (!ReadString(&raw)) return false;
    *value = raw;
    return true;
  }
  if (c == '{' || c == '[') {
    bool line_breaks = true;
    const BracketsEnd found = BracketsEndFast(p_, end_, &line_breaks);
    switch (found.outcome) {
      case BracketsEnd::kClosed:
        if (line_breaks) {
          MoveTo(found.at + 1);
        } else {
          p_ = found.at + 1;  // a line of its own (a server's answer is one line)
        }
        *value = std::string_view(start, static_cast<size_t>(p_ - start));
        return true;
      case BracketsEnd::kStringNotClosed: return Fail(found.at, "a string is not closed");
      case BracketsEnd::kMismatch:
        return Fail(found.at, std::string("'") + *found.at + "' does not close the '" +
                                  (found.expected == '}' ? "{" : "[") + "' before it");
      case BracketsEnd::kNeverClosed: break;
    }
    return Fail(start, std::string("the '") + c + "' here is never closed");
  }
  if (c == '}' || c == ']' || c == ',' || c == ':') return Fail(p_, std::string("expected a value, found '") + c + "'");
  while (p_ < end_) {
    const char d = *p_;
    if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\t' || d == '\r' || d == '\n') break;
    ++p_;
  }
  *value = std::string_view(start, static_cast<size_t>(p_ - start));
  return true;
}

}  // namespace rescfg::clearml
