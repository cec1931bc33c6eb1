#pragma once
/// A job's need (rescfg(5), JOBS FILE): what it asks of a pool, from its profile and,
/// for a dynamic profile, its parameter.

#include <string>
#include <string_view>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/job_outcome.h"
#include "util/quantity.h"

namespace rescfg {

/// The allotment, or for a dynamic profile the parameter's value when it is
/// a valid quantity > 0. `*source` says which (allotment, parameter,
/// fallback: the parameter is there but not an amount, then `*note` says
/// why; invalid: the same for a profile that rejects such jobs).
Quantity NeedOf(const Profile& profile, const JobEntry& entry, NeedSource* source, std::string* note);

}  // namespace rescfg
