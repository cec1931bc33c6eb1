/// The document scanner's search for where an object or array ends: 64
/// bytes at a time (BracketsEndFast, with SSE2 or AVX-512) as a byte at a
/// time (BracketsEndScalar),
/// on random and hostile text, from every bracket, with every end.

#include "clearml/json_scan.h"

#include "jobs/json_lines.h"
#include "jobs/json_values.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rescfg::clearml {
namespace {

std::string Describe(const BracketsEnd& e, const char* base) {
  return std::to_string(static_cast<int>(e.outcome)) + " at " + std::to_string(e.at - base) + " expecting '" +
         std::string(1, e.expected) + "'";
}

using Scan = BracketsEnd (*)(const char*, const char*, bool*);

/// The fast searches this processor can run: the one the scanner takes,
/// SSE2's, and AVX-512's where the processor has it.
std::vector<std::pair<std::string, Scan>> FastScans() {
  std::vector<std::pair<std::string, Scan>> scans{{"fast", &BracketsEndFast}, {"sse2", &BracketsEndSse2}};
  if (BracketsEndAvx512Usable()) {
    scans.emplace_back("avx512", &BracketsEndAvx512);
  }
  return scans;
}

/// Both searches from every '{' and '[' of `text`, ending at every length
/// from `min_end` on (the text is copied to its own buffer each time, so that
/// a read past the end is a fault under the sanitizers).
void ExpectAlike(std::string_view text, size_t min_end = 0) {
  for (size_t end = std::max(min_end, size_t{1}); end <= text.size(); ++end) {
    const std::string owned(text.substr(0, end));
    const char* base = owned.data();
    for (size_t at = 0; at < end; ++at) {
      if (owned[at] != '{' && owned[at] != '[') continue;
      const BracketsEnd slow = BracketsEndScalar(base + at, base + end);
      for (const auto& [name, scan] : FastScans()) {
        bool line_breaks = false;
        const BracketsEnd fast = scan(base + at, base + end, &line_breaks);
        ASSERT_EQ(Describe(fast, base), Describe(slow, base))
            << name << " from " << at << " to " << end << " in: " << owned;
        // Never told "no line breaks" over an extent that has one.
        if (slow.outcome == BracketsEnd::kClosed &&
            std::string_view(base + at, static_cast<size_t>(slow.at - (base + at)) + 1).find_first_of("\r\n") !=
                std::string_view::npos) {
          ASSERT_TRUE(line_breaks) << name << " from " << at << " to " << end << " in: " << owned;
        }
      }
    }
  }
}

TEST(ClearmlJsonScan, HostileDocuments) {
  const std::string cases[] = {
      R"({"a": "b"})",
      R"({"a": "}"})",
      R"({"a": "\"}"}, "x")",
      R"({"a": "\\"}, "x")",
      R"({"a": "\\\"}"}])",
      R"([{"a": [1, {"b": "]"}]}, ["{", "[", "\\\\"]])",
      R"({"a": ]})",
      R"([1, 2})",
      R"({"a": "never closed)",
      R"({"a": [{"b": 1})",
      R"({\"a": 1})",
      "{\"a\": \"\\",
      "{\"tab\": \"\t\", \"high\": \"\xC3\xA9\xFF\"}",
      std::string("{\"nul\": \"\0}\", \"\0\"}", 18),
  };
  for (const std::string& text : cases) ExpectAlike(text);
}

TEST(ClearmlJsonScan, NestedDeeperThanTheStackOfClosers) {
  // The fast search keeps 256 closers; deeper, it hands over to the scalar
  // one, which finds the same end, mismatch or string left open.
  for (const size_t depth : {size_t{254}, size_t{255}, size_t{256}, size_t{257}, size_t{600}}) {
    const std::string opens = [&] {
      std::string text;
      for (size_t i = 0; i < depth; ++i) text += i % 3 == 0 ? "[" : "{\"k\": ";
      return text;
    }();
    std::string closes;
    for (size_t i = depth; i-- > 0;) closes += i % 3 == 0 ? "]" : "}";
    for (const std::string& text : {opens + "1" + closes + ", 2", opens + "1" + closes.substr(0, depth / 2) + "]}",
                                     opens + "\"open", opens + "1" + closes.substr(0, depth - 1)}) {
      ExpectAlike(text, text.size() - 2);
    }
  }
}

TEST(ClearmlJsonScan, EscapesAtEveryPlaceOfABlock) {
  // A backslash (and what it escapes) at each offset around 16- and 32-byte
  // boundaries, inside strings, after runs of ordinary bytes.
  for (const char* escaped : {"\\\"", "\\\\", "\\}", "\\]", "\\{", "\\u007D"}) {
    for (size_t run = 0; run < 40; ++run) {
      const std::string text = "{\"k\": \"" + std::string(run, 'x') + escaped + "\"}, \"" + std::string(run, '}') + "\"}]";
      ExpectAlike(text);
      ExpectAlike("[" + std::string(run, ' ') + text);
    }
  }
}

