#pragma once
/// Two threads sharing the items [0, n) a batch at a time, so that the one
/// on the faster core does more. Thread 0 starts at 0 and thread 1 at a
/// middle; a thread whose range runs out takes the back half of what the
/// other has left, as a range of its own. The two cores of a virtual
/// machine can run at very different speeds (one at half the other's for
/// seconds at a time): with one fixed half each, the faster one waits.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace rescfg {

class WorkRanges {
 public:
  /// Thread 0's range is [0, second_from), thread 1's [second_from, n). What
  /// is left of a range is split only when it is `min_take` items or more,
  /// and into `max_ranges` ranges at most (the first two included).
  WorkRanges(size_t n, size_t second_from, size_t batch, size_t min_take, size_t max_ranges);
  /// The same, where items may be cut only at boundaries: `boundary(i)` is
  /// the first at or after item i (a line's start in a text, say); 0,
  /// `second_from` and n are boundaries.
  WorkRanges(size_t n, size_t second_from, size_t batch, size_t min_take, size_t max_ranges,
             std::function<size_t(size_t)> boundary)
      : WorkRanges(n, second_from, batch, min_take, max_ranges) {
    boundary_ = std::move(boundary);
  }

  /// A range as handed out: its items and the thread that did them.
  struct Range {
    size_t from = 0, to = 0;
    int thread = 0;
    bool operator==(const Range&) const = default;
  };
  /// Hands out `ranges` again, none split, each to its thread in the order
  /// given: the same ranges as a reading before (Taken()), so that what is
  /// numbered by where a range starts is numbered the same.
  WorkRanges(std::vector<Range> ranges, size_t batch, std::function<size_t(size_t)> boundary = {});

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
  /// The ranges handed out so far, in the order they were made (the first
  /// two are thread 0's and thread 1's halves).
  std::vector<Range> Taken() const;

 private:
  /// The first boundary at or after `at`, within `end`.
  size_t Cut(size_t at, size_t end) const { return at >= end ? end : boundary_ ? std::min(end, boundary_(at)) : at; }

  mutable std::mutex mutex_;
  std::function<size_t(size_t)> boundary_;
  size_t next_[2], end_[2];
  size_t batch_, min_take_ = 2, max_ranges_ = 2;
  std::vector<Range> made_;
  size_t current_[2] = {0, 1};  ///< each thread's range among made_
  /// Handing out given ranges: each thread's, by their places in made_.
  bool fixed_ = false;
  std::vector<size_t> fixed_order_[2];
  size_t fixed_at_[2] = {0, 0};
};

}  // namespace rescfg
