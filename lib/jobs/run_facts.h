#pragma once
/// What preemption reads of a jobs-file entry (rescfg(5), JOBS FILE): a running job's `started`
/// and `stopping`, and instants in whole microseconds.

#include <cstdint>
#include <string>

#include "jobs/job.h"
#include "util/rfc3339.h"

namespace rescfg {

/// The instant in whole microseconds since 1970-01-01T00:00:00Z (digits beyond them dropped).
int64_t MicrosOf(const Timestamp& t);

/// Reads a running entry's `started` (RFC 3339) and `stopping` (true | false) into the
/// arguments (left as they are when absent); returns the problem, or "" when both are usable.
std::string ReadRunFacts(const JobEntry& e, int64_t* started_us, bool* stopping);

/// The instant as RFC 3339 in UTC (`2026-11-29T10:00:00Z`, with `.ffffff` when it has microseconds).
std::string FormatMicros(int64_t micros);

}  // namespace rescfg
