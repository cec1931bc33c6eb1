#pragma once
/// The configuration's names as look-ups for resolving jobs (rescfg(5), JOBS FILE):
/// pools, profiles, policies, policy queues, pool and link queues, and
/// which profiles each policy lists.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "config/model.h"
#include "util/name_map.h"
#include "util/text_ref.h"

namespace rescfg {

/// The policy and profile a policy queue stands for.
struct QueueTarget {
  uint32_t policy, profile;
};

/// Built once per configuration and shared by the threads that resolve.
/// Keys view the configuration's own strings (queue names not written out
/// are kept in `default_queues`), so the configuration must outlive it.
struct JobDirectory {
  explicit JobDirectory(const Config& config);
  /// The profiles whose links use a pool or link queue (none for a pool
  /// queue that no link uses).
  const std::vector<uint32_t>& ProfilesServedBy(std::string_view queue) const {
    static const std::vector<uint32_t> kNone;
    const uint32_t* served = queue_profiles.find(queue);
    return served ? served_by[*served] : kNone;
  }
  template <typename V>
  static std::optional<V> Find(const NameMap<V>& map, TextRef name) {
    if (!name) return std::nullopt;
    const V* found = map.find(*name);
    if (found == nullptr) return std::nullopt;
    return *found;
  }
  bool Allowed(uint32_t policy, uint32_t profile) const {
    return allowed.empty() ? allowed_pairs.count(Pair(policy, profile)) > 0 : allowed[size_t(policy) * profile_count + profile];
  }
  static uint64_t Pair(uint32_t policy, uint32_t profile) { return (uint64_t(policy) << 32) | profile; }
  /// Above this many (policy, profile) pairs, the allowed ones are a set.
  static constexpr size_t kFlatPairs = size_t(1) << 24;
  static size_t FlatPairs(const Config& config) {
    const size_t pairs = config.policies.size() * config.profiles.size();
    return pairs <= kFlatPairs ? pairs : 0;
  }

  std::deque<std::string> default_queues;  ///< stable addresses for the views below
  NameMap<uint32_t> pools, profiles, policies;
  NameMap<QueueTarget> queues;
  size_t profile_count;
  std::vector<bool> allowed;  ///< per policy, per profile: whether the policy lists it (empty: see the set)
  std::unordered_set<uint64_t> allowed_pairs;  ///< Pair(policy, profile) for very large configurations
  NameMap<uint32_t> pool_queues;     ///< pool and link queues: their pool
  NameMap<uint32_t> queue_profiles;  ///< pool and link queues: index into served_by
  std::vector<std::vector<uint32_t>> served_by;
  /// Renames (rescfg(5), RENAMES): old names and old default queues that
  /// resolve to the renamed objects, and the note each gives a record.
  NameMap<uint32_t> renamed_notes;  ///< an old name or queue: index into `rename_notes`
  std::vector<std::string> rename_notes;
  /// What renamedFrom adds to the look-ups above (job_renames.cc).
  void AddRenames(const Config& config);
  /// "policy Dev is now Platform" for each old name the entry uses; "" when none.
  template <typename Entry>
  std::string RenameNote(const Entry& e) const {
    std::string note;
    if (renamed_notes.empty()) return note;
    for (TextRef name : {e.policy, e.profile, e.pool, e.queue}) {
      const uint32_t* at = name ? renamed_notes.find(*name) : nullptr;
      if (at && note.find(rename_notes[*at]) == std::string::npos) {
        note += (note.empty() ? "" : "; ") + rename_notes[*at];
      }
    }
    return note;
  }
};

}  // namespace rescfg
