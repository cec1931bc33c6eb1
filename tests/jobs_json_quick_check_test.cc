/// The quick check of skipped values: sure only of what the parser would
/// accept (a differential property against simdjson on random and broken
/// text), and sure of plain values, so that it is used at all.

#include "jobs/json_quick_check.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>
#include <string>
#include <string_view>

namespace rescfg::json {
namespace {

/// Where the quick check ends `text` (its length when at the end), or -1.
long QuickEnd(std::string_view text, int depth = 0) {
  const std::string owned(text);  // its own buffer: a read past the end faults under the sanitizers
  const char* end = QuickCheckedEnd(owned.data(), owned.data() + owned.size(), depth);
  return end == nullptr ? -1 : static_cast<long>(end - owned.data());
}

/// Whether simdjson's DOM parser, which checks a whole document strictly,
/// reads `text` as one valid value with nothing after it. Numbers it cannot
/// hold (1e999) are JSON all the same: those the reader's own grammar judges.
bool ParserAccepts(std::string_view text) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(text);
  simdjson::dom::element root;
  const error_code error = parser.parse(padded).get(root);
  if (error != simdjson::NUMBER_ERROR && error != simdjson::NUMBER_OUT_OF_RANGE) return error == simdjson::SUCCESS;
  const simdjson::padded_string wrapped("[" + std::string(text) + "]");
  od::parser od_parser;
  od::document doc;
  return !od_parser.iterate(wrapped).get(doc) && SkipDocument(doc) == simdjson::SUCCESS;
}

/// What reading `{"a": <value>, "b": 7}` gives, skipping `a` quickly or not:
/// "b=7" or the first error.
std::string ReadAround(std::string_view value, bool quick) {
  const std::string text = "{\"a\": " + std::string(value) + ", \"b\": 7}";
  const simdjson::padded_string padded(text);
  od::parser parser;
  od::document doc;
  if (auto error = parser.iterate(padded).get(doc)) return simdjson::error_message(error);
  od::object object;
  if (auto error = doc.get_object().get(object)) return simdjson::error_message(error);
  std::string outcome;
  for (auto member : object) {
    std::string_view key;
    od::value field;
    if (auto error = ReadMember(std::move(member), &key, &field)) return simdjson::error_message(error);
    if (key == "a") {
      auto error = quick ? SkipQuick(field, padded.data() + padded.size(), 1) : Skip(field, 1);
      if (error) return simdjson::error_message(error);
    } else if (key == "b") {
      int64_t b = 0;
      if (auto error = field.get_int64().get(b)) return simdjson::error_message(error);
      outcome = "b=" + std::to_string(b);
    } else {
      return "unexpected key";
    }
  }
  return outcome;
}

TEST(JsonQuickCheck, SureOfPlainValues) {
  const std::string_view cases[] = {
      "{}", "[]", "{ }", "[\n]", R"({"a": 1})", R"({"a":{"b":[1,2,{"c":null}]},"d":"e"})",
      R"([true, false, null, -0, 1.5e-3, 10E+2, "x"])", R"({"": ""})", " [1] ", "\"plain\"", "-12.5", "true",
      R"({"k": "é ü"})",
  };
  for (std::string_view text : cases) {
    std::string_view trimmed = text;
    while (!trimmed.empty() && trimmed.front() == ' ') trimmed.remove_prefix(1);
    const long end = QuickEnd(trimmed);
    EXPECT_NE(end, -1) << text;
    if (end != -1) {
      EXPECT_TRUE(ParserAccepts(trimmed.substr(0, static_cast<size_t>(end)))) << text;
    }
  }
  // Ends where the value ends, not at the end of the text.
  EXPECT_EQ(QuickEnd(R"({"a": 1}, {"b": 2})"), 8);
  EXPECT_EQ(QuickEnd("[1, 2]]"), 6);
  EXPECT_EQ(QuickEnd("12, 3"), 2);
}

TEST(JsonQuickCheck, NotSureOfWhatIsNotPlain) {
  const std::string_view cases[] = {
      R"({"a": "x\"y"})",  // an escape
      R"({"a\n": 1})",     // an escape in a key
      R"({"a": 01})",      // a number against the grammar
      R"({"a": 1.})",
      R"({"a": +1})",
      R"({"a": truex})",
      R"({"a": nul})",
      R"([1, 2,])",        // a trailing comma
      R"({"a": 1,})",
      R"({"a" 1})",        // a missing colon
      R"({a: 1})",         // a key not a string
      R"({"a": 1])",       // the wrong closer
      R"([1 2])",          // a missing comma
      R"({"a": [1, 2})",
      R"({"a": "never closed)",
      R"({"a": [1, 2)",    // never closed
      "",
      "]",
  };
  for (std::string_view text : cases) EXPECT_EQ(QuickEnd(text), -1) << text;
}

