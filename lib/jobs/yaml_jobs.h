#pragma once
/// YAML jobs files (`kind: JobList`, rescfg(5), JOBS FILE), read as a stream of parser
/// events: only one job is built at a time, never a tree of the whole file.

#include <string_view>

#include "jobs/job.h"
#include "jobs/params.h"

namespace rescfg {

/// Appends the jobs of a JobList to `out->entries`, in file order. A YAML
/// syntax error, text that is not UTF-8, a wrong or missing kind or
/// apiVersion, or an unknown top-level key makes the whole file unusable
/// (`out->unusable`, findings, no entries). A job that is not a mapping, or
/// has a mistyped field, is an entry with `invalid` set.
///
/// Aliases are expanded (an alias to a job, a field value or a params
/// block works as if written out), but one alias may expand to at most
/// kMaxAliasNodes parse events, and all aliases of the file together to at
/// most kMaxAliasNodesTotal; past that the entry using it is invalid. An
/// alias in a place the reader ignores is never expanded. Merge keys (`<<`)
/// are not supported: a job using one is invalid, with a message saying so.
///
/// Files within the plain subset of YAML that job lists are written in are
/// read by the fast scanner (jobs/yaml_fast_scanner.h), everything else by
/// yaml-cpp; the result is the same either way.
void ReadYamlJobs(std::string_view text, const ParamQuery& query, LoadedJobs* out);

/// Which reader ReadYamlJobsUsing may use. Tests and the fuzzer read every
/// input both ways and compare.
enum class YamlReader { kFastWhenPossible, kYamlCppOnly };

/// ReadYamlJobs with a choice of reader; returns whether the fast scanner
/// read the file.
bool ReadYamlJobsUsing(std::string_view text, const ParamQuery& query, LoadedJobs* out, YamlReader reader);

inline constexpr unsigned long kMaxAliasNodes = 100'000;
inline constexpr unsigned long kMaxAliasNodesTotal = 10'000'000;

}  // namespace rescfg
