#pragma once
/// How often and how long `rescfg sync` tries a call again after a
/// transport failure (no connection, a timeout, an HTTP 5xx): exponential
/// backoff with jitter, up to a bound, so that a restarting server is not
/// hammered by every client at the same instants. The waits are the
/// caller's clock's (util/clock.h): a test's clock makes them instant.

#include <cstdint>

namespace rescfg::sync {

struct RetryPolicy {
  int attempts = 5;          ///< calls in all, the first included
  int64_t base_ms = 100;     ///< the wait after the first failure, before jitter
  int64_t cap_ms = 2'000;    ///< no single wait is longer
};

/// The wait after the `failures`-th failed attempt (1, 2, ...): d =
/// min(cap, base * 2^(failures-1)), then a point in [d/2, d] chosen by
/// `random` (any 64-bit value), in microseconds.
int64_t BackoffMicros(const RetryPolicy& policy, int failures, uint64_t random);

/// The longest total wait the policy can add to one call.
int64_t MaxTotalBackoffMicros(const RetryPolicy& policy);

}  // namespace rescfg::sync
