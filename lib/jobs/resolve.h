#pragma once
/// Turns jobs-file entries into scheduling input (rescfg(5), JOBS FILE): needs, holdings,
/// queue order, and every rejection with its reason, first match.

#include <memory>
#include <optional>
#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/resolved_jobs.h"

namespace rescfg {

/// How many threads may resolve. Large inputs are resolved in two halves
/// at once; the result is the same as with one (the tests compare both).
enum class ResolveThreads { kAuto, kOne };

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries,
                         ResolveThreads threads = ResolveThreads::kAuto);

/// Resolution while reading: a reader hands over its entries a few at a
/// time and they are never all held (their memory, and a pass over it,
/// saved). Two threads may each resolve one half of the input at once:
/// half 0 the entries from the start, half 1 those from the input's
/// `second_from`th slot on (the first half's line count); each half's
/// entries come in file order and are numbered as if the first half had
/// filled its slots. A thread done with its half may take on a part of the
/// other's (AddPart): the parts are joined in the order of their slots.
///
/// A duplicate-id needs to know, before an entry is resolved, whether an
/// earlier entry has its id. A first reading assumes none; when Finish
/// finds one, it gives the repeated slots instead, and a second reading of
/// the same input with them (`repeated`) gives the result.
class ResolutionAsRead {
 public:
  /// `room`: at most this many entries in all; `repeated`: by slot, the
  /// entries whose id an earlier one has (empty: none known).
  ResolutionAsRead(const Config& config, size_t room, size_t second_from, std::vector<bool> repeated = {});
  ~ResolutionAsRead();
  ResolutionAsRead(const ResolutionAsRead&) = delete;
  ResolutionAsRead& operator=(const ResolutionAsRead&) = delete;

  /// At most this many parts (the two halves and those added).
  static constexpr size_t kMaxParts = 64;
  /// A further part: the entries from slot `from` on (at most `room`),
  /// resolved a batch at a time by thread `thread` (0 or 1), whose memo of
  /// queues it uses; its number. Either thread may add one while the other
  /// resolves, but no two parts of one thread are resolved at once.
  size_t AddPart(size_t from, size_t room, size_t thread);

  /// Resolves the next `count` entries of `part` (0 and 1: the halves,
  /// thread 0's and thread 1's).
  void Resolve(size_t part, const JobEntry* entries, size_t count);

  /// What ResolveJobs gives for the same entries in file order; none when
  /// this reading knew no repeated ids and an id repeats: `*repeated` then
  /// receives the slots to read again with.
  std::optional<ResolvedJobs> Finish(std::vector<bool>* repeated) &&;

 private:
  struct Part;
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rescfg
