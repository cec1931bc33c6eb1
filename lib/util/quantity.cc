#include "util/quantity.h"

#include <cctype>

namespace rescfg {
namespace {

constexpr Ticks kTick = Quantity::kTicksPerUnit;
/// Larger than any amount we accept; parsing stops growing numbers past it.
constexpr Ticks kParseCeiling = Ticks(Quantity::kMaxUnits) * kTick * 1000;

Ticks Gcd(Ticks a, Ticks b) {
  while (b != 0) { Ticks t = a % b; a = b; b = t; }
  return a;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) if (c < '0' || c > '9') return false;
  return true;
}

/// Reads a run of digits; saturates at kParseCeiling so huge inputs are
/// reported as too large rather than overflowing.
Ticks ReadDigits(std::string_view s) {
  Ticks v = 0;
  for (char c : s) {
    v = v * 10 + (c - '0');
    if (v > kParseCeiling) return kParseCeiling + 1;
  }
  return v;
}

std::optional<Quantity> Fail(QuantityError* error, std::string message, std::string hint = {}) {
  if (error) *error = {std::move(message), std::move(hint)};
  return std::nullopt;
}

/// A hint for a decimal that is not on the grid: the nearest "1/n" or "k/n"
/// with a small denominator, when one is within 1%.
std::string HintForDecimal(Ticks num, Ticks den) {
  for (int n = 2; n <= 16; ++n) {
    // k = round(num * n / den)
    Ticks k = (num * n * 2 + den) / (den * 2);
    if (k <= 0) continue;
    Ticks diff = num * n - k * den;  // (value - k/n) * n * den
    if (diff < 0) diff = -diff;
    // |value - k/n| <= 1% of k/n  <=>  diff * 100 <= k * den
    if (diff * 100 <= k * den) {
      return "use \"" + Int128ToString(k) + "/" + std::to_string(n) + "\"";
    }
  }
  return "use at most 6 fractional digits, or a fraction \"n/d\" with d from 1 to 16";
}

}  // namespace

std::string Int128ToString(Ticks v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  std::string out;
  while (v != 0) {
    int digit = static_cast<int>(v % 10);
    out.push_back(static_cast<char>('0' + (digit < 0 ? -digit : digit)));
    v /= 10;
  }
  if (negative) out.push_back('-');
  return std::string(out.rbegin(), out.rend());
}

bool Quantity::NeedsFraction() const {
  Ticks den = kTick / Gcd(ticks_ < 0 ? -ticks_ : ticks_, kTick);
  while (den % 2 == 0) den /= 2;
  while (den % 5 == 0) den /= 5;
  return den != 1;
}

std::string Quantity::ToString() const {
  Ticks t = ticks_;
  std::string sign;
  if (t < 0) { sign = "-"; t = -t; }
  Ticks whole = t / kTick;
  Ticks rest = t % kTick;
  if (rest == 0) return sign + Int128ToString(whole);
  if (!NeedsFraction()) {
    // The reduced denominator divides 10^6, so six digits are exact.
    Ticks micro = rest / (kTick / 1'000'000);
    std::string digits = Int128ToString(micro);
    digits.insert(0, 6 - digits.size(), '0');
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    return sign + Int128ToString(whole) + "." + digits;
  }
  Ticks g = Gcd(t, kTick);
  return sign + Int128ToString(t / g) + "/" + Int128ToString(kTick / g);
}

