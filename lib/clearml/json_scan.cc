#include "clearml/json_scan.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

namespace {

/// Bits of the 64 bytes loaded in `v` (16 a part) equal to `c`.
inline uint64_t Matches(const __m128i v[4], __m128i c) {
  uint64_t mask = 0;
  for (int k = 0; k < 4; ++k) {
    mask |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v[k], c)))) << (16 * k);
  }
  return mask;
}

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

}  // namespace

BracketsEnd BracketsEndFast(const char* start, const char* end, bool* line_breaks) {
  std::string closers(1, *start == '{' ? '}' : ']');
  // Every line feed and carriage return of the blocks read, for `line_breaks`.
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  __m128i breaks = _mm_setzero_si128();
  struct Tell {  // sets `*line_breaks` however the search ends
    bool* out;
    const __m128i& seen;
    ~Tell() {
      if (out != nullptr) *out = _mm_movemask_epi8(_mm_cmpeq_epi8(seen, _mm_setzero_si128())) != 0xFFFF;
    }
  } tell{line_breaks, breaks};
  bool in_string = false;
  const char* string_start = nullptr;  // the opening quote of the string the scan is in
  uint64_t skip = 0;                   // an escape's byte that opens the next block
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i case_bit = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  alignas(16) char tail[64];
  // A bracket outside strings: false when the scan ends there (`*result` set).
  auto bracket = [&](const char* at, BracketsEnd* result) {
    switch (*at) {
      case '{': closers.push_back('}'); return true;
      case '[': closers.push_back(']'); return true;
      default:
        if (closers.back() != *at) {
          *result = {BracketsEnd::kMismatch, at, closers.back()};
          return false;
        }
        closers.pop_back();
        if (!closers.empty()) return true;
        *result = {BracketsEnd::kClosed, at};
        return false;
    }
  };
  BracketsEnd result;
  for (const char* p = start + 1; p < end; p += 64) {
    // The 64 bytes at p; the last ones, fewer, read from a copy (zeros match nothing).
    const char* block = p;
    if (end - p < 64) {
      std::memset(tail, 0, sizeof tail);
      std::memcpy(tail, p, static_cast<size_t>(end - p));
      block = tail;
    }
    __m128i v[4], folded[4];
    for (int k = 0; k < 4; ++k) {
      v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * k));
      folded[k] = _mm_or_si128(v[k], case_bit);  // '[' and ']' as '{' and '}'
      breaks = _mm_or_si128(breaks, _mm_or_si128(_mm_cmpeq_epi8(v[k], lf), _mm_cmpeq_epi8(v[k], cr)));
    }
    const uint64_t quotes = Matches(v, quote) & ~skip, escapes = Matches(v, backslash) & ~skip;
    uint64_t brackets = 0;
    for (int k = 0; k < 4; ++k) {
      const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(folded[k], open), _mm_cmpeq_epi8(folded[k], close));
      brackets |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(hit))) << (16 * k);
    }
    brackets &= ~skip;
    skip = 0;
    if (escapes == 0) {
      // No backslash: every quote opens or closes a string, so what is
      // inside strings is the running parity of the quotes.
      const uint64_t inside = PrefixXor(quotes) ^ (in_string ? ~uint64_t{0} : 0);
      for (uint64_t outside = brackets & ~inside; outside != 0; outside &= outside - 1) {
        if (!bracket(p + __builtin_ctzll(outside), &result)) return result;
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
      } else if (c != '\\' && !bracket(p + i, &result)) {  // a backslash outside strings is left for the parser
        return result;
      }
    }
  }
  if (in_string) return {BracketsEnd::kStringNotClosed, string_start};
  return {BracketsEnd::kNeverClosed, start};
}

#else

BracketsEnd BracketsEndFast(const char* start, const char* end, bool* line_breaks) {
  if (line_breaks != nullptr) *line_breaks = true;
  return BracketsEndScalar(start, end);
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
