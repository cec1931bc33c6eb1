#include "util/text_check.h"

#include <cstdio>

#include "util/yaml_input.h"

namespace rescfg {
namespace {

/// The code point of the valid sequence of `len` bytes at `s`.
unsigned CodePoint(const unsigned char* s, size_t len) {
  switch (len) {
    case 1: return s[0];
    case 2: return ((s[0] & 0x1Fu) << 6) | (s[1] & 0x3Fu);
    case 3: return ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
    default: return ((s[0] & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
  }
}

std::string Hex(unsigned cp) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", cp);
  return buffer;
}

struct Problem {
  size_t offset = 0;
  bool invalid_utf8 = false;
  unsigned cp = 0;
  bool found = false;
};

Problem Find(std::string_view text, TextKind kind) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = 0; i < text.size();) {
    if (s[i] >= 0x20 && s[i] < 0x7F) {  // printable ASCII, the common case
      ++i;
      continue;
    }
    size_t len = Utf8SequenceLength(text, i);
    if (len == 0) return {i, true, s[i], true};
    unsigned cp = CodePoint(s + i, len);
    bool control = cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
    bool allowed_break = kind == TextKind::kFreeText && (cp == '\n' || cp == '\r' || cp == '\t');
    if ((control && !allowed_break) || cp == 0xFFFE || cp == 0xFFFF) return {i, false, cp, true};
    i += len;
  }
  return {};
}

}  // namespace

std::string TextProblem(std::string_view text, TextKind kind) {
  Problem p = Find(text, kind);
  if (!p.found) return "";
  char byte[8];
  std::snprintf(byte, sizeof byte, "%02X", p.cp);
  std::string where = " at byte " + std::to_string(p.offset + 1);
  if (p.invalid_utf8) {
    return std::string("is not valid UTF-8: byte ") + byte + where +
           " does not start a character (the YAML escapes \\_ and \\N decode to such bytes)";
  }
  if (p.cp == 0xFFFE || p.cp == 0xFFFF) return "holds the noncharacter " + Hex(p.cp) + where;
  if (p.cp == '\n' || p.cp == '\r' || p.cp == '\t') {
    return "holds a line break or tab (" + Hex(p.cp) + ")" + where + "; only descriptions may";
  }
  return "holds the control character " + Hex(p.cp) + where;
}

unsigned YamlUnsafeCodePoint(std::string_view seq) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(seq[k]); };
  if (seq.size() == 2 && b(0) == 0xC2 && b(1) < 0xA0) return b(1);  // U+0080..U+009F
  if (seq.size() != 3) return 0;
  const unsigned cp = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
  return cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF ? cp : 0;
}

std::string TextProblemHint(std::string_view text) {
  Problem p = Find(text, TextKind::kFreeText);
  if (p.found && p.invalid_utf8 && p.cp == 0xA0) return "write a plain space, or the no-break space as \\u00A0";
  if (p.found && p.invalid_utf8 && p.cp == 0x85) return "write a line break in a description as \\n";
  if (p.found && p.invalid_utf8) return "write the character itself, or as \\uXXXX";
  return "remove the character";
}

}  // namespace rescfg
