#pragma once
/// Exact resource amounts (rescfg-scheduling(7), AMOUNTS).
///
/// An amount is a whole number of ticks, 1/9 009 000 000 of a GPU: the least
/// common multiple of 10^6 (six decimal digits) and 720720 (every denominator
/// from 1 to 16). Ticks are held in 128 bits so that no sum of amounts read
/// from any input can overflow; a single amount is at most 10^6 GPUs.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rescfg {

using Ticks = __int128;

class Quantity {
 public:
  static constexpr int64_t kTicksPerUnit = 9'009'000'000;
  static constexpr int64_t kMaxUnits = 1'000'000;

  constexpr Quantity() = default;
  static constexpr Quantity FromTicks(Ticks t) { Quantity q; q.ticks_ = t; return q; }
  static constexpr Quantity Units(int64_t n) { return FromTicks(Ticks(n) * kTicksPerUnit); }
  static constexpr Quantity Zero() { return {}; }
  static constexpr Quantity Max() { return Units(kMaxUnits); }

  constexpr Ticks ticks() const { return ticks_; }
  constexpr bool is_zero() const { return ticks_ == 0; }
  constexpr bool is_whole() const { return ticks_ % kTicksPerUnit == 0; }

  constexpr Quantity& operator+=(Quantity o) { ticks_ += o.ticks_; return *this; }
  constexpr Quantity& operator-=(Quantity o) { ticks_ -= o.ticks_; return *this; }
  friend constexpr Quantity operator+(Quantity a, Quantity b) { return a += b; }
  friend constexpr Quantity operator-(Quantity a, Quantity b) { return a -= b; }
  friend constexpr bool operator==(Quantity a, Quantity b) = default;
  friend constexpr std::strong_ordering operator<=>(Quantity a, Quantity b) {
    return a.ticks_ < b.ticks_ ? std::strong_ordering::less
         : a.ticks_ > b.ticks_ ? std::strong_ordering::greater
                               : std::strong_ordering::equal;
  }

  /// max(0, a - b): free capacity never goes below zero.
  static constexpr Quantity SaturatingSub(Quantity a, Quantity b) {
    return a.ticks_ > b.ticks_ ? a - b : Zero();
  }

  /// The rescfg-scheduling(7), AMOUNTS output form: "8", "0.5", "0.143" or, when the value has no
  /// finite decimal form, the reduced fraction "6/7".
  std::string ToString() const;
  /// True when ToString() gives a fraction (it must be quoted in YAML/JSON).
  bool NeedsFraction() const;
  /// A plain decimal number for tools that sum in floating point (jq): the
  /// exact value rounded half-even at the 9th fractional digit, trailing
  /// zeros dropped. Equal to ToString() whenever that is not a fraction.
  std::string ToDecimal() const;

 private:
  Ticks ticks_ = 0;
};

/// Why a text is not a quantity, with a hint on how to write it instead.
struct QuantityError {
  std::string message;  ///< e.g. "1/17 is not a multiple of 1/9009000000"
  std::string hint;     ///< e.g. "use \"1/7\""; may be empty
};

/// Parses "8", "0.5", "1/7" (surrounding blanks allowed). Never rounds;
/// never goes through floating point. Returns nullopt and fills `error` when
/// the text is not an exact quantity in [0, 10^6].
std::optional<Quantity> ParseQuantity(std::string_view text, QuantityError* error = nullptr);

/// Renders a 128-bit integer in decimal.
std::string Int128ToString(Ticks v);

}  // namespace rescfg
