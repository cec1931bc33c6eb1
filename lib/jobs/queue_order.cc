#include "jobs/queue_order.h"

#include <algorithm>

namespace rescfg {

OrderKey MakeOrderKey(const std::optional<Timestamp>& time, uint32_t rank, uint32_t queued) {
  if (rank > 0) return {rank, 0, queued};
  if (!time) return {~uint64_t(0), 0, queued};
  // Years 0000-9999 with any offset stay well within +-2^40 seconds; timed
  // keys start above every rank.
  return {uint64_t(time->seconds + (int64_t(1) << 40)) + (uint64_t(1) << 42), uint32_t(time->nanos), queued};
}

namespace {

/// A stable radix sort of keys listed in file order: digits where all keys
/// agree (most of them in a real snapshot) cost one counting pass only.
void RadixSort(std::vector<OrderKey>* keys) {
  // Few keys: a comparison sort is cheaper than six passes over the buckets.
  if (keys->size() < 4096) {
    std::stable_sort(keys->begin(), keys->end(), [](const OrderKey& a, const OrderKey& b) {
      return a.high != b.high ? a.high < b.high : a.low < b.low;
    });
    return;
  }
  constexpr int kBits = 16;
  constexpr size_t kBuckets = size_t(1) << kBits;
  auto digit = [](const OrderKey& k, int d) -> uint32_t {
    // Digits 0-1: nanoseconds; 2-5: the high word, least significant first.
    return d < 2 ? (k.low >> (kBits * d)) & (kBuckets - 1) : (k.high >> (kBits * (d - 2))) & (kBuckets - 1);
  };
  std::vector<OrderKey> buffer(keys->size());
  std::vector<uint32_t> count(kBuckets);
  for (int d = 0; d < 6; ++d) {
    std::fill(count.begin(), count.end(), 0);
    for (const OrderKey& k : *keys) ++count[digit(k, d)];
    if (keys->empty() || count[digit(keys->front(), d)] == keys->size()) continue;  // all agree
    uint32_t sum = 0;
    for (auto& c : count) {
      uint32_t n = c;
      c = sum;
      sum += n;
    }
    for (const OrderKey& k : *keys) buffer[count[digit(k, d)]++] = k;
    keys->swap(buffer);
  }
}

}  // namespace

void SortByQueueOrder(std::vector<OrderKey>* keys, const std::vector<std::string_view>& beyond) {
  RadixSort(keys);
  if (beyond.empty()) return;
  auto same_instant = [](const OrderKey& a, const OrderKey& b) { return a.high == b.high && a.low == b.low; };
  for (auto run = keys->begin(); run != keys->end();) {
    auto end = std::find_if(run, keys->end(), [&](const OrderKey& k) { return !same_instant(k, *run); });
    if (end - run > 1 && std::any_of(run, end, [&](const OrderKey& k) { return !beyond[k.queued].empty(); })) {
      std::stable_sort(run, end, [&](const OrderKey& a, const OrderKey& b) { return beyond[a.queued] < beyond[b.queued]; });
    }
    run = end;
  }
}

}  // namespace rescfg
