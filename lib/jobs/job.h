#pragma once
/// One entry of a jobs file (SPEC §3), as written: nothing resolved against
/// a configuration yet. lib/jobs/resolve turns entries into scheduling input.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "finding.h"
#include "text_arena.h"
#include "text_ref.h"

namespace rescfg {

enum class JobsFormat { kYaml, kJsonLines };

/// The value found at one dynamic-parameter path of a job.
struct ParamValue {
  TextRef path;  ///< e.g. runtime.gpus_request
  TextRef text;  ///< scalar text; none: present but not a scalar
};

/// How a scalar field was written (the trace fields of SPEC §8 care: a
/// duration must be a number, not a string).
enum class ScalarStyle : uint8_t {
  kAbsent,     ///< not given (or null)
  kPlain,      ///< a plain YAML scalar or a JSON number
  kQuoted,     ///< a quoted YAML scalar or a JSON string
  kNotScalar,  ///< a mapping, a list, or a JSON boolean: no text kept
};

struct JobEntry {
  size_t entry = 0;  ///< 1-based position among the file's entries (blank JSONL lines not counted)
  Mark mark;         ///< where the entry starts
  /// Non-empty when the entry is malformed as a whole or a field is
  /// mistyped: the entry is rejected as invalid-job with this message.
  std::string invalid;
  // Text fields view the loaded file or its arena (JobsText): the entries
  // are valid while the LoadedJobs that made them (or a copy of its `text`)
  // lives.
  TextRef id, policy, profile, queue;
  TextRef state;      ///< as written; absent means queued
  TextRef pool;
  TextRef resources;  ///< scalar text of `resources`
  TextRef enqueued;   ///< scalar text of `enqueued`
  std::vector<ParamValue> params;  ///< only the paths asked for, when present
  // Trace fields (SPEC §8); other commands ignore them, whatever they hold.
  TextRef submitted;  ///< scalar text of `submitted`
  TextRef duration;   ///< scalar text of `duration`, a number's exactly as written
  ScalarStyle submitted_style = ScalarStyle::kAbsent;
  ScalarStyle duration_style = ScalarStyle::kAbsent;
};

/// What the entries' text points into: the file as read (JSON Lines strings
/// without escapes are viewed in place) and an arena for everything else.
struct JobsText {
  std::string source;
  TextArena arena;
};

struct LoadedJobs {
  std::string file;
  std::vector<JobEntry> entries;
  std::vector<Finding> findings;  ///< why the file is unusable, if it is
  bool unusable = false;          ///< unreadable, YAML syntax error, wrong kind (exit 2)
  std::shared_ptr<JobsText> text;  ///< keeps the entries' text alive
};

/// The arena of `jobs->text`, created on first use.
inline TextArena& JobsArena(LoadedJobs* jobs) {
  if (!jobs->text) jobs->text = std::make_shared<JobsText>();
  return jobs->text->arena;
}

}  // namespace rescfg
