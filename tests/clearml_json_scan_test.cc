/// The document scanner's search for where an object or array ends: 16
/// bytes at a time (BracketsEndFast) as a byte at a time (BracketsEndScalar),
/// on random and hostile text, from every bracket, with every end.

#include "clearml/json_scan.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace rescfg::clearml {
namespace {

std::string Describe(const BracketsEnd& e, const char* base) {
  return std::to_string(static_cast<int>(e.outcome)) + " at " + std::to_string(e.at - base) + " expecting '" +
         std::string(1, e.expected) + "'";
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
      const BracketsEnd fast = BracketsEndFast(base + at, base + end);
      ASSERT_EQ(Describe(fast, base), Describe(slow, base)) << "from " << at << " to " << end << " in: " << owned;
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
  const std::string alphabet = "\"\\{}[]a ,:\n0";
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

}  // namespace
}  // namespace rescfg::clearml
