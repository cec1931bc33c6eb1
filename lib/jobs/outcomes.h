#pragma once
/// Every entry's outcome, in file order, at a few bytes each for the
/// entries a hostile file is made of. An outcome is kept whole (an
/// OutcomeRecord, read as a JobOutcome) unless it is a rejection that carries nothing of its entry
/// but where it is and why (no id, policy, profile or name: a line such as
/// "{}"); such a rejection is a 20-byte record whose message text is shared
/// with every other of the same text (rescfg(1), Memory). Each entry has a
/// 4-byte slot saying which.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "jobs/job_outcome.h"
#include "util/text_arena.h"

namespace rescfg {

/// A rejection kept without its JobOutcome.
struct CompactRejection {
  uint32_t entry = 0;          ///< 1-based entry number
  uint32_t line = 0, column = 0;  ///< its place (JobOutcome::message_line, message_column)
  uint32_t message = 0;        ///< index of its text among the store's messages
  uint8_t reason = 0;          ///< index in RejectReasons()
};

/// The reasons a compact rejection can have; others keep their outcome whole.
const std::vector<std::string_view>& RejectReasons();

class Outcomes {
 public:

  size_t size() const { return slots_.size(); }
  bool empty() const { return slots_.empty(); }
  /// Entry `i`'s outcome (0-based), whole. Const: changes go through Whole().
  const JobOutcome operator[](size_t i) const;
  /// Entry `i`'s outcome, made in `*scratch`.
  const JobOutcome& At(size_t i, JobOutcome* scratch) const { return *scratch = Make(slots_[i]); }
  /// Whether entry `i` is kept whole (every outcome but a compact rejection).
  bool IsWhole(size_t i) const { return (slots_[i] & 1) == 0; }
  /// Entry `i`'s record to read or change in place; it must be kept whole.
  OutcomeRecord& Whole(size_t i) { return whole_.data[slots_[i] >> 1]; }
  const OutcomeRecord& Whole(size_t i) const { return whole_.data[slots_[i] >> 1]; }
  void swap(Outcomes& other) noexcept { std::swap(*this, other); }
  /// Appends a whole outcome (its pool and route numbered as this store's names).
  void push_back(const OutcomeRecord& outcome);

  /// The configuration's names that records number: per pool its name and
  /// queue, per profile and link the link's name and queue. Set before any
  /// record with a pool or a route is written; the views must outlive the store.
  void SetNames(const std::vector<std::string_view>& pools, const std::vector<std::string_view>& pool_queues,
                const std::vector<std::vector<std::string_view>>& links,
                const std::vector<std::vector<std::string_view>>& link_queues);
  /// The same names as `other`'s.
  void ShareNames(const Outcomes& other) { pools_ = other.pools_, routes_ = other.routes_, link_base_ = other.link_base_; }
  /// OutcomeRecord::pool of pool `pool`.
  static uint32_t PoolNumber(size_t pool) { return static_cast<uint32_t>(pool + 1); }
  /// OutcomeRecord::route of the pool's own queue, with link "" or none.
  static uint32_t PoolRoute(size_t pool, bool with_link) { return static_cast<uint32_t>(1 + 2 * pool + with_link); }
  /// OutcomeRecord::route of a profile's link: its queue, with the link's name or none.
  uint32_t LinkRoute(size_t profile, size_t link, bool with_link) const {
    return static_cast<uint32_t>(1 + 2 * (pools_.size() + link_base_[profile] + link) + with_link);
  }
  /// Outcomes kept whole and compact, for the memory figures.
  size_t whole_count() const { return whole_.size; }
  size_t compact_count() const { return compact_.size; }

  /// Reads the outcomes in order; a compact one is made whole in the
  /// iterator, so a reference from it lasts until the iterator moves.
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = JobOutcome;
    using difference_type = std::ptrdiff_t;
    using pointer = const JobOutcome*;
    using reference = const JobOutcome&;
    Iterator(const Outcomes* store, size_t i) : store_(store), i_(i) {}
    const JobOutcome& operator*() const;
    const JobOutcome* operator->() const { return &**this; }
    Iterator& operator++() { ++i_; return *this; }
    Iterator operator++(int) { Iterator was = *this; ++i_; return was; }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.i_ == b.i_; }
   private:
    const Outcomes* store_;
    size_t i_;
    mutable JobOutcome made_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

  /// Writes the outcomes of a range of entries as they are resolved;
  /// writers may fill different ranges of one store at once. Each keeps its own
  /// message texts until Join.
  class Writer {
   public:
    /// Entries from slot `first` on; their records are kept from `first`
    /// on too, so two writers never meet.
    Writer(Outcomes* store, size_t first) : store_(store), first_(first), whole_next_(first), compact_next_(first) {}
    /// Keeps `outcome` whole as slot `slot`'s.
    void Whole(size_t slot, const OutcomeRecord& outcome);
    /// Keeps a rejection compact as slot `slot`'s when it can be (its reason
    /// is one of RejectReasons()); false when it cannot. `message` is
    /// kept in `text` the first time it is met.
    bool Compact(size_t slot, uint32_t entry, uint32_t line, uint32_t column, std::string_view reason,
                 std::string_view message, TextArena* text);
    /// The store's names, to number pools and routes by.
    const Outcomes& store() const { return *store_; }

   private:
    friend class Outcomes;
    Outcomes* store_;
    size_t first_, whole_next_, compact_next_;
    size_t populated_ = 0;  ///< whole records' memory populated up to this index
    std::vector<TextRef> messages_;
    std::unordered_map<std::string_view, uint32_t> message_index_;
  };

  /// Room for `room` entries; records take memory only as written.
  void Reserve(size_t room);
  /// A writer's range for Join: the writer and how many entries it wrote
  /// from its first slot on.
  struct Written {
    Writer writer;
    size_t count = 0;
  };
  /// Makes the store the outcomes of the ranges, in the order given (their
  /// first slots ascending, the first range's at slot 0): each range moves
  /// down after the one before it, its entries renumbered as many lower as
  /// the slots the ranges before it left over.
  void Join(std::vector<Written> ranges);

 private:
  /// Room for trivially copyable records, written in place: memory never
  /// written is never taken.
  template <typename T>
  struct Records {
    T* data = nullptr;
    size_t size = 0, capacity = 0;
    Records() = default;
    Records(const Records& other);
    Records(Records&& other) noexcept;
    Records& operator=(Records other) noexcept;
    ~Records();
    void Grow(size_t to);  ///< capacity at least `to`, the records kept
  };

  JobOutcome Make(uint32_t slot) const;

  std::vector<uint32_t> slots_;        ///< per entry: index << 1, | 1 when compact
  Records<OutcomeRecord> whole_;
  Records<CompactRejection> compact_;
  std::vector<TextRef> messages_;      ///< compact rejections' texts (kept in the report's arena)
  /// What records' numbers name (SetNames): pools by OutcomeRecord::pool - 1;
  /// (queue, link) by OutcomeRecord::route, none at 0; per profile, its
  /// first link's place among all links.
  std::vector<TextRef> pools_;
  std::vector<std::pair<TextRef, TextRef>> routes_ = {{}};
  std::vector<uint32_t> link_base_;
};

}  // namespace rescfg
