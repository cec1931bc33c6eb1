#include "simulate/exact.h"

#include <algorithm>

namespace rescfg {

U256& U256::operator+=(const U256& b) {
  U128 carry = 0;
  for (int i = 0; i < 4; ++i) {
    U128 s = U128(w_[i]) + b.w_[i] + carry;
    w_[i] = static_cast<uint64_t>(s);
    carry = s >> 64;
  }
  return *this;
}

U256& U256::operator-=(const U256& b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t a = w_[i];
    const uint64_t d = a - b.w_[i] - borrow;
    borrow = (a < b.w_[i] || (a == b.w_[i] && borrow)) ? 1 : 0;
    w_[i] = d;
  }
  return *this;
}

U256 U256::Times(uint64_t factor) const {
  U256 out;
  U128 carry = 0;
  for (int i = 0; i < 4; ++i) {
    U128 p = U128(w_[i]) * factor + carry;
    out.w_[i] = static_cast<uint64_t>(p);
    carry = p >> 64;
  }
  return out;
}

U256 U256::DivMod(U128 divisor, U128* remainder) const {
  // Bit by bit, most significant first. The remainder stays below the
  // divisor; shifted, it may pass 2^128, and then it exceeds the divisor
  // too, so subtracting modulo 2^128 gives the right remainder.
  U256 quotient;
  U128 rem = 0;
  for (int bit = 255; bit >= 0; --bit) {
    const bool overflow = (rem >> 127) != 0;
    rem = (rem << 1) | ((w_[bit / 64] >> (bit % 64)) & 1);
    if (overflow || rem >= divisor) {
      rem -= divisor;
      quotient.w_[bit / 64] |= uint64_t(1) << (bit % 64);
    }
  }
  *remainder = rem;
  return quotient;
}

std::string U256::ToString() const {
  constexpr uint64_t kChunk = 10'000'000'000'000'000'000ull;  // 10^19
  std::string out;
  U256 v = *this;
  do {
    U128 rem = 0;
    v = v.DivMod(kChunk, &rem);
    std::string digits = std::to_string(static_cast<uint64_t>(rem));
    if (!v.is_zero()) digits.insert(0, 19 - digits.size(), '0');
    out.insert(0, digits);
  } while (!v.is_zero());
  return out;
}

void AddProduct(U256* sum, uint64_t a, uint64_t b) { *sum += U256(U128(a) * b); }

U256 DivideHalfEven(const U256& num, U128 den) {
  U128 rem = 0;
  U256 q = num.DivMod(den, &rem);
  // Compare 2·rem with den without overflowing: rem < den.
  const bool above_half = rem > den - rem;
  const bool at_half = rem == den - rem;
  U128 odd = 0;
  U256(q).DivMod(2, &odd);
  if (above_half || (at_half && odd != 0)) q += U256(U128(1));
  return q;
}

std::string FormatMillionths(const U256& millionths) {
  std::string digits = millionths.ToString();
  if (digits.size() < 7) digits.insert(0, 7 - digits.size(), '0');
  std::string whole = digits.substr(0, digits.size() - 6), fraction = digits.substr(digits.size() - 6);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  return fraction.empty() ? whole : whole + "." + fraction;
}

std::string RoundedQuotient(const U256& num, U128 den) {
  return FormatMillionths(DivideHalfEven(num.Times(1'000'000), den));
}

}  // namespace rescfg
