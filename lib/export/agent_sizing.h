#pragma once
/// How one task's allotment reaches a ClearML agent (rescfg(1), export clearml-agent): the
/// `clear.ml/resource-usage` label, the GPUs a Kubernetes pod requests
/// (whole GPUs, a fractional-GPU injector value or one MIG slice), and the
/// amount a bare-metal `clearml-agent daemon --dynamic-gpus` queue gives.
///
/// Pure arithmetic on ticks: no floating point. Where the agent cannot take
/// the allotment exactly, the answer is the nearest amount above it (a task
/// never gets less than rescfg accounts for it) and `exact` is false.

#include <cstdint>
#include <string>

#include "config/model.h"
#include "util/quantity.h"

namespace rescfg {

/// `amount` rounded down to a whole number of millionths.
Quantity RoundDownToMicro(Quantity amount);

/// The `clear.ml/resource-usage` label: the amount as a decimal rounded
/// down at the 6th fractional digit, without trailing zeros ("2", "0.5",
/// "0.142857" for 1/7, "0.333333" for 1/3).
std::string ResourceUsageLabel(Quantity amount);

/// What a pod of a Kubernetes glue queue requests for one task.
struct PodGpus {
  enum class Kind {
    kWhole,     ///< resources.limits."nvidia.com/gpu": gpus
    kInjector,  ///< label clearml-injector/fraction: fraction
    kMig,       ///< resources.limits.<resource>: 1
  };
  Kind kind = Kind::kWhole;
  int64_t gpus = 0;       ///< kWhole
  std::string fraction;   ///< kInjector: one of the injector's values, "0.0625" ... "0.875"
  std::string resource;   ///< kMig: e.g. nvidia.com/mig-1g.10gb
  Quantity amount;        ///< what the pod gets: the allotment when exact, else more
  bool exact = true;
};

/// The request for a task of `allotment` (> 0) in a pool whose fractional
/// GPUs are `fractions`. A whole allotment is whole GPUs. A fraction below 1
/// is the injector's value or the pool's MIG slice of that size; when there
/// is none, the smallest one above it, else one whole GPU. A fraction above
/// 1 (1.5) is rounded up to whole GPUs: neither form adds a part of a GPU
/// to whole ones.
PodGpus K8sPodGpus(Quantity allotment, const GpuFractions& fractions);

/// The injector's value for exactly `amount`, or "" when it has none.
std::string InjectorFraction(Quantity amount);

/// The amount a `--queue NAME=AMOUNT` of `clearml-agent daemon
/// --dynamic-gpus` gives each task: the agent takes fractions in steps of
/// 0.125 up to 1 and whole numbers above.
struct DaemonGpus {
  Quantity amount;  ///< the allotment when exact, else the next amount the agent takes
  bool exact = true;
};
DaemonGpus DaemonQueueGpus(Quantity allotment);

}  // namespace rescfg
