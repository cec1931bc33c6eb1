#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "util/quantity.h"

namespace rescfg {
namespace {

Quantity Q(const char* text) {
  auto q = ParseQuantity(text);
  EXPECT_TRUE(q.has_value()) << text;
  return q.value_or(Quantity());
}

TEST(Quantity, SevenSeventhsMakeExactlyOne) {
  Quantity sum;
  for (int i = 0; i < 7; ++i) sum += Q("1/7");
  EXPECT_EQ(sum, Quantity::Units(1));
}

TEST(Quantity, SevenDecimalSeventhsExceedOne) {
  Quantity sum;
  for (int i = 0; i < 7; ++i) sum += Q("0.143");
  EXPECT_GT(sum, Quantity::Units(1));
  EXPECT_EQ(sum.ToString(), "1.001");
}

TEST(Quantity, ParsesTheForms) {
  EXPECT_EQ(Q("8"), Quantity::Units(8));
  EXPECT_EQ(Q("0.5"), Q("1/2"));
  EXPECT_EQ(Q("0.5000000"), Q("1/2"));
  EXPECT_EQ(Q("17/17"), Quantity::Units(1));
  EXPECT_EQ(Q(" 3/8 "), Q("0.375"));
  EXPECT_EQ(Q("1 / 7"), Q("1/7"));  // blanks around the slash (rescfg-scheduling(7), AMOUNTS)
  EXPECT_EQ(Q("3\t/ 8"), Q("3/8"));
  EXPECT_EQ(Q("1000000"), Quantity::Max());
  EXPECT_EQ(Q("08"), Quantity::Units(8));
  EXPECT_EQ(Q(".5"), Q("0.5"));
  EXPECT_EQ(Q("2."), Quantity::Units(2));
}

TEST(Quantity, RefusesWhatIsNotOnTheGrid) {
  for (const char* bad : {"1/17", "0.1428571", "1e3", ".inf", ".nan", "-1", "-0", "1/0", "",
                          "abc", "1000000.000001", "99999999999999999999999999999", "1/2/3",
                          "0x10", "+1", "1_000", "1.2.3", ".", "/", "1/", "/2"}) {
    QuantityError error;
    EXPECT_FALSE(ParseQuantity(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.message.empty()) << bad;
  }
}

TEST(Quantity, HintsTheFractionForANearDecimal) {
  QuantityError error;
  EXPECT_FALSE(ParseQuantity("0.1428571", &error));
  EXPECT_EQ(error.hint, "use \"1/7\"");
}

TEST(Quantity, PrintsPerSpec) {
  EXPECT_EQ(Q("8").ToString(), "8");
  EXPECT_EQ(Q("0.5").ToString(), "0.5");
  EXPECT_EQ(Q("0.143").ToString(), "0.143");
  EXPECT_EQ(Q("6/7").ToString(), "6/7");
  EXPECT_EQ(Q("2/4").ToString(), "0.5");
  EXPECT_EQ(Q("1/3").ToString(), "1/3");
  EXPECT_EQ(Q("4/3").ToString(), "4/3");
  EXPECT_EQ(Q("0").ToString(), "0");
  EXPECT_TRUE(Q("1/3").NeedsFraction());
  EXPECT_FALSE(Q("1/8").NeedsFraction());
  EXPECT_EQ(Q("1/8").ToString(), "0.125");
}

/// Any grid value: a numerator of ticks within [0, 10^6].
rc::Gen<Quantity> AnyQuantity() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange<int64_t>(0, Quantity::kMaxUnits * Quantity::kTicksPerUnit + 1),
                   [](int64_t t) { return Quantity::FromTicks(t); }),
      rc::gen::map(rc::gen::pair(rc::gen::inRange<int64_t>(0, 200), rc::gen::inRange<int64_t>(1, 17)),
                   [](std::pair<int64_t, int64_t> nd) {
                     return Quantity::FromTicks(Ticks(nd.first) * Quantity::kTicksPerUnit / nd.second);
                   }));
}

RC_GTEST_PROP(QuantityProps, PrintThenParseRoundTrips, ()) {
  Quantity q = *AnyQuantity();
  auto back = ParseQuantity(q.ToString());
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == q);
}

RC_GTEST_PROP(QuantityProps, OrderingIsATotalOrderConsistentWithAddition, ()) {
  Quantity a = *AnyQuantity(), b = *AnyQuantity(), c = *AnyQuantity();
  RC_ASSERT((a < b) + (a == b) + (a > b) == 1);
  if (a <= b && b <= c) RC_ASSERT(a <= c);
  RC_ASSERT((a + c <= b + c) == (a <= b));
  RC_ASSERT(a + b - b == a);
  RC_ASSERT(Quantity::SaturatingSub(a, b) >= Quantity());
}

RC_GTEST_PROP(QuantityProps, DecimalTextParsesExactly, ()) {
  int64_t micro = *rc::gen::inRange<int64_t>(0, int64_t(1'000'000) * 1'000'000 + 1);
  std::string text = std::to_string(micro / 1'000'000) + "." ;
  std::string frac = std::to_string(micro % 1'000'000);
  text += std::string(6 - frac.size(), '0') + frac;
  auto q = ParseQuantity(text);
  RC_ASSERT(q.has_value());
  RC_ASSERT(q->ticks() == Ticks(micro) * (Quantity::kTicksPerUnit / 1'000'000));
}

}  // namespace
}  // namespace rescfg

namespace rescfg {
namespace {

TEST(Quantity, DecimalFormForSums) {
  auto q = [](const char* text) { return *ParseQuantity(text); };
  EXPECT_EQ(q("1/7").ToDecimal(), "0.142857143");
  EXPECT_EQ(q("6/7").ToDecimal(), "0.857142857");
  EXPECT_EQ(q("1/3").ToDecimal(), "0.333333333");
  EXPECT_EQ(q("2/3").ToDecimal(), "0.666666667");
  EXPECT_EQ(q("22/7").ToDecimal(), "3.142857143");
  EXPECT_EQ(q("0.5").ToDecimal(), "0.5");
  EXPECT_EQ(q("8").ToDecimal(), "8");
  EXPECT_EQ(q("0.000001").ToDecimal(), "0.000001");
  // Half-even at the ninth digit: 1/16 = 0.0625 is exact; 1/11 = 0.0909090909...
  EXPECT_EQ(q("1/11").ToDecimal(), "0.090909091");
  EXPECT_EQ(q("1/16").ToDecimal(), "0.0625");
}

}  // namespace
}  // namespace rescfg
