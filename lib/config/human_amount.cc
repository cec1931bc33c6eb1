#include "config/human_amount.h"

namespace rescfg {
namespace {

/// The slice of `pool` that counts `amount`: the smallest MIG fraction that
/// divides both it and the pool's size; none for an injector pool.
std::optional<Quantity> Slice(Quantity amount, Quantity pool_size, const GpuFractions& fractions) {
  if (!fractions.mig || !amount.NeedsFraction()) return std::nullopt;
  for (const GpuFractions::Mig& mig : fractions.resources) {  // ascending
    const Ticks slice = mig.fraction.ticks();
    if (slice > 0 && amount.ticks() % slice == 0 && pool_size.ticks() % slice == 0) return mig.fraction;
  }
  return std::nullopt;
}

}  // namespace

std::string HumanAmount(Quantity amount) {
  if (!amount.NeedsFraction()) return amount.ToString();
  // Not a finite decimal, so never exactly half a hundredth: plain rounding.
  constexpr Ticks kTick = Quantity::kTicksPerUnit;
  const bool negative = amount.ticks() < 0;
  const Ticks t = negative ? -amount.ticks() : amount.ticks();
  const Ticks hundredths = (t * 100 + kTick / 2) / kTick;
  std::string cents = std::to_string(static_cast<int>(hundredths % 100));
  if (cents.size() < 2) cents.insert(0, 1, '0');
  return std::string("~") + (negative ? "-" : "") + Int128ToString(hundredths / 100) + "." + cents;
}

std::string HumanAmount(Quantity amount, Quantity pool_size, const GpuFractions& fractions) {
  if (auto slice = Slice(amount, pool_size, fractions)) {
    return Int128ToString(amount.ticks() / slice->ticks()) + " of " +
           Int128ToString(pool_size.ticks() / slice->ticks()) + " slices";
  }
  return HumanAmount(amount);
}

std::string HumanAmount(Quantity amount, const Pool& pool) {
  return HumanAmount(amount, pool.resources, pool.gpu_fractions);
}

std::string HumanAmountOf(Quantity amount, Quantity pool_size, const GpuFractions& fractions) {
  if (Slice(amount, pool_size, fractions)) return HumanAmount(amount, pool_size, fractions);
  return HumanAmount(amount) + " of " + HumanAmount(pool_size);
}

std::string HumanAmountOf(Quantity amount, const Pool& pool) {
  return HumanAmountOf(amount, pool.resources, pool.gpu_fractions);
}

}  // namespace rescfg
