#include "jobs/repeated_ids.h"

#include "jobs/resolved_jobs.h"
#include "util/joined_thread.h"
#include "util/name_map.h"

namespace rescfg {

namespace {
constexpr size_t kParallelIds = size_t(1) << 16;
}  // namespace

/// Open addressing over one array of (hash tag, entry index), so a
/// probe rarely reads an id; the slot of an entry a few places ahead is
/// prefetched, as the table is far larger than the caches.
template <typename IdAt>  // TextRef(size_t i): item i's id
std::vector<bool> RepeatedIdsOf(size_t n, IdAt id_at) {
  std::vector<uint64_t> hashes(n);
  // Hashing reads every entry once: for many, two threads share it.
  size_t half_ids[2] = {0, 0};
  SplitAcrossCores(n, kParallelIds, [&](size_t half, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (const TextRef id = id_at(i); id && !id->empty()) {
        hashes[i] = HashText(*id);
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
    const TextRef id_ref = id_at(i);
    if (!id_ref || id_ref->empty()) continue;
    const std::string_view id = *id_ref;
    const uint64_t tag = (hashes[i] >> 32) | 1;  // never 0
    for (size_t s = hashes[i] & mask;; s = (s + 1) & mask) {
      if (slots[s] == 0) {
        slots[s] = (tag << 32) | i;
        break;
      }
      if ((slots[s] >> 32) == tag && *id_at(static_cast<uint32_t>(slots[s])) == id) {
        repeated[i] = true;
        break;
      }
    }
  }
  return repeated;
}

std::vector<bool> RepeatedIds(const std::vector<JobEntry>& entries) {
  return RepeatedIdsOf(entries.size(), [&](size_t i) { return entries[i].id; });
}

std::vector<bool> RepeatedIds(const Outcomes& outcomes) {
  // A compact rejection has no id.
  return RepeatedIdsOf(outcomes.size(), [&](size_t i) { return outcomes.IsWhole(i) ? outcomes.Whole(i).id : TextRef(); });
}

}  // namespace rescfg
