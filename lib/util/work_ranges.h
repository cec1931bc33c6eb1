#pragma once
/// Two threads sharing the items [0, n) a batch at a time, so that the one
/// on the faster core does more. Thread 0 starts at 0 and thread 1 at a
/// middle; a thread whose range runs out takes the back half of what the
/// other has left, as a range of its own. The two cores of a virtual
/// machine can run at very different speeds (one at half the other's for
/// seconds at a time): with one fixed half each, the faster one waits.

#include <cstddef>
#include <mutex>

namespace rescfg {

class WorkRanges {
 public:
  /// Thread 0's range is [0, second_from), thread 1's [second_from, n). What
  /// is left of a range is split only when it is `min_take` items or more,
  /// and into `max_ranges` ranges at most (the first two included).
  WorkRanges(size_t n, size_t second_from, size_t batch, size_t min_take, size_t max_ranges);

  struct Batch {
    size_t from = 0, to = 0;  ///< the items to do now; none (from == to) when all are taken
    /// The batch is the start of a range taken from the other thread, which
    /// ends at `range_end`; the batches after it continue that range.
    bool new_range = false;
    size_t range_end = 0;
  };
  /// Thread `t`'s (0 or 1) next batch: in file order within each range.
  Batch Next(int t);
  /// Thread `t` stops: what is left of its range is nobody's.
  void Stop(int t);
  /// How many ranges there are (two, and one more each time one is taken).
  size_t ranges() const;

 private:
  mutable std::mutex mutex_;
  size_t next_[2], end_[2];
  size_t batch_, min_take_, max_ranges_;
  size_t ranges_ = 2;
};

}  // namespace rescfg
