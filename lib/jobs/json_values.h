#pragma once
/// JSON values of jobs inputs read with simdjson On-Demand, shared by the
/// JSON Lines reader and the ClearML task reader: skips that validate what
/// they pass over, number text checked against the JSON grammar, dynamic
/// parameters, messages for syntax errors, and the padding simdjson needs.

#include <simdjson.h>

#include <string>
#include <string_view>

#include "jobs/job.h"
#include "jobs/params.h"

namespace rescfg::json {

namespace od = simdjson::ondemand;
using simdjson::error_code;

/// Deeper values are refused; the checks recurse once per level.
inline constexpr int kMaxDepth = 512;

std::string_view TrimTrailingSpace(std::string_view s);

/// JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool IsJsonNumber(std::string_view s);

/// "not valid JSON: a string is not closed" and the like. Throws
/// std::bad_alloc for simdjson's allocation failure, which is none of the input's.
std::string SyntaxMessage(error_code error);

/// The 1-based column of a syntax error in one line of JSON: where the
/// parser stopped (`at`, when it knows), else found by a scan: the first
/// byte that is not UTF-8, the control character inside a string, the
/// opening quote of a string never closed, or just past the line's end
/// (something is not closed).
size_t ErrorColumn(std::string_view line, error_code error, const char* at);

/// One member of an object being iterated: its unescaped key (valid until
/// the next key is read) and its value.
inline error_code ReadMember(simdjson::simdjson_result<od::field> member, std::string_view* key, od::value* value) {
  od::field field;
  if (auto error = std::move(member).get(field)) return error;
  if (auto error = field.unescaped_key().get(*key)) return error;
  *value = field.value();
  return simdjson::SUCCESS;
}

/// Calls `visit(key, value)` for each member of the object `value`, in
/// order, and stops at the first error either reports.
template <class Visit>
error_code ForEachMember(od::value value, Visit&& visit) {
  od::object object;
  if (auto error = value.get_object().get(object)) return error;
  for (auto member : object) {
    std::string_view key;
    od::value field_value;
    if (auto error = ReadMember(std::move(member), &key, &field_value)) return error;
    if (auto error = visit(key, field_value)) return error;
  }
  return simdjson::SUCCESS;
}

/// Consumes a value the reader does not need, checking that it is valid JSON.
error_code Skip(od::value value, int depth);

/// Consumes a whole document, checking that it is valid JSON with nothing after it.
error_code SkipDocument(od::document& doc);

/// The text of a number, checked against the JSON grammar.
error_code NumberText(od::value value, std::string_view* text);

/// Reads the value found at node `node` of `query` (a `params` mapping or
/// something below it) into `capture`; a key given twice is a problem of
/// `entry`. Keys that no path needs are skipped (and validated).
error_code ReadParam(od::value value, const ParamQuery& query, ParamCapture& capture, int node, JobEntry* entry,
                     int depth);

/// A string value's text where it lasts: viewed in the parsed text when it
/// has no escapes and `in_place` (then it is not even unescaped: stage 1 has
/// checked it), else unescaped and copied into `arena`.
error_code StableString(od::value value, bool in_place, TextArena* arena, std::string_view* out);

/// A piece of text simdjson may parse: in place when SIMDJSON_PADDING
/// readable bytes follow it before `limit`, else a padded copy in `copy`.
struct ParseSpan {
  std::string_view text;
  size_t capacity = 0;    ///< readable bytes from text.data() on
  bool in_place = false;  ///< text views the original (so entries may view it)
};
ParseSpan PaddedSpan(std::string_view text, const char* limit, std::string* copy);

/// Lines (1-based) and columns of positions in a text, for messages: a line
/// feed, or a carriage return not followed by one, ends a line.
Mark MarkAt(std::string_view text, const char* at);

}  // namespace rescfg::json
