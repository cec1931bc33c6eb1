#pragma once
/// A quick check of a value the reader skips: most skipped values (a ClearML
/// task's `hyperparams`, say) are plain JSON, and checking their text byte by
/// byte costs a fraction of walking them with the parser. What the quick
/// check is not sure of, the parser checks as before.

#include <simdjson.h>

#include "jobs/json_values.h"

namespace rescfg::json {

/// Where the value starting at `at` ends, when its text up to `end` is
/// surely one valid JSON value that Skip(value, depth) would accept: objects
/// and arrays at most 32 levels deep (and within kMaxDepth), strings without
/// escapes, numbers by the JSON grammar, true, false and null, the blanks
/// JSON allows. Null when not sure (the value may still be valid). Strings'
/// UTF-8 and control characters are stage 1's to check, as they are for Skip.
const char* QuickCheckedEnd(const char* at, const char* end, int depth);

/// Skip(value, depth), but an object or array that the quick check is sure
/// of is left unread: the parser steps over it unchecked when its parent
/// moves on. `end` is the end of the text the parser iterates. Not for a
/// document's root value (Skip reads it to its end).
error_code SkipQuick(od::value value, const char* end, int depth);

}  // namespace rescfg::json
