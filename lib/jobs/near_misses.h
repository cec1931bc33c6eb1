#pragma once
/// Params keys that nearly name an absent dynamic parameter
/// ("runtime.gpu_request" for "runtime.gpus_request"): one warning per key,
/// at its first entry, with how many entries hold it (rescfg(5), JOBS FILE). Counted
/// from the entries as they are resolved, so that a file read first and one
/// resolved as it is read, a jobs file and a ClearML snapshot, all say the same.

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "jobs/job.h"
#include "util/finding.h"

namespace rescfg {

class NearMisses {
 public:
  /// Counts the entry's params that nearly name a dynamic parameter.
  void Note(const JobEntry& entry) {
    for (const ParamValue& p : entry.params) {
      if (p.near_miss) NoteOne(p, entry.mark);
    }
  }
  /// Adds the counts of the entries after these.
  void Add(const NearMisses& later);
  /// One `param-near-miss` warning per key, in key order.
  void AppendWarnings(const std::string& file, std::vector<Finding>* findings) const;

 private:
  struct Seen {
    std::string path;
    Mark mark;  ///< of its first entry
    size_t count = 0;
  };
  void NoteOne(const ParamValue& param, Mark mark);
  std::map<std::string, Seen, std::less<>> seen_;
};

/// The warnings of a loaded file: from its resolution when it was resolved
/// as read, else from its entries.
void NearMissWarnings(LoadedJobs* jobs);

}  // namespace rescfg
