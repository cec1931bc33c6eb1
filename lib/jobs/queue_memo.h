#pragma once
/// The directory's answers about a queue name, remembered by the number its
/// reader gave the name's text (JobEntry::queue_key). A ClearML snapshot's
/// tasks name their queues through the few thousand texts its queues file
/// gives, each met by thousands of tasks, and a look-up by name costs a hash
/// and two cache misses (the map's slot, then the key's text kept elsewhere);
/// the answers by number are one slot of a small table, which a resolver
/// asks for a batch ahead (Prefetch): a large snapshot's text streamed
/// through the caches between two tasks of a queue pushes it out.

#include <cstdint>
#include <string_view>
#include <vector>

#include "jobs/job.h"
#include "jobs/job_directory.h"

namespace rescfg {

/// One per thread: it remembers as it answers. An answer is remembered with
/// the text it was given for (address and length) and used again only for
/// that text, so entries of different readers never mix up their numbers.
class QueueMemo {
 public:
  explicit QueueMemo(const JobDirectory& dir) : dir_(dir) {}

  /// The policy and profile of a policy queue; null for any other name.
  /// `key`: the reader's number for the text (0: none, not remembered).
  const QueueTarget* PolicyQueue(std::string_view name, uint32_t key = 0) {
    return key == 0 ? dir_.queues.find(name) : Of(name, key).policy_queue;
  }
  /// The pool of a pool or link queue; null for any other name.
  const uint32_t* PoolQueue(std::string_view name, uint32_t key = 0) {
    return key == 0 ? dir_.pool_queues.find(name) : Of(name, key).pool;
  }
  /// The number of an entry's queue text (`which` is its queue or listed_in).
  static uint32_t KeyOf(const JobEntry& e, TextRef which) {
    return which && e.queue && which->data() == e.queue->data() && which->size() == e.queue->size() ? e.queue_key : 0;
  }
  const JobDirectory& dir() const { return dir_; }
  /// Starts loading the answers for a key; a batch's misses overlap when
  /// asked for together. A prefetch never faults, so the address need not
  /// be in the table (GCC 12 dropped one behind `key != 0 && key < size`).
  void Prefetch(uint32_t key) const {
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(slots_.data()) + key * sizeof(Slot)));
  }

 private:
  struct Answers {
    const QueueTarget* policy_queue = nullptr;
    const uint32_t* pool = nullptr;
  };
  struct Slot {
    const char* data = nullptr;
    size_t size = 0;
    Answers answers;
  };

  /// The answers for a text with a key (not 0).
  const Answers& Of(std::string_view name, uint32_t key);

  const JobDirectory& dir_;
  std::vector<Slot> slots_;  ///< by key
};

}  // namespace rescfg
