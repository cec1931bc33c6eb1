#include "sync/retry.h"

#include <algorithm>

namespace rescfg::sync {

namespace {

/// d of BackoffMicros, in microseconds.
int64_t FullWaitMicros(const RetryPolicy& policy, int failures) {
  int64_t wait_ms = std::max<int64_t>(policy.base_ms, 0);
  for (int i = 1; i < failures && wait_ms < policy.cap_ms; ++i) wait_ms *= 2;
  return std::min(wait_ms, policy.cap_ms) * 1000;
}

}  // namespace

int64_t BackoffMicros(const RetryPolicy& policy, int failures, uint64_t random) {
  const int64_t full = FullWaitMicros(policy, failures);
  const int64_t half = full / 2;
  return half + static_cast<int64_t>(random % static_cast<uint64_t>(full - half + 1));
}

int64_t MaxTotalBackoffMicros(const RetryPolicy& policy) {
  int64_t total = 0;
  for (int failures = 1; failures < policy.attempts; ++failures) total += FullWaitMicros(policy, failures);
  return total;
}

}  // namespace rescfg::sync
