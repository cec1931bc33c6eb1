#pragma once
/// The fields of a job entry, shared by the YAML and JSON Lines readers.
/// Unknown keys in a job are ignored: jobs are snapshots exported from
/// another system and carry whatever that system keeps.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/job.h"
#include "util/finding.h"

namespace rescfg {

enum class JobField : uint8_t {
  kId, kPolicy, kProfile, kQueue, kState, kPool, kNode,  // strings
  kResources,                                     // number or string
  kEnqueued,                                      // string
  kStarted,                                       // string
  kStopping,                                      // true | false
  kParams,                                        // mapping
  kSubmitted, kDuration,                          // trace fields: any value, its style kept
  kOther,                                         // ignored
};

JobField JobFieldOf(std::string_view key);

/// The member holding a scalar field; nullptr for kParams and kOther.
TextRef* FieldSlot(JobEntry* entry, JobField field);

/// Trace fields are never mistyped for the reader: any value is kept with
/// its style (a non-scalar as kNotScalar, without text), and the simulation
/// judges it.
inline bool IsTraceField(JobField field) { return field == JobField::kSubmitted || field == JobField::kDuration; }
/// The style member of a trace field.
ScalarStyle* StyleSlot(JobEntry* entry, JobField field);

/// "field 'policy' must be a string" and the like; `mapping` names the
/// mapping type in the file's own terms ("a mapping", "an object").
std::string MistypedFieldMessage(std::string_view key, JobField field, std::string_view mapping);

/// Adds a problem to the entry's `invalid` message ("; " between problems).
void AddProblem(JobEntry* entry, std::string_view problem);

/// Where a message about the entry is placed: its line, and the column
/// where one line holds many entries (a ClearML document) or where a reader
/// found its problem (a JSON syntax error). Line 0: nowhere.
struct EntryPlace {
  uint32_t line = 0, column = 0;
};
EntryPlace PlaceOf(const JobEntry& entry);
/// Its `invalid` as the outputs write it, after its place.
std::string PlacedProblem(const JobEntry& entry);

/// The start of a value for a message: at most 40 bytes, cut on a character
/// boundary, control characters shown as '?', "..." when cut.
std::string Excerpt(std::string_view text);

/// Keys of job entries that are unknown but close to a known field
/// (`stat`, `State`, `polcy`): probably typos that change what the entry
/// means (a `status: running` job would be scheduled again), so each such
/// key gets one warning with a did-you-mean, at its first line. Keys far
/// from every field are snapshot data and stay silent. Cheap per key: a
/// small cache remembers the verdict on recent distinct keys.
class KeyTypos {
 public:
  /// A key JobFieldOf() does not know, in an entry starting at `line`.
  /// Entries may be noted in any order of their lines (two threads share a
  /// file's lines as they go), an entry's keys in their order.
  void Note(std::string_view key, int line);
  /// Takes over `other`'s notes (of other entries).
  void Merge(const KeyTypos& other);
  /// One "unknown-job-key" warning per distinct close key, in the order of
  /// their first entries (and keys in an entry), each at its first line.
  void AppendWarnings(const std::string& file, std::vector<Finding>* findings) const;

 private:
  struct Typo {
    std::string key, field;
    int line = 0;      ///< its first entry's
    uint64_t seq = 0;  ///< when it was noted there: orders the keys of one entry
    size_t count = 0;
    /// Whether (line, seq) comes before where it was first seen so far.
    bool Earlier(int at, uint64_t when) const { return at < line || (at == line && when < seq); }
  };
  struct Recent {
    std::string key;
    int typo = -1;  ///< index into typos_, or -1: not close to any field
  };
  std::vector<Typo> typos_;
  Recent recent_[8];
  size_t next_recent_ = 0;
  uint64_t seq_ = 0;
};

/// Reports the first key given twice, if any (sorts a copy when there are many).
std::optional<std::string_view> FindDuplicateKey(const std::vector<std::string_view>& keys);

}  // namespace rescfg
