#pragma once
/// Where time is read: an interface, so that code that judges time (the
/// sync's cycles and retries, `--now`) is told the time instead of reading
/// it, and tests set time instead of sleeping. Whole microseconds only.

#include <atomic>
#include <cstdint>

namespace rescfg {

class Clock {
 public:
  virtual ~Clock() = default;
  /// Microseconds since 1970-01-01T00:00:00Z (UTC, the wall clock).
  virtual int64_t UtcMicros() const = 0;
  /// Microseconds on a clock that never goes back, for intervals.
  virtual int64_t MonotonicMicros() const = 0;
  /// Waits `micros` (nothing when it is 0 or less).
  virtual void Sleep(int64_t micros) = 0;
};

/// The machine's clocks.
Clock& SystemClock();

/// A clock that stands still until told: Sleep moves it on at once. Safe
/// from several threads (the sync's moves run at once).
class ManualClock : public Clock {
 public:
  explicit ManualClock(int64_t utc_micros = 0) : utc_(utc_micros) {}
  int64_t UtcMicros() const override { return utc_.load(); }
  int64_t MonotonicMicros() const override { return monotonic_.load(); }
  void Sleep(int64_t micros) override { Advance(micros); }
  void Advance(int64_t micros) {
    if (micros <= 0) return;
    utc_ += micros;
    monotonic_ += micros;
    slept_ += micros;
  }
  int64_t slept() const { return slept_.load(); }  ///< all the time it was moved on

 private:
  std::atomic<int64_t> utc_{0}, monotonic_{0}, slept_{0};
};

}  // namespace rescfg
