#pragma once
/// Amounts as people read them (tables, `status`, `explain`, `graph` and
/// every message): a whole number or finite decimal as it is; anything else
/// rounded to 2 places behind a `~` ("~23.48"), or, in a pool whose
/// `gpuFractions.mig` maps its slices, counted in slices ("34 of 56
/// slices"). Machine formats never use these: they keep exact values.

#include <string>

#include "config/model.h"
#include "util/quantity.h"

namespace rescfg {

/// "8", "0.5" or "~2.33". Integer arithmetic only.
std::string HumanAmount(Quantity amount);

/// As HumanAmount, but in `pool`'s MIG slices ("34 of 56 slices") when the
/// amount is no finite decimal and both it and the pool's size are whole
/// numbers of the smallest mapped slice that divides them.
std::string HumanAmount(Quantity amount, Quantity pool_size, const GpuFractions& fractions);
std::string HumanAmount(Quantity amount, const Pool& pool);

/// An amount out of a pool's size: "4 of 8", "~23.48 of 24", or in slices
/// "34 of 56 slices" (the size is then already said).
std::string HumanAmountOf(Quantity amount, Quantity pool_size, const GpuFractions& fractions);
std::string HumanAmountOf(Quantity amount, const Pool& pool);

}  // namespace rescfg
