#include "util/flat_record.h"

#include <cstring>

#include "util/text_check.h"
#include "util/yaml_input.h"

namespace rescfg {

namespace {

/// True for the bytes AppendJsonString copies as they are.
constexpr bool IsPlain(unsigned char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

/// The length of the run of plain bytes at the start of `s`, 8 bytes at a
/// time: a word is flagged when any byte is below 0x20, '"', '\\', 0x7F
/// or above. Borrows and carries only travel upwards from a flagged byte,
/// so the lowest flag is the first byte that is not plain.
size_t PlainRun(const char* s, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    uint64_t quote = w ^ (kOnes * '"'), slash = w ^ (kOnes * '\\');
    uint64_t flags = ((w - kOnes * 0x20) & ~w) | ((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash) |
                     (w + kOnes) | w;
    flags &= kHigh;
    if (flags != 0) return i + (static_cast<size_t>(__builtin_ctzll(flags)) >> 3);
  }
  while (i < n && IsPlain(static_cast<unsigned char>(s[i]))) ++i;
  return i;
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
