#pragma once
/// JSON Lines jobs files: one job object a line (rescfg(5), JOBS FILE).

#include <string_view>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/json_lines.h"
#include "jobs/params.h"
#include "jobs/resolved_jobs.h"

namespace rescfg {

/// Appends one entry per non-blank line to `out->entries`, in file order. A
/// line that is not a JSON object becomes an entry with `invalid` set; it is
/// never fatal. Entries count non-blank lines; an entry's mark is its line.
/// The text is parsed in place (no copy of the file) and the entries view
/// it: it must outlive them (LoadJobsText keeps it in `out->text`).
/// `parts`, when given, are the text's (json::PrepareLines found them).
void ReadJsonLinesJobs(std::string_view text, const ParamQuery& query, LoadedJobs* out,
                       const json::LineParts* parts = nullptr);

/// Reads and resolves at once (ResolutionAsRead): the result of
/// ReadJsonLinesJobs and then ResolveJobs, without holding the entries;
/// `out` receives the findings and the arena of escaped text. Text whose
/// ids repeat is read twice.
ResolvedJobs ReadAndResolveJsonLines(std::string_view text, const ParamQuery& query, const Config& config,
                                     LoadedJobs* out, const json::LineParts* parts = nullptr);

}  // namespace rescfg
