/// ClassifyBytes, sixteen and eight bytes at a time, against a byte at a time.

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "util/byte_classes.h"

namespace rescfg {
namespace {

RC_GTEST_PROP(ByteClasses, SaysWhatEachByteSays, ()) {
  // Mostly printable ASCII, now and then a byte of another class, at any place.
  const std::string text = *rc::gen::container<std::string>(rc::gen::weightedOneOf<char>(
      {{30, rc::gen::inRange<char>(0x20, 0x7F)},
       {1, rc::gen::map(rc::gen::inRange<int>(0, 0x20), [](int b) { return static_cast<char>(b); })},
       {1, rc::gen::map(rc::gen::inRange<int>(0x7F, 0x100), [](int b) { return static_cast<char>(b); })}}));
  bool control = false, high = false;
  for (char c : text) {
    control |= static_cast<unsigned char>(c) < 0x20;
    high |= static_cast<unsigned char>(c) >= 0x80;
  }
  // From every start, so that each byte falls in each lane.
  for (size_t from = 0; from < std::min<size_t>(text.size(), 17); ++from) {
    bool c = false, h = false;
    for (size_t i = from; i < text.size(); ++i) {
      c |= static_cast<unsigned char>(text[i]) < 0x20;
      h |= static_cast<unsigned char>(text[i]) >= 0x80;
    }
    const ByteClasses classes = ClassifyBytes(std::string_view(text).substr(from));
    RC_ASSERT(classes.control == c);
    RC_ASSERT(classes.high == h);
  }
  const ByteClasses classes = ClassifyBytes(text);
  RC_ASSERT(classes.control == control);
  RC_ASSERT(classes.high == high);
}

TEST(ByteClasses, TheEdgesOfEachClass) {
  for (int b = 0; b < 256; ++b) {
    for (size_t at : {0, 7, 8, 15, 16, 31, 40}) {
      std::string text(41, 'a');
      text[at] = static_cast<char>(b);
      const ByteClasses classes = ClassifyBytes(text);
      EXPECT_EQ(classes.control, b < 0x20) << b << " at " << at;
      EXPECT_EQ(classes.high, b >= 0x80) << b << " at " << at;
    }
  }
}

}  // namespace
}  // namespace rescfg
