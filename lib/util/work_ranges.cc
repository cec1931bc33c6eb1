#include "util/work_ranges.h"

#include <algorithm>

namespace rescfg {

WorkRanges::WorkRanges(size_t n, size_t second_from, size_t batch, size_t min_take, size_t max_ranges)
    : next_{0, std::min(second_from, n)},
      end_{std::min(second_from, n), n},
      batch_(std::max<size_t>(batch, 1)),
      min_take_(std::max<size_t>(min_take, 2)),
      max_ranges_(max_ranges) {}

WorkRanges::Batch WorkRanges::Next(int t) {
  const std::lock_guard<std::mutex> lock(mutex_);
  Batch batch;
  if (next_[t] == end_[t]) {
    // Its range is done: the back half of what the other has left.
    const int other = 1 - t;
    const size_t left = end_[other] - next_[other];
    if (left < min_take_ || ranges_ >= max_ranges_) return batch;
    const size_t middle = next_[other] + left / 2;
    next_[t] = middle;
    end_[t] = end_[other];
    end_[other] = middle;
    ++ranges_;
    batch.new_range = true;
    batch.range_end = end_[t];
  }
  batch.from = next_[t];
  batch.to = std::min(end_[t], next_[t] + batch_);
  next_[t] = batch.to;
  return batch;
}

void WorkRanges::Stop(int t) {
  const std::lock_guard<std::mutex> lock(mutex_);
  next_[t] = end_[t];
}

size_t WorkRanges::ranges() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return ranges_;
}

}  // namespace rescfg
