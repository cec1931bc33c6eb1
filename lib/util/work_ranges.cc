#include "util/work_ranges.h"

namespace rescfg {

WorkRanges::WorkRanges(size_t n, size_t second_from, size_t batch, size_t min_take, size_t max_ranges)
    : next_{0, std::min(second_from, n)},
      end_{std::min(second_from, n), n},
      batch_(std::max<size_t>(batch, 1)),
      min_take_(std::max<size_t>(min_take, 2)),
      max_ranges_(max_ranges),
      made_{{0, end_[0], 0}, {next_[1], n, 1}} {}

WorkRanges::WorkRanges(std::vector<Range> ranges, size_t batch, std::function<size_t(size_t)> boundary)
    : boundary_(std::move(boundary)), batch_(std::max<size_t>(batch, 1)), made_(std::move(ranges)), fixed_(true) {
  for (size_t i = 0; i < made_.size(); ++i) fixed_order_[made_[i].thread & 1].push_back(i);
  for (int t : {0, 1}) {
    next_[t] = end_[t] = 0;
    if (!fixed_order_[t].empty()) {
      current_[t] = fixed_order_[t][0];
      next_[t] = made_[current_[t]].from;
      end_[t] = made_[current_[t]].to;
    }
  }
}

WorkRanges::Batch WorkRanges::Next(int t) {
  const std::lock_guard<std::mutex> lock(mutex_);
  Batch batch;
  if (fixed_) {
    while (next_[t] == end_[t]) {  // its range is done: its next one
      if (++fixed_at_[t] >= fixed_order_[t].size()) return batch;
      current_[t] = fixed_order_[t][fixed_at_[t]];
      next_[t] = made_[current_[t]].from;
      end_[t] = made_[current_[t]].to;
      batch.new_range = true;
      batch.range_end = end_[t];
    }
  } else if (next_[t] == end_[t]) {
    // Its range is done: the back half of what the other has left.
    const int other = 1 - t;
    const size_t left = end_[other] - next_[other];
    if (left < min_take_ || made_.size() >= max_ranges_) return batch;
    const size_t middle = Cut(next_[other] + left / 2, end_[other]);
    if (middle == end_[other]) return batch;
    next_[t] = middle;
    end_[t] = end_[other];
    end_[other] = middle;
    made_[current_[other]].to = middle;
    made_.push_back({middle, end_[t], t});
    current_[t] = made_.size() - 1;
    batch.new_range = true;
    batch.range_end = end_[t];
  }
  batch.from = next_[t];
  batch.to = Cut(next_[t] + batch_, end_[t]);
  next_[t] = batch.to;
  return batch;
}

void WorkRanges::Stop(int t) {
  const std::lock_guard<std::mutex> lock(mutex_);
  end_[t] = next_[t];
  made_[current_[t]].to = next_[t];  // what was handed out
}

size_t WorkRanges::ranges() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return made_.size();
}

std::vector<WorkRanges::Range> WorkRanges::Taken() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return made_;
}

}  // namespace rescfg