/// Random text over the bytes that matter, and documents whose strings hold
/// brackets, quotes and escapes at random places: both searches agree.
RC_GTEST_PROP(ClearmlJsonScan, FastAsScalarOnRandomText, ()) {
  std::mt19937 rng(*rc::gen::arbitrary<uint32_t>());
  auto below = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  const std::string alphabet = "\"\\{}[]a ,:\n0\r";
  std::string text;
  if (below(2) == 0) {
    const size_t n = 1 + below(200);
    for (size_t i = 0; i < n; ++i) text += alphabet[below(alphabet.size())];
  } else {
    // Nested values; strings of random length with the special bytes in them.
    text = "{";
    int depth = 1;
    const size_t parts = 1 + below(30);
    for (size_t i = 0; i < parts; ++i) {
      switch (below(5)) {
        case 0: text += "{"; ++depth; break;
        case 1: text += "["; ++depth; break;
        case 2:
          if (depth > 1) {
            text += below(2) ? "}" : "]";
            --depth;
          }
          break;
        default: {
          text += '"';
          const size_t len = below(40);
          for (size_t k = 0; k < len; ++k) {
            const size_t pick = below(10);
            if (pick == 0) {
              text += '\\';
              text += alphabet[below(alphabet.size())];
            } else if (pick == 1) {
              text += alphabet[below(6)];
            } else {
              text += 'x';
            }
          }
          if (below(8) != 0) text += "\", ";
        }
      }
    }
    while (depth-- > 0) text += below(4) ? "}" : "]";
    text += "\"tail\"";
  }
  ExpectAlike(text, text.size() > 60 ? text.size() - 40 : 0);
}

TEST(ClearmlJsonScan, ToldOfLineBreaksAtEveryPlaceOfABlock) {
  for (const char* line_break : {"\n", "\r", "\r\n"}) {
    for (size_t run = 0; run < 140; ++run) {
      std::string text = "[{\"k\": \"" + std::string(run, 'x') + "\"}," + line_break + "{}]";
      ExpectAlike(text);
      text = "{\"k\": [" + std::string(run, '1') + line_break + "]}";
      ExpectAlike(text);
    }
  }
}

/// The scanner's place (line, column) at each value of a document, taking
/// the values in turn as the task reader does.
std::vector<std::pair<int, int>> Places(std::string_view text) {
  std::vector<std::pair<int, int>> places;
  JsonScanner scan(text);
  scan.SkipSpace();
  if (!scan.Consume('[')) return places;
  for (;;) {
    scan.SkipSpace();
    places.emplace_back(scan.Here().line, scan.Here().column);
    std::string_view value;
    if (!scan.SkipValue(&value)) {
      places.emplace_back(-scan.Here().line, -scan.Here().column);  // where it failed
      return places;
    }
    scan.SkipSpace();
    if (!scan.Consume(',')) break;
  }
  places.emplace_back(scan.Here().line, scan.Here().column);
  return places;
}

/// A carriage return not followed by a line feed ends a line as a line
/// feed does: a document with such line endings is placed exactly as the
/// same document with them made line feeds (what JSON Lines get).
RC_GTEST_PROP(ClearmlJsonScan, LoneCarriageReturnsCountAsLineFeeds, ()) {
  std::mt19937 rng(*rc::gen::arbitrary<uint32_t>());
  auto below = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  const char* const breaks[] = {"\n", "\r", "\r\n", " ", "\r\r", "\n\r"};
  auto blank = [&] { return std::string(breaks[below(6)]); };
  std::string text = "[" + blank();
  const size_t values = below(12);
  for (size_t i = 0; i < values; ++i) {
    if (i > 0) text += blank() + "," + blank();
    switch (below(4)) {
      case 0: text += "{\"a\":" + blank() + "[1," + blank() + "2]," + blank() + "\"b\": {}}"; break;
      case 1: text += "\"" + std::string(below(70), 'x') + "\""; break;
      case 2: text += "{\"s\": \"" + std::string(below(90), 'y') + "\"" + blank() + "}"; break;
      default: text += below(8) == 0 ? "{\"open\": [" + blank() : "123";  // now and then, never closed
    }
  }
  text += blank() + "]" + blank();
  std::string converted = text;
  json::LoneCarriageReturnsToNewlines(&converted);
  RC_ASSERT(Places(text) == Places(converted));
}

TEST(ClearmlJsonScan, PlacesAfterEachKindOfLineEnding) {
  const std::string text = "[1,\r2,\r\n3,\n\r4,\r\r5, {\"a\":\r[\r]},\r\n6]";
  const std::vector<std::pair<int, int>> expected = {{1, 2}, {2, 1}, {3, 1}, {5, 1}, {7, 1}, {7, 4}, {10, 1}, {10, 2}};
  EXPECT_EQ(Places(text), expected);
  EXPECT_EQ(json::MarkAt(text, text.data() + text.find('6')).line, 10);
  EXPECT_EQ(json::MarkAt("a\rb\r\nc\nd", nullptr).line, 1);
  const std::string_view mixed = "a\rb\r\nc\nd\r";
  EXPECT_EQ(json::MarkAt(mixed, mixed.data() + 7).line, 4);
  EXPECT_EQ(json::MarkAt(mixed, mixed.data() + 9).line, 5);  // a carriage return ending the text ends a line
}

}  // namespace
}  // namespace rescfg::clearml
