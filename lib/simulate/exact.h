#pragma once
/// Exact arithmetic for the statistics of a simulation (rescfg-scheduling(7), THE SIMULATION CLOCK): sums of
/// amount × time products, and quotients rounded half-even at the sixth
/// decimal. Integers only; 256 bits so that no input can overflow (an
/// amount is below 2^63 ticks, a time span below 2^63 microseconds).

#include <cstdint>
#include <string>

namespace rescfg {

using U128 = unsigned __int128;

/// An unsigned 256-bit integer: just enough for sums, scaling and division.
class U256 {
 public:
  U256() = default;
  U256(U128 v) : w_{static_cast<uint64_t>(v), static_cast<uint64_t>(v >> 64), 0, 0} {}  // NOLINT

  U256& operator+=(const U256& b);
  /// Subtracts b, which must not be larger.
  U256& operator-=(const U256& b);
  /// Multiplies by a 64-bit factor.
  U256 Times(uint64_t factor) const;
  /// Quotient and remainder by a non-zero 128-bit divisor.
  U256 DivMod(U128 divisor, U128* remainder) const;
  bool is_zero() const { return (w_[0] | w_[1] | w_[2] | w_[3]) == 0; }
  /// The low 128 bits (the value itself when it fits).
  U128 Low128() const { return (U128(w_[1]) << 64) | w_[0]; }
  friend bool operator==(const U256&, const U256&) = default;
  friend bool operator<(const U256& a, const U256& b) {
    for (int i = 3; i >= 0; --i) {
      if (a.w_[i] != b.w_[i]) return a.w_[i] < b.w_[i];
    }
    return false;
  }

  /// Decimal digits.
  std::string ToString() const;

 private:
  uint64_t w_[4] = {0, 0, 0, 0};  ///< least significant first
};

/// Adds a × b to `sum` (a, b < 2^64).
void AddProduct(U256* sum, uint64_t a, uint64_t b);

/// num / den rounded half-even to a whole number (den > 0).
U256 DivideHalfEven(const U256& num, U128 den);

/// A count of millionths as a decimal: 12500000 -> "12.5", 1 -> "0.000001".
std::string FormatMillionths(const U256& millionths);

/// num / den as a decimal rounded half-even at the sixth decimal (den > 0).
std::string RoundedQuotient(const U256& num, U128 den);

}  // namespace rescfg
