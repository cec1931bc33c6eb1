#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <ctime>
#include <string>

#include <fmt/format.h>

#include "util/rfc3339.h"

namespace rescfg {
namespace {

int64_t Seconds(std::string_view text) {
  auto t = ParseRfc3339(text);
  EXPECT_TRUE(t.has_value()) << text;
  return t ? t->seconds : -1;
}

TEST(Rfc3339, Utc) {
  EXPECT_EQ(Seconds("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(Seconds("2026-11-29T10:00:00Z"), 1795946400);
  EXPECT_EQ(Seconds("2026-11-29t10:00:00z"), 1795946400);
  EXPECT_EQ(Seconds("1969-12-31T23:59:59Z"), -1);
  EXPECT_EQ(Seconds("2000-02-29T12:00:00Z"), 951825600);
}

TEST(Rfc3339, Offsets) {
  EXPECT_EQ(Seconds("2026-11-29T12:00:00+02:00"), Seconds("2026-11-29T10:00:00Z"));
  EXPECT_EQ(Seconds("2026-11-29T04:30:00-05:30"), Seconds("2026-11-29T10:00:00Z"));
  EXPECT_EQ(Seconds("2026-11-29T10:00:00-00:00"), Seconds("2026-11-29T10:00:00Z"));
  EXPECT_EQ(Seconds("2026-01-01T00:30:00+01:00"), Seconds("2025-12-31T23:30:00Z"));
}

TEST(Rfc3339, Fractions) {
  auto t = ParseRfc3339("2026-11-29T10:00:00.5Z");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->nanos, 500000000);
  EXPECT_EQ(ParseRfc3339("2026-11-29T10:00:00.000000001Z")->nanos, 1);
  EXPECT_EQ(ParseRfc3339("2026-11-29T10:00:00.123456789+01:00")->nanos, 123456789);
  EXPECT_LT(*ParseRfc3339("2026-11-29T10:00:00.1Z"), *ParseRfc3339("2026-11-29T10:00:00.10001Z"));
  EXPECT_EQ(*ParseRfc3339("2026-11-29T10:00:00.1Z"), *ParseRfc3339("2026-11-29T10:00:00.100Z"));
}

TEST(Rfc3339, MoreThanNineFractionalDigitsAreKeptExactly) {
  auto t = ParseRfc3339("2026-11-29T10:00:00.1234567891Z");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->nanos, 123456789);
  EXPECT_EQ(t->beyond_nanos, "1");
  // Trailing zeros mean nothing; every other digit does, however far out.
  EXPECT_EQ(*ParseRfc3339("2026-11-29T10:00:00.1000000000000Z"), *ParseRfc3339("2026-11-29T10:00:00.1Z"));
  EXPECT_LT(*ParseRfc3339("2026-11-29T10:00:00.000000001Z"),
            *ParseRfc3339("2026-11-29T10:00:00.0000000010000000000000000001Z"));
  EXPECT_LT(*ParseRfc3339("2026-11-29T10:00:00.0000000019Z"), *ParseRfc3339("2026-11-29T10:00:00.000000002Z"));
  EXPECT_LT(*ParseRfc3339("2026-11-29T10:00:00.00000000010Z"), *ParseRfc3339("2026-11-29T10:00:00.0000000002Z"));
}

/// a < b for the decimal fractions 0.a and 0.b, by their digits.
bool FractionLess(std::string a, std::string b) {
  a.resize(std::max(a.size(), b.size()), '0');
  b.resize(a.size(), '0');
  return a < b;
}

RC_GTEST_PROP(Rfc3339, FractionsOrderExactlyWhateverTheirLength, ()) {
  auto digits = rc::gen::container<std::string>(rc::gen::elementOf(std::string("0123456789")));
  std::string a = *rc::gen::nonEmpty(digits), b = *rc::gen::nonEmpty(digits);
  const std::string text_a = "2026-11-29T10:00:00." + a + "Z", text_b = "2026-11-29T10:00:00." + b + "Z";
  auto ta = ParseRfc3339(text_a), tb = ParseRfc3339(text_b);  // they view the text
  RC_ASSERT(ta && tb);
  RC_ASSERT((*ta < *tb) == FractionLess(a, b));
  RC_ASSERT((*ta == *tb) == (!FractionLess(a, b) && !FractionLess(b, a)));
}

TEST(Rfc3339, Ordering) {
  // 11:00+02:00 is 09:00Z: earlier than 10:00Z although its text sorts later.
  EXPECT_LT(*ParseRfc3339("2026-11-29T11:00:00+02:00"), *ParseRfc3339("2026-11-29T10:00:00Z"));
  EXPECT_LT(*ParseRfc3339("2026-11-29T10:00:00Z"), *ParseRfc3339("2026-11-29T10:00:00.000000001Z"));
  EXPECT_GT(*ParseRfc3339("2027-01-01T00:00:00Z"), *ParseRfc3339("2026-12-31T23:59:59.999999999Z"));
}

TEST(Rfc3339, Rejects) {
  for (const char* bad : {
           "", "2026-11-29", "2026-11-29T10:00:00", "2026-11-29 10:00:00Z", "2026-11-29T10:00Z",
           "2026-02-30T10:00:00Z", "2025-02-29T10:00:00Z", "1900-02-29T10:00:00Z",
           "2026-13-01T10:00:00Z", "2026-00-01T10:00:00Z", "2026-11-00T10:00:00Z",
           "2026-04-31T10:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T10:60:00Z",
           "2026-11-29T23:59:60Z", "2026-11-29T10:00:00.Z",
           "2026-11-29T10:00:00+0200", "2026-11-29T10:00:00+02", "2026-11-29T10:00:00+24:00",
           "2026-11-29T10:00:00+02:60", "2026-11-29T10:00:00ZZ", "2026-11-29T10:00:00Z ",
           " 2026-11-29T10:00:00Z", "26-11-29T10:00:00Z", "2026-1-29T10:00:00Z",
           "2026-11-29T1:00:00Z", "+2026-11-29T10:00:00Z", "2026-11-29T10:00:00UTC",
           "2026-11-29T10:00:00,5Z", "1795946400", "２０２６-11-29T10:00:00Z",
       }) {
    EXPECT_FALSE(ParseRfc3339(bad).has_value()) << bad;
  }
}

RC_GTEST_PROP(Rfc3339, MatchesTimegm, ()) {
  const int year = *rc::gen::inRange(1970, 10000);
  const int month = *rc::gen::inRange(1, 13);
  const int day = *rc::gen::inRange(1, 29);
  const int hour = *rc::gen::inRange(0, 24);
  const int minute = *rc::gen::inRange(0, 60);
  const int second = *rc::gen::inRange(0, 60);
  const int offset = *rc::gen::inRange(-23 * 60 - 59, 23 * 60 + 60);
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const int64_t expected = static_cast<int64_t>(timegm(&tm)) - offset * 60;
  const int abs_offset = offset < 0 ? -offset : offset;
  const std::string text = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}{:02}:{:02}", year, month,
                                       day, hour, minute, second, offset < 0 ? '-' : '+',
                                       abs_offset / 60, abs_offset % 60);
  auto parsed = ParseRfc3339(text);
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->seconds == expected);
  RC_ASSERT(parsed->nanos == 0);
}

RC_GTEST_PROP(Rfc3339, NeverCrashesOnNoise, (const std::string& text)) {
  auto parsed = ParseRfc3339(text);
  if (parsed) RC_ASSERT(parsed->nanos >= 0 && parsed->nanos < 1000000000);
}

}  // namespace
}  // namespace rescfg
