#include "jobs/outcomes.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "schedule/problem.h"
#include "util/prefault.h"

namespace rescfg {

// Whole outcomes are moved as bytes and never destroyed one by one.
static_assert(std::is_trivially_copyable_v<OutcomeRecord> && std::is_trivially_destructible_v<OutcomeRecord>);
// Any amount fits OutcomeRecord's 64-bit ticks.
static_assert(Ticks(Quantity::kMaxUnits) * Quantity::kTicksPerUnit < Ticks(INT64_MAX));

namespace {

/// Whole outcomes' memory is populated this many records at a time as a
/// writer reaches it (about 4 MB: one request instead of a fault per page).
constexpr size_t kPopulateRecords = (size_t(4) << 20) / sizeof(OutcomeRecord);
/// Slots hold an index shifted by one bit.
constexpr size_t kMaxEntries = size_t(1) << 31;

}  // namespace

std::string PlaceText(uint32_t line, uint32_t column) {
  if (line == 0) return "";
  std::string out = "line " + std::to_string(line);
  if (column > 0) out += ", column " + std::to_string(column);
  return out + ": ";
}

std::string MessageOf(const JobOutcome& outcome) {
  if (!outcome.message_text) return "";
  return PlaceText(outcome.message_line, outcome.message_column) + std::string(*outcome.message_text);
}

const std::vector<std::string_view>& OutcomeReasons() {
  static const std::vector<std::string_view> kReasons = [] {
    std::vector<std::string_view> all = {""};
    all.insert(all.end(), RejectReasons().begin(), RejectReasons().end());
    for (auto r : {PendingReason::kPreempting, PendingReason::kDisabled, PendingReason::kPaused,
                   PendingReason::kUnschedulable, PendingReason::kFifoBlocked, PendingReason::kLimit,
                   PendingReason::kReservation, PendingReason::kFragmented, PendingReason::kCapacity}) {
      all.push_back(PendingReasonName(r));
    }
    return all;
  }();
  return kReasons;
}

uint8_t OutcomeReasonCode(std::string_view reason) {
  const auto& all = OutcomeReasons();
  const auto it = std::find(all.begin(), all.end(), reason);
  if (it == all.end()) throw std::logic_error("no such outcome reason: " + std::string(reason));
  return static_cast<uint8_t>(it - all.begin());
}

const std::vector<std::string_view>& RejectReasons() {
  static const std::vector<std::string_view> kReasons = {"invalid-job",     "duplicate-id",    "unknown-pool",
                                                          "unknown-queue",   "unknown-policy",  "unknown-profile",
                                                          "profile-not-allowed"};
  return kReasons;
}

template <typename T>
Outcomes::Records<T>::Records(const Records& other) {
  Grow(other.size);
  if (other.size > 0) std::memcpy(static_cast<void*>(data), other.data, other.size * sizeof(T));
  size = other.size;
}

template <typename T>
Outcomes::Records<T>::Records(Records&& other) noexcept
    : data(std::exchange(other.data, nullptr)),
      size(std::exchange(other.size, 0)),
      capacity(std::exchange(other.capacity, 0)) {}

template <typename T>
Outcomes::Records<T>& Outcomes::Records<T>::operator=(Records other) noexcept {
  std::swap(data, other.data);
  std::swap(size, other.size);
  std::swap(capacity, other.capacity);
  return *this;
}

template <typename T>
Outcomes::Records<T>::~Records() {
  if (data) ::operator delete(data, std::align_val_t(alignof(T)));
}

template <typename T>
void Outcomes::Records<T>::Grow(size_t to) {
  if (to <= capacity) return;
  // Large blocks come straight from the kernel: pages never written are never taken.
  T* grown = static_cast<T*>(::operator new(to * sizeof(T), std::align_val_t(alignof(T))));
  if (size > 0) std::memcpy(static_cast<void*>(grown), data, size * sizeof(T));
  if (data) ::operator delete(data, std::align_val_t(alignof(T)));
  data = grown;
  capacity = to;
}

template struct Outcomes::Records<OutcomeRecord>;
template struct Outcomes::Records<CompactRejection>;

void Outcomes::SetNames(const std::vector<std::string_view>& pools, const std::vector<std::string_view>& pool_queues,
                        const std::vector<std::vector<std::string_view>>& links,
                        const std::vector<std::vector<std::string_view>>& link_queues) {
  pools_.assign(pools.begin(), pools.end());
  routes_.assign(1, {});
  for (size_t p = 0; p < pools.size(); ++p) {
    routes_.emplace_back(pool_queues[p], TextRef());
    routes_.emplace_back(pool_queues[p], TextRef(""));
  }
  link_base_.clear();
  uint32_t base = 0;
  for (size_t f = 0; f < links.size(); ++f) {
    link_base_.push_back(base);
    base += static_cast<uint32_t>(links[f].size());
    for (size_t l = 0; l < links[f].size(); ++l) {
      routes_.emplace_back(link_queues[f][l], TextRef());
      routes_.emplace_back(link_queues[f][l], links[f][l]);
    }
  }
}

JobOutcome Outcomes::Make(uint32_t slot) const {
  if ((slot & 1) == 0) {
    const OutcomeRecord& r = whole_.data[slot >> 1];
    JobOutcome out;
    out.id = r.id;
    out.policy = r.policy;
    out.profile = r.profile;
    if (r.pool != 0) out.pool = pools_[r.pool - 1];
    out.queue = routes_[r.route].first;
    out.link = routes_[r.route].second;
    if (r.reason != 0) out.reason = OutcomeReasons()[r.reason];
    out.message_text = r.message_text;
    out.name = r.name;
    out.node = r.node;
    out.resources = r.resources();
    out.entry = r.entry;
    out.status = r.status;
    out.need_source = r.need_source;
    out.warning = r.warning;
    out.message_line = r.message_line;
    out.message_column = r.message_column;
    return out;
  }
  const CompactRejection& c = compact_.data[slot >> 1];
  JobOutcome out;
  out.entry = c.entry;
  out.status = JobStatus::kRejected;
  out.reason = RejectReasons()[c.reason];
  out.message_text = messages_[c.message];
  out.message_line = c.line;
  out.message_column = c.column;
  return out;
}

const JobOutcome Outcomes::operator[](size_t i) const { return Make(slots_[i]); }

const JobOutcome& Outcomes::Iterator::operator*() const { return store_->At(i_, &made_); }

void Outcomes::push_back(const OutcomeRecord& outcome) {
  if (slots_.size() + 1 >= kMaxEntries) throw std::length_error("more than 2^31 entries");
  if (whole_.size == whole_.capacity) whole_.Grow(std::max<size_t>(16, whole_.capacity * 2));
  new (whole_.data + whole_.size) OutcomeRecord(outcome);
  slots_.push_back(static_cast<uint32_t>(whole_.size << 1));
  ++whole_.size;
}

void Outcomes::Reserve(size_t room) {
  if (room >= kMaxEntries) throw std::length_error("more than 2^31 entries");
  whole_.Grow(room);
  compact_.Grow(room);
  slots_.resize(std::max(slots_.size(), room));
}

void Outcomes::Writer::Whole(size_t slot, const OutcomeRecord& outcome) {
  if (whole_next_ >= populated_) {
    // Whole records are written in order: their memory is populated a few
    // MB ahead, so a file of rejections populates none.
    const size_t until = std::min(store_->whole_.capacity, whole_next_ + kPopulateRecords);
    PrefaultHere(store_->whole_.data + whole_next_, (until - whole_next_) * sizeof(OutcomeRecord));
    populated_ = until;
  }
  new (store_->whole_.data + whole_next_) OutcomeRecord(outcome);
  store_->slots_[slot] = static_cast<uint32_t>(whole_next_ << 1);
  ++whole_next_;
}

bool Outcomes::Writer::Compact(size_t slot, uint32_t entry, uint32_t line, uint32_t column, std::string_view reason,
                               std::string_view message, TextArena* text) {
  const auto& reasons = RejectReasons();
  const auto known = std::find(reasons.begin(), reasons.end(), reason);
  if (known == reasons.end()) return false;
  auto it = message_index_.find(message);
  if (it == message_index_.end()) {
    const std::string_view kept = text->Keep(message);
    it = message_index_.emplace(kept, static_cast<uint32_t>(messages_.size())).first;
    messages_.push_back(kept);
  }
  new (store_->compact_.data + compact_next_)
      CompactRejection{entry, line, column, it->second, static_cast<uint8_t>(known - reasons.begin())};
  store_->slots_[slot] = static_cast<uint32_t>((compact_next_ << 1) | 1);
  ++compact_next_;
  return true;
}

void Outcomes::Join(std::vector<Written> ranges) {
  if (ranges.empty()) ranges.push_back({Writer(this, 0), 0});
  Writer& first = ranges.front().writer;
  // The texts: the first writer's, then those of each next one not among them.
  messages_ = std::move(first.messages_);
  std::unordered_map<std::string_view, uint32_t> index = std::move(first.message_index_);
  size_t whole_at = first.whole_next_ - first.first_, compact_at = first.compact_next_ - first.first_;
  size_t count_at = ranges.front().count;
  for (size_t r = 1; r < ranges.size(); ++r) {
    Writer& range = ranges[r].writer;
    const size_t count = ranges[r].count;
    std::vector<uint32_t> renumber(range.messages_.size());
    bool renumbered = false;
    for (size_t m = 0; m < range.messages_.size(); ++m) {
      auto it = index.find(*range.messages_[m]);
      if (it == index.end()) {
        it = index.emplace(*range.messages_[m], static_cast<uint32_t>(messages_.size())).first;
        messages_.push_back(range.messages_[m]);
      }
      renumber[m] = it->second;
      renumbered |= renumber[m] != m;
    }
    // The range's records move down after those before it (in place: no
    // more memory), renumbered.
    const size_t whole = range.whole_next_ - range.first_, compact = range.compact_next_ - range.first_;
    const auto gap = static_cast<uint32_t>(range.first_ - count_at);
    const size_t whole_shift = range.first_ - whole_at, compact_shift = range.first_ - compact_at;
    if (whole > 0 && whole_shift > 0) {
      std::memmove(static_cast<void*>(whole_.data + whole_at), whole_.data + range.first_, whole * sizeof(OutcomeRecord));
    }
    if (compact > 0 && compact_shift > 0) {
      std::memmove(static_cast<void*>(compact_.data + compact_at), compact_.data + range.first_,
                   compact * sizeof(CompactRejection));
    }
    for (size_t k = 0; gap > 0 && k < whole; ++k) whole_.data[whole_at + k].entry -= gap;
    for (size_t k = 0; (gap > 0 || renumbered) && k < compact; ++k) {
      CompactRejection& c = compact_.data[compact_at + k];
      c.entry -= gap;
      c.message = renumber[c.message];
    }
    // And so do its slots.
    for (size_t k = 0; k < count && (gap > 0 || whole_shift > 0 || compact_shift > 0); ++k) {
      const uint32_t slot = slots_[range.first_ + k];
      slots_[count_at + k] = (slot & 1) ? static_cast<uint32_t>(slot - (compact_shift << 1))
                                        : static_cast<uint32_t>(slot - (whole_shift << 1));
    }
    whole_at += whole;
    compact_at += compact;
    count_at += count;
  }
  whole_.size = whole_at;
  compact_.size = compact_at;
  slots_.resize(count_at);
}

}  // namespace rescfg
