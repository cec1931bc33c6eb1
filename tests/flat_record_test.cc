#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "support/yaml_text.h"
#include "util/flat_record.h"
#include "util/yaml_input.h"

namespace rescfg {
namespace {

/// Byte-at-a-time escaping, the definition AppendJsonString must match.
std::string ReferenceEscape(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t len = Utf8SequenceLength(s, i);
      unsigned cp = c & (0x7F >> len);
      for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      // What YAML readers refuse or read differently is escaped.
      if (len > 0 && ((cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF ||
                      cp == 0xFFFE || cp == 0xFFFF)) {
        out += std::string("\\u") + kHex[cp >> 12] + kHex[(cp >> 8) & 0xF] + kHex[(cp >> 4) & 0xF] + kHex[cp & 0xF];
      } else {
        out += len > 0 ? std::string(s.substr(i, len)) : std::string("\\ufffd");
      }
      i += len > 0 ? len : 1;
      continue;
    }
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7F) out += std::string("\\u00") + kHex[c >> 4] + kHex[c & 0xF];
    else out.push_back(static_cast<char>(c));
    ++i;
  }
  return out + "\"";
}

bool IsPlainByte(int b) { return b >= 0x20 && b < 0x7F && b != '"' && b != '\\'; }

std::string Escape(std::string_view s) {
  std::string out = "x";  // appends, never replaces
  AppendJsonString(&out, s);
  return out.substr(1);
}

TEST(AppendJsonString, EscapesAndPassesRuns) {
  EXPECT_EQ(Escape(""), "\"\"");
  EXPECT_EQ(Escape("plain text"), "\"plain text\"");
  EXPECT_EQ(Escape("a\"b\\c\nd\te\rf"), "\"a\\\"b\\\\c\\nd\\te\\rf\"");
  EXPECT_EQ(Escape(std::string_view("\x01\x7f", 2)), "\"\\u0001\\u007f\"");
  EXPECT_EQ(Escape("caf\xc3\xa9!"), "\"caf\xc3\xa9!\"");
  EXPECT_EQ(Escape("bad\xff" "end"), "\"bad\\ufffdend\"");
  EXPECT_EQ(Escape("cut\xc3"), "\"cut\\ufffd\"");
  // YAML refuses or reads differently: C1 controls, U+2028/9, U+FEFF, U+FFFE/F.
  EXPECT_EQ(Escape("a\xc2\x85" "b\xc2\x80\xc2\x9f\xc2\xa0"), "\"a\\u0085b\\u0080\\u009f\xc2\xa0\"");
  EXPECT_EQ(Escape("\xe2\x80\xa8\xe2\x80\xa9\xef\xbb\xbf\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd"),
            "\"\\u2028\\u2029\\ufeff\\ufffe\\uffff\xef\xbf\xbd\"");
}

RC_GTEST_PROP(AppendJsonString, IsAYamlScalarOfTheSameValue, ()) {
  // Any valid UTF-8 text, written as AppendJsonString writes it, is one
  // line every YAML reader takes, and reads back through yaml-cpp as itself.
  const std::string s = *testing::GenUtf8Text();
  testing::AssertYamlScalarOf(Escape(s), s);
}

TEST(AppendJsonString, EveryByteAtEveryPositionOfEveryLength) {
  // Runs are scanned 16 bytes at a time, the last block overlapping the one
  // before; shorter strings 8 at a time, the last word overlapping or
  // padded: each byte value in each lane of each length up to three blocks,
  // and two special bytes in one string.
  for (size_t length = 1; length <= 16 + 16 + 8 + 3; ++length) {
    for (int b = 0; b < 256; ++b) {
      for (size_t at = 0; at < length; ++at) {
        std::string s(length, 'a');
        s[at] = static_cast<char>(b);
        ASSERT_EQ(Escape(s), ReferenceEscape(s)) << b << " at " << at << " of " << length;
        ASSERT_EQ(JsonPlainPrefix(s), IsPlainByte(b) ? length : at) << b << " at " << at << " of " << length;
        s[(at + 3) % length] = '"';
        ASSERT_EQ(Escape(s), ReferenceEscape(s)) << b << " at " << at << " of " << length;
      }
    }
  }
}

RC_GTEST_PROP(AppendJsonString, MatchesByteAtATimeEscaping, ()) {
  // Mostly plain bytes with some of every kind that needs care.
  auto byte = rc::gen::weightedOneOf<char>({
      {6, rc::gen::inRange<char>('a', 'z')},
      {1, rc::gen::element<char>('"', '\\', '\n', '\t', '\x01', '\x7f')},
      {2, rc::gen::map(rc::gen::inRange<int>(0x80, 0x100), [](int b) { return static_cast<char>(b); })},
      {1, rc::gen::element<char>('\xc3', '\xa9', '\xe2', '\x82', '\xac')},
  });
  std::string s = *rc::gen::container<std::string>(byte);
  RC_ASSERT(Escape(s) == ReferenceEscape(s));
}

}  // namespace
}  // namespace rescfg
