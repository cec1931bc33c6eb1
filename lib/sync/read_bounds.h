#pragma once
/// Bounds on reading a ClearML server in one sync cycle (rescfg(1), "Bounds
/// on a cycle"): how many calls, how many bytes and how long the reading of
/// the queues, tasks and workers may take, and a signal (SIGINT, SIGTERM)
/// that ends a read at once. A server that scrolls without end or answers
/// a byte at a time ends the cycle's reading, never hangs it.
///
/// The transport asks the guard before each call and while each answer
/// comes in (libcurl's progress callback); the cycle arms it for its
/// reading only, so that a move once begun is never cut in the middle by
/// these bounds (a move has the per-call bounds of the transport). The
/// guard reads the time on the clock it is given (util/clock.h).

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "util/clock.h"

namespace rescfg::sync {

struct ReadBounds {
  int64_t cycle_micros = 300'000'000;        ///< --read-timeout: the whole reading of a cycle
  uint64_t cycle_bytes = uint64_t(1) << 30;  ///< answers' bytes in one reading
  uint64_t cycle_calls = 20'000;             ///< calls (pages) in one reading
};

/// The bounds of tests that cannot wait for the real ones:
/// RESCFG_TEST_READ_BOUNDS="CALLS,BYTES" (unset: `bounds` unchanged).
void ApplyTestReadBounds(ReadBounds* bounds);

class ReadGuard {
 public:
  /// `clock` (not owned) times the reading: its monotonic time.
  explicit ReadGuard(const Clock& clock, ReadBounds bounds = {}, const std::atomic<bool>* stop = nullptr)
      : clock_(clock), bounds_(bounds), stop_(stop) {}

  /// From now on the bounds count, from zero.
  void Arm();
  void Disarm();

  /// Before a call: false (with `why`) when the reading must end.
  bool BeforeCall(std::string* why);
  /// While an answer comes in: `received` bytes of this answer so far.
  /// False (with `why`) when the reading must end. Safe from several threads.
  bool WhileReceiving(uint64_t received, std::string* why);
  /// After a call: its answer's `bytes` count against the cycle's.
  void AfterCall(uint64_t bytes);

 private:
  bool Over(uint64_t extra_bytes, int64_t now_micros, std::string* why) const;

  const Clock& clock_;
  ReadBounds bounds_;
  const std::atomic<bool>* stop_;
  mutable std::mutex mutex_;
  bool armed_ = false;
  int64_t started_ = 0;
  uint64_t bytes_ = 0, calls_ = 0;
};

/// Arms a guard (when there is one) for a scope.
class ArmedRead {
 public:
  explicit ArmedRead(ReadGuard* guard) : guard_(guard) {
    if (guard_) guard_->Arm();
  }
  ~ArmedRead() {
    if (guard_) guard_->Disarm();
  }
  ArmedRead(const ArmedRead&) = delete;
  ArmedRead& operator=(const ArmedRead&) = delete;

 private:
  ReadGuard* guard_;
};

}  // namespace rescfg::sync
