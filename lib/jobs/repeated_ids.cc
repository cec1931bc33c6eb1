#include "jobs/repeated_ids.h"

#include "jobs/name_map.h"
#include "jobs/resolved_jobs.h"
#include "joined_thread.h"

namespace rescfg {

namespace {
constexpr size_t kParallelIds = size_t(1) << 16;
}  // namespace

/// Open addressing over one array of (hash tag, entry index), so a
/// probe rarely reads an id; the slot of an entry a few places ahead is
/// prefetched, as the table is far larger than the caches.
template <typename Item>
std::vector<bool> RepeatedIds(const std::vector<Item>& entries) {
  const size_t n = entries.size();
  std::vector<uint64_t> hashes(n);
  // Hashing reads every entry once: for many, two threads share it.
  size_t half_ids[2] = {0, 0};
  SplitAcrossCores(n, kParallelIds, [&](size_t half, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (entries[i].id && !entries[i].id->empty()) {
        hashes[i] = HashText(*entries[i].id);
        ++half_ids[half];
      }
    }
  });
  const size_t ids = half_ids[0] + half_ids[1];
  size_t capacity = 16;
  while (capacity < 2 * ids) capacity *= 2;
  const size_t mask = capacity - 1;
  std::vector<uint64_t> slots(capacity);  // 0: empty
  std::vector<bool> repeated(n);
  constexpr size_t kAhead = 16;
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(&slots[hashes[i + kAhead] & mask]);
    if (!entries[i].id || entries[i].id->empty()) continue;
    const std::string_view id = *entries[i].id;
    const uint64_t tag = (hashes[i] >> 32) | 1;  // never 0
    for (size_t s = hashes[i] & mask;; s = (s + 1) & mask) {
      if (slots[s] == 0) {
        slots[s] = (tag << 32) | i;
        break;
      }
      if ((slots[s] >> 32) == tag && *entries[static_cast<uint32_t>(slots[s])].id == id) {
        repeated[i] = true;
        break;
      }
    }
  }
  return repeated;
}

template std::vector<bool> RepeatedIds(const std::vector<JobEntry>&);
template std::vector<bool> RepeatedIds(const std::vector<JobOutcome>&);

}  // namespace rescfg
