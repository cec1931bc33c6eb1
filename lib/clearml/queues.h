#pragma once
/// `--clearml-queues FILE`: the queues of a ClearML server as
/// `queues.get_all` returns them (rescfg(5), JOBS FILE, ClearML task snapshots): their IDs and names, and the
/// order of the tasks waiting in each (`entries`).

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clearml/listing_map.h"
#include "clearml/packed_id.h"
#include "clearml/response.h"
#include "util/finding.h"
#include "util/name_map.h"
#include "util/text_key_map.h"
#include "util/text_arena.h"

namespace rescfg::clearml {

struct Queue {
  std::string_view id, name;
  uint32_t entries = 0;  ///< tasks listed in `entries`
};

class QueueList {
 public:
  QueueList() = default;
  QueueList(QueueList&&) = default;
  QueueList& operator=(QueueList&&) = default;

  std::string file;                ///< as shown in messages
  std::vector<Queue> queues;       ///< file order
  std::vector<Finding> findings;   ///< why the file is unusable, if it is
  bool unusable = false;

  /// The queue with this ID, or this name; nullptr when none.
  const Queue* FindById(std::string_view id) const;
  const Queue* FindByName(std::string_view name) const;
  /// Where `entries` list the task (its first listing).
  std::optional<Listing> ListingOf(std::string_view task) const { return ListingOf(task, HashText(task)); }
  /// The same, with the ID's hash (HashText) already computed.
  std::optional<Listing> ListingOf(std::string_view task, uint64_t hash) const;
  /// Every entry of every queue: the task ID and where it is listed, in
  /// queue order (a task listed twice is here twice).
  const std::vector<std::pair<std::string_view, Listing>>& entries() const { return entries_; }
  /// Start loading what ListingOf(task, hash) will read (the ID is in it).
  void PrefetchListing(uint64_t hash) const { by_task_[Part(hash)].Prefetch(InPart(hash)); }

  /// Builds what ListingOf looks up, once (ReadQueuesText does, unless told
  /// to leave it for later): two tables, one for each value of the hash's
  /// top bit, each built on a thread of its own when there are many entries.
  void IndexListings();
  /// The same in parts, for threads that each take a part when free: each
  /// of IndexPart(0) and IndexPart(1) called once (both at once if need be),
  /// then IndexListings(), which builds what is left and frees the rest.
  void IndexPart(size_t part);

 private:
  friend QueueList ReadQueuesText(PaddedText text, const std::string& file, bool index);
  /// Which table holds a hash, and the hash as that table sees it (the top
  /// bit, the same for all of its keys, shifted out: a table places a key
  /// by the high bits of its hash).
  static size_t Part(uint64_t hash) { return static_cast<size_t>(hash >> 63); }
  static uint64_t InPart(uint64_t hash) { return hash << 1; }
  std::unique_ptr<PaddedText> text_;  ///< what the names and IDs view
  std::unique_ptr<TextArena> arena_;  ///< unescaped strings
  /// By ID, looked up for every task: IDs kept in the slots, a line a look-up.
  TextKeyMap<uint32_t> by_id_;
  /// The same for IDs of ClearML's form, in less room: a table of queue
  /// numbers (number + 1, 0 when empty; 2 bytes a slot) and each queue's ID
  /// packed, side by side. Between two look-ups of one queue a thousand
  /// tasks' text streams through the caches: 64-byte slots (288 KB for
  /// 3 000 queues) are pushed out of them, these 64 KB mostly are not.
  /// Empty when there are 65 535 queues or more.
  std::vector<uint16_t> hex_slots_;
  std::vector<PackedId> hex_ids_;  ///< by queue number; zero for an ID of another form
  size_t hex_mask_ = 0;
  NameMap<uint32_t> by_name_;
  std::array<ListingMap, 2> by_task_;
  std::vector<std::pair<std::string_view, Listing>> entries_;
  std::vector<uint64_t> hashes_;  ///< HashText of each entry's task ID, until indexed
  std::array<bool, 2> part_indexed_{};
  bool indexed_ = false;
};

/// Parses a `queues.get_all` response (`data.queues`) or a JSON array of
/// queue objects. Each queue needs a string `id` and `name`; `entries`, when
/// present, is a list of `{task, added}` whose `task` is an ID or an
/// `{id, ...}` object. Two queues with the same ID or the same name make the
/// file unusable (names are unique on a ClearML server, and both directions
/// of the mapping are used). With `index` false, ListingOf answers only
/// after IndexListings().
QueueList ReadQueuesText(std::string text, const std::string& file);
QueueList ReadQueuesText(PaddedText text, const std::string& file, bool index = true);

/// Reads the file ("-" is standard input); unreadable: unusable.
QueueList ReadQueuesFile(const std::string& path, bool index = true);

}  // namespace rescfg::clearml