std::string Quantity::ToDecimal() const {
  if (!NeedsFraction()) return ToString();
  constexpr Ticks kScale = 1'000'000'000;  // nine digits
  Ticks t = ticks_ < 0 ? -ticks_ : ticks_;
  Ticks scaled = t * kScale;
  Ticks q = scaled / kTick, r = scaled % kTick;
  if (2 * r > kTick || (2 * r == kTick && q % 2 == 1)) ++q;  // half-even
  Ticks whole = q / kScale, frac = q % kScale;
  std::string out = (ticks_ < 0 ? "-" : "") + Int128ToString(whole);
  if (frac != 0) {
    std::string digits = Int128ToString(frac);
    digits.insert(0, 9 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out;
}

std::optional<Quantity> ParseQuantity(std::string_view raw, QuantityError* error) {
  std::string_view s = Trim(raw);
  std::string shown(s.substr(0, 40));
  if (s.size() > 40) shown += "...";
  if (s.empty()) return Fail(error, "empty value is not a quantity");
  if (s.front() == '-') {
    // "-0" is not below 0, but it is not written as an amount either.
    if (s.find_first_not_of("0.", 1) == std::string_view::npos && s.size() > 1) {
      return Fail(error, "'" + shown + "' has a sign; write the plain number");
    }
    return Fail(error, "'" + shown + "' is negative; amounts are never below 0");
  }
  if (s.front() == '+') return Fail(error, "'" + shown + "' has a sign; write the plain number");

  Ticks num = 0, den = 1;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    std::string_view n = Trim(s.substr(0, slash)), d = Trim(s.substr(slash + 1));
    if (!AllDigits(n) || !AllDigits(d)) {
      return Fail(error, "'" + shown + "' is not a fraction of two whole numbers",
                  "write it as \"n/d\", e.g. \"1/7\"");
    }
    num = ReadDigits(n);
    den = ReadDigits(d);
    if (den == 0) return Fail(error, "'" + shown + "' divides by zero");
    if (den > kParseCeiling) return Fail(error, "'" + shown + "' has a denominator that is too large");
  } else {
    std::string_view int_part = s, frac_part;
    bool has_point = false;
    if (auto dot = s.find('.'); dot != std::string_view::npos) {
      has_point = true;
      int_part = s.substr(0, dot);
      frac_part = s.substr(dot + 1);
    }
    bool ok = (AllDigits(int_part) || (has_point && int_part.empty() && !frac_part.empty())) &&
              (!has_point || frac_part.empty() || AllDigits(frac_part));
    if (!ok) {
      std::string hint;
      if (s.find_first_of("eE") != std::string_view::npos && s.find_first_not_of("0123456789.eE+-") == std::string_view::npos) {
        hint = "write the number out in full, without an exponent";
      } else if (s == ".inf" || s == ".Inf" || s == ".INF" || s == ".nan" || s == ".NaN" || s == ".NAN") {
        hint = "use a finite amount";
      } else {
        hint = "use a number such as 8 or 0.5, or a fraction such as \"1/7\"";
      }
      return Fail(error, "'" + shown + "' is not a quantity", hint);
    }
    // Strip trailing zeros of the fraction: 0.5000000 is on the grid.
    while (!frac_part.empty() && frac_part.back() == '0') frac_part.remove_suffix(1);
    num = ReadDigits(int_part.empty() ? std::string_view("0") : int_part);
    if (num > Ticks(Quantity::kMaxUnits)) {
      return Fail(error, "'" + shown + "' is larger than the largest amount, 1000000");
    }
    // Only the first 12 fractional digits matter for the hint; any digit
    // beyond the sixth already puts the value off the grid.
    std::string_view kept = frac_part.substr(0, 12);
    for (char c : kept) {
      num = num * 10 + (c - '0');
      den *= 10;
    }
    if (frac_part.size() > 6) {
      return Fail(error, "'" + shown + "' is not a whole number of ticks (1/9009000000)",
                  HintForDecimal(num, den));
    }
  }
  if (num > Ticks(Quantity::kMaxUnits) * den) {
    return Fail(error, "'" + shown + "' is larger than the largest amount, 1000000");
  }
  if (num * kTick % den != 0) {
    std::string hint = "use a denominator from 1 to 16";
    return Fail(error, "'" + shown + "' is not a whole number of ticks (1/9009000000)", hint);
  }
  return Quantity::FromTicks(num * kTick / den);
}

}  // namespace rescfg