TEST(JsonQuickCheck, DepthWithinItsOwnLimitAndTheParsers) {
  const auto nested = [](int levels) { return std::string(levels, '[') + std::string(levels, ']'); };
  EXPECT_EQ(QuickEnd(nested(32)), 64);
  EXPECT_EQ(QuickEnd(nested(33)), -1);
  // Already deep in the document: the parser's limit counts the levels above.
  EXPECT_EQ(QuickEnd(nested(2), kMaxDepth - 2), 4);
  EXPECT_EQ(QuickEnd(nested(2), kMaxDepth - 1), -1);
}

/// Random JSON text: values nested up to a few levels, some blanks, some
/// escapes; then, half the time, a few bytes changed, dropped or added.
std::string RandomText(std::mt19937& random) {
  const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  const auto blank = [&] {
    static const char* const kBlanks[] = {"", "", "", " ", "\n", "\t ", "\r\n"};
    return std::string(kBlanks[pick(7)]);
  };
  const auto string = [&] {
    static const char* const kStrings[] = {"\"\"", "\"a\"", "\"queue\"", "\"x y\"", "\"\\\"\"", "\"\\u00e9\"", "\"]}\""};
    return std::string(kStrings[pick(7)]);
  };
  std::string out;
  const auto value = [&](auto&& self, int depth) -> void {
    const int kind = depth > 5 ? 4 + pick(4) : pick(8);
    if (kind < 2) {
      const bool object = kind == 0;
      out += object ? '{' : '[';
      out += blank();
      const int n = pick(4);
      for (int i = 0; i < n; ++i) {
        if (i > 0) out += "," + blank();
        if (object) out += string() + blank() + ":" + blank();
        self(self, depth + 1);
        out += blank();
      }
      out += object ? '}' : ']';
    } else if (kind < 4) {
      out += string();
    } else {
      static const char* const kScalars[] = {"0", "-1", "12.5", "1e9", "-0.0E-2", "true", "false", "null"};
      out += kScalars[pick(8)];
    }
  };
  value(value, 0);
  if (pick(2) == 0) {
    static const std::string kBytes = "{}[]\",:\\ tfnrue0123456789.-+eE\n";
    for (int edits = 1 + pick(3); edits > 0; --edits) {
      const size_t at = out.empty() ? 0 : random() % (out.size() + 1);
      const char byte = kBytes[random() % kBytes.size()];
      switch (pick(3)) {
        case 0: if (at < out.size()) out[at] = byte; break;
        case 1: if (at < out.size()) out.erase(at, 1); break;
        default: out.insert(at, 1, byte); break;
      }
    }
  }
  return out;
}

RC_GTEST_PROP(JsonQuickCheck, SureOnlyOfWhatTheParserAccepts, (uint32_t seed)) {
  std::mt19937 random(seed);
  for (int i = 0; i < 50; ++i) {
    const std::string text = RandomText(random);
    const long end = QuickEnd(text);
    RC_LOG() << "text: " << text << " ends at " << end << "\n";
    if (end != -1) {
      // Control characters in strings are stage 1's to refuse, for the whole document.
      const std::string_view value = std::string_view(text).substr(0, static_cast<size_t>(end));
      RC_ASSERT(ParserAccepts(value) || value.find_first_of("\n\r\t") != std::string_view::npos);
      // What follows ends a value where it stops.
      if (static_cast<size_t>(end) < text.size() && text[0] != '{' && text[0] != '[' && text[0] != '"') {
        RC_ASSERT(std::string_view(" \t\n\r,}]:").find(text[static_cast<size_t>(end)]) != std::string_view::npos);
      }
    }
    // Skipping a member's value quickly reads the document as skipping it in full.
    RC_ASSERT(ReadAround(text, true) == ReadAround(text, false));
  }
}

RC_GTEST_PROP(JsonQuickCheck, SureOfPlainText, (uint32_t seed)) {
  std::mt19937 random(seed);
  int sure = 0, plain = 0;
  for (int i = 0; i < 50; ++i) {
    const std::string text = RandomText(random);
    if (text.find('\\') != std::string::npos || !ParserAccepts(text)) continue;
    // The check starts at a value, as the parser calls it, and stops where the value ends.
    const size_t first = text.find_first_not_of(" \t\n\r"), last = text.find_last_not_of(" \t\n\r");
    ++plain;
    RC_LOG() << "plain: " << text << " ends at " << QuickEnd(text.substr(first)) << "\n";
    if (QuickEnd(text.substr(first)) == static_cast<long>(last + 1 - first)) ++sure;
  }
  RC_ASSERT(sure == plain);
}

}  // namespace
}  // namespace rescfg::json
