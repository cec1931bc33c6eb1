#include "util/flat_record.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "util/text_check.h"
#include "util/yaml_input.h"

namespace rescfg {

namespace {

/// A word's flags: the high bit of each byte below 0x20, '"', '\\', 0x7F
/// or above. Borrows and carries only travel upwards from a flagged byte,
/// so the lowest flag is the first byte that is not plain.
uint64_t WordFlags(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  const uint64_t quote = w ^ (kOnes * '"'), slash = w ^ (kOnes * '\\');
  return (((w - kOnes * 0x20) & ~w) | ((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash) | (w + kOnes) | w) &
         kHigh;
}

uint64_t WordAt(const char* s) {
  uint64_t w;
  std::memcpy(&w, s, 8);
  return w;
}

/// The length of the run of plain bytes at the start of `s`, 8 bytes at a
/// time; the last bytes as one word that overlaps the one before (every
/// byte before it is plain), or, in a string shorter than a word, padded
/// with plain bytes. Most strings written are short: ids, names.
size_t PlainRunWords(const char* s, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if (const uint64_t flags = WordFlags(WordAt(s + i)); flags != 0) {
      return i + (static_cast<size_t>(__builtin_ctzll(flags)) >> 3);
    }
  }
  if (i == n) return n;
  uint64_t last = 0x6161616161616161ULL;  // 'a' where the string has no byte
  size_t from = 0;
  if (n >= 8) {
    from = n - 8;
    last = WordAt(s + from);
  } else {
    std::memcpy(&last, s, n);
  }
  const uint64_t flags = WordFlags(last);
  return flags == 0 ? n : from + (static_cast<size_t>(__builtin_ctzll(flags)) >> 3);
}

/// The same, 16 bytes at a time where SSE2 is (x86-64). A signed compare
/// below 0x20 flags the controls and every byte from 0x80 at once.
size_t PlainRun(const char* s, size_t n) {
#if defined(__SSE2__)
  if (n >= 16) {
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\'),
                  del = _mm_set1_epi8(0x7F);
    auto odd = [&](const char* at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, quote)),
                                            _mm_or_si128(_mm_cmpeq_epi8(v, slash), _mm_cmpeq_epi8(v, del))));
    };
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      if (const int mask = odd(s + i); mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask));
    }
    if (i == n) return n;
    const int mask = odd(s + n - 16);  // overlaps plain bytes already seen
    return mask == 0 ? n : n - 16 + static_cast<size_t>(__builtin_ctz(mask));
  }
#endif
  return PlainRunWords(s, n);
}
}  // namespace

void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    // Runs of plain ASCII, the common case, are appended at once.
    size_t run = i + PlainRun(s.data() + i, s.size() - i);
    if (run > i) {
      out->append(s.data() + i, run - i);
      i = run;
      if (i == s.size()) break;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // Valid UTF-8 passes through, except what a YAML reader would refuse
      // or read differently: C1 controls (U+0085 is a line break to YAML),
      // U+2028, U+2029, U+FEFF, U+FFFE and U+FFFF become \uXXXX, valid
      // JSON and YAML alike. Any other byte (a file name can hold anything)
      // becomes U+FFFD so the output stays valid.
      size_t len = Utf8SequenceLength(s, i);
      if (unsigned cp = len > 1 ? YamlUnsafeCodePoint(s.substr(i, len)) : 0; cp != 0) {
        out->append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHex[(cp >> shift) & 0xF]);
        i += len;
      } else if (len > 0) {
        out->append(s.substr(i, len));
        i += len;
      } else {
        out->append("\\ufffd");
        ++i;
      }
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xF]);
    }
    ++i;
  }
  out->push_back('"');
}

size_t JsonPlainPrefix(std::string_view s) { return PlainRun(s.data(), s.size()); }

void AppendQuantity(std::string* out, Quantity q) { out->append(QuantityJson(q)); }

namespace {

/// Outputs repeat a few amounts many times, and formatting one takes
/// 128-bit divisions: the last texts of each form are remembered.
template <typename Format>
const std::string& CachedText(Quantity q, Format format) {
  struct Cached {
    Ticks ticks;
    std::string text;
    bool valid = false;
  };
  thread_local Cached cache[64];
  const auto bits = static_cast<unsigned __int128>(q.ticks());
  const uint64_t mixed = (static_cast<uint64_t>(bits) ^ static_cast<uint64_t>(bits >> 64)) * 0x9E3779B97F4A7C15ULL;
  Cached& slot = cache[mixed >> 58];
  if (!slot.valid || slot.ticks != q.ticks()) {
    slot.text.clear();
    format(q, &slot.text);
    slot.ticks = q.ticks();
    slot.valid = true;
  }
  return slot.text;
}

}  // namespace

const std::string& QuantityJson(Quantity q) {
  return CachedText(q, [](Quantity v, std::string* out) {
    if (v.NeedsFraction()) {
      AppendJsonString(out, v.ToString());
    } else {
      *out = v.ToString();
    }
  });
}

const std::string& DecimalJson(Quantity q) {
  return CachedText(q, [](Quantity v, std::string* out) { *out = v.ToDecimal(); });
}

void FlatRecord::Key(std::string_view key) {
  if (!first_) out_->append(", ");
  first_ = false;
  if (style_ == RecordStyle::kJson) {
    AppendJsonString(out_, key);
  } else {
    out_->append(key);
  }
  out_->append(": ");
}

}  // namespace rescfg
