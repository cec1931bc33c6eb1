#pragma once
/// One entry of a jobs file (SPEC §3), as written: nothing resolved against
/// a configuration yet. lib/jobs/resolve turns entries into scheduling input.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "finding.h"

namespace rescfg {

enum class JobsFormat { kYaml, kJsonLines };

/// The value found at one dynamic-parameter path of a job.
struct ParamValue {
  std::string path;                 ///< e.g. runtime.gpus_request
  std::optional<std::string> text;  ///< scalar text; nullopt: present but not a scalar
};

struct JobEntry {
  size_t entry = 0;  ///< 1-based position among the file's entries (blank JSONL lines not counted)
  Mark mark;         ///< where the entry starts
  /// Non-empty when the entry is malformed as a whole or a field is
  /// mistyped: the entry is rejected as invalid-job with this message.
  std::string invalid;
  std::optional<std::string> id, policy, profile, queue;
  std::optional<std::string> state;      ///< as written; absent means queued
  std::optional<std::string> pool;
  std::optional<std::string> resources;  ///< scalar text of `resources`
  std::optional<std::string> enqueued;   ///< scalar text of `enqueued`
  std::vector<ParamValue> params;        ///< only the paths asked for, when present
};

struct LoadedJobs {
  std::string file;
  std::vector<JobEntry> entries;
  std::vector<Finding> findings;  ///< why the file is unusable, if it is
  bool unusable = false;          ///< unreadable, YAML syntax error, wrong kind (exit 2)
};

}  // namespace rescfg
