#pragma once
/// A job's need (rescfg(5), JOBS FILE): what it asks of a pool, from its profile and,
/// for a dynamic profile, its parameter.

#include <string>
#include <string_view>

#include "config/model.h"
#include "jobs/job.h"
#include "quantity.h"

namespace rescfg {

/// The allotment, or for a dynamic profile the parameter's value when it is
/// a valid quantity > 0. `*source` says which ("allotment", "parameter",
/// "fallback": the parameter is there but not an amount, then `*note` says
/// why); both are static or owned text.
Quantity NeedOf(const Profile& profile, const JobEntry& entry, std::string_view* source, std::string* note);

}  // namespace rescfg
