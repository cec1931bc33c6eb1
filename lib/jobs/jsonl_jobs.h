#pragma once
/// JSON Lines jobs files: one job object a line (SPEC §3, §5).

#include <cstddef>
#include <string_view>

#include "jobs/job.h"
#include "jobs/params.h"

namespace rescfg {

/// Readable bytes the JSON parser needs after the end of the text. A caller
/// that owns the buffer can provide them and save a copy of the whole text.
size_t JsonLinesPadding();

/// Appends one entry per non-blank line to `out->entries`, in file order. A
/// line that is not a JSON object becomes an entry with `invalid` set; it is
/// never fatal. When `padded`, at least JsonLinesPadding() readable bytes
/// follow `text` (their content does not matter).
void ReadJsonLinesJobs(std::string_view text, bool padded, const ParamQuery& query,
                       LoadedJobs* out);

}  // namespace rescfg
