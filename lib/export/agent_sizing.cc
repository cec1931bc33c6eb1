#include "export/agent_sizing.h"

#include <array>
#include <string_view>

namespace rescfg {
namespace {

constexpr Ticks kUnit = Quantity::kTicksPerUnit;
constexpr Ticks kMicro = kUnit / 1'000'000;  // ticks per millionth
static_assert(kUnit % 1'000'000 == 0 && kUnit % 16 == 0);

/// The values the ClearML fractional GPU injector accepts below 1, in
/// sixteenths, ascending.
struct InjectorValue {
  int sixteenths;
  std::string_view label;
};
constexpr std::array<InjectorValue, 8> kInjectorValues{{
    {1, "0.0625"}, {2, "0.125"}, {4, "0.250"}, {6, "0.375"},
    {8, "0.500"}, {10, "0.625"}, {12, "0.750"}, {14, "0.875"},
}};

Quantity Sixteenths(int n) { return Quantity::FromTicks(kUnit / 16 * n); }

/// The smallest whole number of GPUs at least `amount`.
int64_t CeilUnits(Quantity amount) {
  return static_cast<int64_t>((amount.ticks() + kUnit - 1) / kUnit);
}

PodGpus Whole(int64_t gpus, Quantity allotment) {
  PodGpus pod;
  pod.kind = PodGpus::Kind::kWhole;
  pod.gpus = gpus;
  pod.amount = Quantity::Units(gpus);
  pod.exact = pod.amount == allotment;
  return pod;
}

}  // namespace

Quantity RoundDownToMicro(Quantity amount) {
  return Quantity::FromTicks(amount.ticks() / kMicro * kMicro);
}

std::string ResourceUsageLabel(Quantity amount) {
  const Ticks micros = amount.ticks() / kMicro;
  std::string out = Int128ToString(micros / 1'000'000);
  Ticks fraction = micros % 1'000'000;
  if (fraction == 0) return out;
  std::string digits = Int128ToString(fraction);
  digits.insert(0, 6 - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

std::string InjectorFraction(Quantity amount) {
  for (const auto& value : kInjectorValues) {
    if (Sixteenths(value.sixteenths) == amount) return std::string(value.label);
  }
  return "";
}

PodGpus K8sPodGpus(Quantity allotment, const GpuFractions& fractions) {
  if (allotment.is_whole()) return Whole(CeilUnits(allotment), allotment);
  if (allotment > Quantity::Units(1)) return Whole(CeilUnits(allotment), allotment);
  PodGpus pod;
  if (fractions.mig) {
    for (const auto& mig : fractions.resources) {  // ascending fraction
      if (mig.fraction < allotment) continue;
      pod.kind = PodGpus::Kind::kMig;
      pod.resource = mig.resource;
      pod.amount = mig.fraction;
      pod.exact = mig.fraction == allotment;
      return pod;
    }
    return Whole(1, allotment);
  }
  for (const auto& value : kInjectorValues) {
    const Quantity amount = Sixteenths(value.sixteenths);
    if (amount < allotment) continue;
    pod.kind = PodGpus::Kind::kInjector;
    pod.fraction = std::string(value.label);
    pod.amount = amount;
    pod.exact = amount == allotment;
    return pod;
  }
  return Whole(1, allotment);
}

DaemonGpus DaemonQueueGpus(Quantity allotment) {
  if (allotment.is_whole() || allotment > Quantity::Units(1)) {
    Quantity amount = Quantity::Units(CeilUnits(allotment));
    return {amount, amount == allotment};
  }
  constexpr Ticks kEighth = kUnit / 8;
  Quantity amount = Quantity::FromTicks((allotment.ticks() + kEighth - 1) / kEighth * kEighth);
  return {amount, amount == allotment};
}

}  // namespace rescfg
