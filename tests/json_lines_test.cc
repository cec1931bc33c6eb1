/// Making a JSON Lines text ready to read (json::PrepareLines): its lone
/// carriage returns turned into line feeds and its two parts found in one
/// pass, as the two steps one after the other would (the reference:
/// LoneCarriageReturnsToNewlines, then PartsOf).

#include "jobs/json_lines.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace rescfg::json {
namespace {

struct Prepared {
  std::string text;
  size_t middle = SIZE_MAX;  ///< offset, or SIZE_MAX for a text read whole
  size_t first_lines = 0, rest_lines = 0;
  std::vector<size_t> newlines_before;  ///< by block, in two parts only
  bool operator==(const Prepared&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Prepared& p) {
  return os << "middle " << p.middle << ", lines " << p.first_lines << " + " << p.rest_lines << " of "
            << p.text.size() << " bytes";
}

Prepared Fast(std::string text) {
  const LineParts parts = PrepareLines(text.data(), text.size());
  const size_t middle = parts.middle ? static_cast<size_t>(parts.middle - text.data()) : SIZE_MAX;
  return {std::move(text), middle, parts.first_lines, parts.rest_lines, parts.newlines_before};
}

Prepared Reference(std::string text) {
  LoneCarriageReturnsToNewlines(&text);
  const LineParts parts = PartsOf(WithoutByteOrderMark(text));
  const size_t middle = parts.middle ? static_cast<size_t>(parts.middle - text.data()) : SIZE_MAX;
  return {std::move(text), middle, parts.first_lines, parts.rest_lines, parts.newlines_before};
}

/// Random text of `size` bytes, line endings of every kind among ordinary
/// bytes (a large text repeats a random 64 KB, which is enough to count).
std::string RandomText(std::mt19937& rng, size_t size, bool bom) {
  static const std::string alphabet = "\r\n\r\n\r{}\"a b";
  std::string piece;
  while (piece.size() < std::min<size_t>(size, 65536)) {
    piece += rng() % 4 == 0 ? alphabet[rng() % alphabet.size()] : 'x';
  }
  std::string text = bom ? "\xEF\xBB\xBF" : "";
  text.reserve(size + piece.size());
  while (text.size() < size) text += piece;
  text.resize(size);
  return text;
}

RC_GTEST_PROP(JsonLinesPrepare, AsTheTwoStepsOnShortTexts, ()) {
  std::mt19937 rng(*rc::gen::arbitrary<uint32_t>());
  const std::string text = RandomText(rng, rng() % 300, rng() % 4 == 0);
  RC_ASSERT(Fast(text) == Reference(text));
}

TEST(JsonLinesPrepare, AsTheTwoStepsOnTextsReadInTwoParts) {
  // Sizes around the parallel threshold, and every kind of line ending at the
  // middle where the two threads meet (a carriage return judged by the byte
  // the other thread may turn into a line feed).
  std::mt19937 rng(7);
  const std::string endings[] = {"\r\n", "\r\r", "\n\r", "\rx", "xx", "\n"};
  for (size_t size : {kParallelBytes - 1, kParallelBytes + 17}) {
    for (bool bom : {false, true}) {
      std::string text = RandomText(rng, size, bom);
      const size_t start = bom ? 3 : 0;
      const size_t half = start + (text.size() - start) / 2;
      for (const std::string& ending : endings) {
        for (size_t shift : {size_t{0}, size_t{1}}) {
          std::string variant = text;
          variant.replace(half - 1 + shift, ending.size(), ending);
          SCOPED_TRACE(std::to_string(size) + (bom ? " with a byte order mark, " : ", ") + std::to_string(shift));
          ASSERT_EQ(Fast(variant), Reference(variant));
        }
      }
    }
  }
  // Nothing but ordinary bytes after the middle: read whole.
  std::string one_line(kParallelBytes + 10, 'x');
  one_line[10] = '\n';
  EXPECT_EQ(Fast(one_line), Reference(one_line));
  EXPECT_EQ(Fast(one_line).middle, SIZE_MAX);
}

/// A text read in two parts knows, wherever it is cut, how many line feeds
/// come before (the number of the line a thread's share starts at).
TEST(JsonLinesPrepare, TheLineFeedsBeforeAnyPlaceOfATextInTwoParts) {
  std::mt19937 rng(11);
  std::string text = RandomText(rng, kParallelBytes + 3 * kLineBlock + 5, true);
  const LineParts parts = PrepareLines(text.data(), text.size());
  ASSERT_NE(parts.middle, nullptr);
  const std::string_view lines = WithoutByteOrderMark(text);
  ASSERT_EQ(parts.newlines_before.size(), (lines.size() + kLineBlock - 1) / kLineBlock);
  std::vector<size_t> places = {0, 1, kLineBlock - 1, kLineBlock, kLineBlock + 1, lines.size() / 2, lines.size() - 1,
                                lines.size()};
  for (int i = 0; i < 40; ++i) places.push_back(rng() % (lines.size() + 1));
  for (const size_t at : places) {
    const auto want = static_cast<size_t>(std::count(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    EXPECT_EQ(NewlinesBefore(lines, parts, at), want) << at;
    EXPECT_EQ(NewlinesBefore(lines, PartsOf(lines), at), want) << at;
  }
  EXPECT_EQ(NewlinesBefore(lines, parts, static_cast<size_t>(parts.middle - lines.data())), parts.first_lines);
  // A text of whole blocks: its end starts none.
  std::string whole = RandomText(rng, 9 * kLineBlock, false);
  const LineParts whole_parts = PrepareLines(whole.data(), whole.size());
  ASSERT_EQ(whole_parts.newlines_before.size(), 9u);
  EXPECT_EQ(NewlinesBefore(whole, whole_parts, whole.size()),
            static_cast<size_t>(std::count(whole.begin(), whole.end(), '\n')));
}

}  // namespace
}  // namespace rescfg::json
