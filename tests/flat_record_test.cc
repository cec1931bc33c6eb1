#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "output/flat_record.h"
#include "yaml_input.h"

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
      out += len > 0 ? std::string(s.substr(i, len)) : std::string("\\ufffd");
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
}

TEST(AppendJsonString, EveryByteAtEveryPositionOfAWord) {
  // Runs are scanned 8 bytes at a time: each byte value in each lane, and
  // two special bytes in one word.
  for (int b = 0; b < 256; ++b) {
    for (size_t at = 0; at < 17; ++at) {
      std::string s(17, 'a');
      s[at] = static_cast<char>(b);
      ASSERT_EQ(Escape(s), ReferenceEscape(s)) << b << " at " << at;
      s[(at + 3) % 17] = '"';
      ASSERT_EQ(Escape(s), ReferenceEscape(s)) << b << " at " << at;
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
