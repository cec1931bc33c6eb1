#pragma once
/// One input entry's outcome (rescfg(5), SCHEDULE OUTPUT): what resolution and the
/// pass decide for it, as the outputs write it.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/quantity.h"
#include "util/text_ref.h"

namespace rescfg {

enum class JobStatus : uint8_t { kAssigned, kPending, kRejected, kRunning };
inline const char* JobStatusName(JobStatus s) {
  switch (s) {
    case JobStatus::kAssigned: return "assigned";
    case JobStatus::kPending: return "pending";
    case JobStatus::kRejected: return "rejected";
    case JobStatus::kRunning: return "running";
  }
  return "pending";
}

/// Where a job's need came from, in one byte: every outcome carries it.
/// Written as its name ("allotment", ...) and compares with it.
class NeedSource {
 public:
  enum Code : uint8_t {
    kNone,       ///< not decided (rejected)
    kAllotment,  ///< the profile's allotment
    kParameter,  ///< the dynamic parameter's value
    kFallback,   ///< the allotment: the parameter is there but no amount
    kHolding,    ///< a running job: what it holds
    kInvalid,    ///< the parameter is no amount and the profile rejects such jobs
  };
  constexpr NeedSource() = default;
  constexpr NeedSource(Code code) : code_(code) {}  // NOLINT: a code is a source
  std::string_view name() const { return kNames[code_]; }
  operator std::string_view() const { return name(); }  // NOLINT: written as its name
  friend bool operator==(NeedSource a, NeedSource b) { return a.code_ == b.code_; }
  friend bool operator==(NeedSource a, Code b) { return a.code_ == b; }
  friend bool operator==(NeedSource a, std::string_view b) { return a.name() == b; }
  friend bool operator==(NeedSource a, const char* b) { return a.name() == std::string_view(b); }

 private:
  static constexpr std::array<std::string_view, 6> kNames = {"", "allotment", "parameter", "fallback",
                                                              "holding", "invalid"};
  Code code_ = kNone;
};

/// One input entry's outcome. Fields follow the JSONL object of rescfg(5), SCHEDULE OUTPUT.
/// Text views the report's arena (names and messages are stored once and
/// shared) or static text: an outcome is valid while its report lives.
struct JobOutcome {
  TextRef id;                         ///< null for an entry with no usable id
  TextRef policy, profile;            ///< resolved names, or as given when rejected
  TextRef pool, queue;                ///< assigned and running
  TextRef link;                       ///< assigned: the link's name ("" if unnamed)
  TextRef reason;                     ///< pending and rejected (static text)
  /// Pending, rejected, running with a warning; without its place: a
  /// rejection's message starts with the line (and column) of its entry,
  /// which are kept apart so that one text serves many entries. Read it
  /// whole with MessageOf().
  TextRef message_text;
  TextRef name;                       ///< a ClearML task's name, carried to the outputs (rescfg(5), JOBS FILE, ClearML task snapshots)
  TextRef node;                       ///< running in a pool with nodes: the machine it names, if any
  std::optional<Quantity> resources;  ///< need (assigned, pending) or holding (running)
  uint32_t entry = 0;                 ///< 1-based entry number
  JobStatus status = JobStatus::kPending;
  NeedSource need_source;             ///< assigned, pending and running
  bool warning = false;               ///< running: its message is also a warning on stderr
  uint32_t message_line = 0;          ///< the message's place: "line N: " (0: none)
  uint32_t message_column = 0;        ///< and ", column C" after the line (0: none)
};

/// One outcome as the store keeps it (Outcomes): what JobOutcome says, with
/// its pool, queue and link as numbers into the configuration's names, its
/// reason as a number and its amount as ticks. Readers get a JobOutcome made
/// from it (Outcomes::operator[], At, the iterator): the text of the names
/// is only looked up as the outputs write them.
struct OutcomeRecord {
  TextRef id, policy, profile, message_text, name, node;  ///< as in JobOutcome
  /// The amount (JobOutcome::resources) in ticks, kNoResources when none: an
  /// amount is at most 10^6 GPUs, which 64 bits hold.
  int64_t resource_ticks = kNoResources;
  uint32_t entry = 0;
  uint32_t message_line = 0, message_column = 0;
  uint32_t pool = 0;   ///< 1 + its pool's index in the configuration; 0 when none
  uint32_t route = 0;  ///< its queue and link (Outcomes::PoolRoute, LinkRoute); 0 when none
  JobStatus status = JobStatus::kPending;
  NeedSource need_source;
  bool warning = false;
  uint8_t reason = 0;  ///< index in OutcomeReasons(); 0 when none

  static constexpr int64_t kNoResources = -1;
  void set_resources(std::optional<Quantity> amount) {
    resource_ticks = amount ? static_cast<int64_t>(amount->ticks()) : kNoResources;
  }
  std::optional<Quantity> resources() const {
    if (resource_ticks == kNoResources) return std::nullopt;
    return Quantity::FromTicks(resource_ticks);
  }
  /// Whether it has a message (with or without its place).
  bool has_message() const { return message_text.has_value(); }
};
// A million of them are held at once: keep them small (JobOutcome is 208 bytes).
static_assert(sizeof(OutcomeRecord) == 128);

/// Every reason an outcome can have: "" (none) first, then the rejections'
/// and the pending reasons (rescfg(5), SCHEDULE OUTPUT).
const std::vector<std::string_view>& OutcomeReasons();
/// `reason`'s index in OutcomeReasons(); throws std::logic_error for a text
/// that is none of them.
uint8_t OutcomeReasonCode(std::string_view reason);

/// "line 3: ", "line 3, column 7: ", or "" for line 0.
std::string PlaceText(uint32_t line, uint32_t column);

/// The outcome's message with its place ("line 3, column 7: ..."); empty
/// when it has none.
std::string MessageOf(const JobOutcome& outcome);
/// Whether it has one.
inline bool HasMessage(const JobOutcome& outcome) { return outcome.message_text.has_value(); }
/// Its message as text kept elsewhere when it has no place to add (most do
/// not: pending and running jobs' messages), so that writers copy nothing.
inline bool MessageIsText(const JobOutcome& outcome) { return outcome.message_line == 0; }

}  // namespace rescfg
