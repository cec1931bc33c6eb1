#pragma once
/// What the ClearML API's answers share (reference: clearml-api.md):
/// `{"meta": {...}, "data": {...}}` envelopes, references written as an ID
/// or as an expanded `{id, name}` object, and the findings of a companion
/// file (queues, workers) that is not what it should be.

#include <simdjson.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/file_text.h"
#include "util/finding.h"
#include "util/text_arena.h"

namespace rescfg::clearml {

namespace od = simdjson::ondemand;

/// A queue or task as a field refers to it. Empty when not given.
struct Ref {
  std::string_view id, name;
  bool empty() const { return id.empty() && name.empty(); }
};

/// Why a file is not what it should be, and where: a syntax error, or a
/// shape that does not match (`message`).
struct Problem {
  simdjson::error_code error = simdjson::SUCCESS;
  const char* at = nullptr;  ///< in the file's text; nullptr: unknown
  std::string message;
  const char* code = nullptr;  ///< the finding's code, when not the reader's default
  explicit operator bool() const { return error != simdjson::SUCCESS || !message.empty(); }
};

/// Reads an ID string or an `{id, name}` object (other keys ignored); null
/// leaves `ref` empty. Strings view the text when they have no escapes
/// (`in_place`), else are kept in `arena`. A value of another type, or an
/// object with neither, sets `shape` ("<what> must be ..."); a syntax error
/// is returned.
simdjson::error_code ReadRef(od::value value, std::string_view what, bool in_place, TextArena* arena, Ref* ref,
                             std::string* shape);

/// Where a syntax error is: simdjson's stage 1 gives no position, so the
/// text is walked again to find the string or bracket left open (or the
/// byte that is not UTF-8).
Mark LocateSyntaxError(std::string_view text, simdjson::error_code error, const char* hint);

/// The file's text with the padding simdjson needs after it.
struct PaddedText {
  FileText text;  ///< `size` bytes, then at least simdjson's padding
  size_t size = 0;
  size_t capacity = 0;  ///< readable bytes from the start
  std::string_view view() const { return std::string_view(text.data(), size); }
};
/// Appends the padding to a copy; a mapped file has it already.
PaddedText Pad(std::string text);
PaddedText Pad(FileText text);

/// Reads a companion file: the `data.<key>` list of a `<key>.get_all`
/// response or a bare JSON array, calling `item` with every element (which
/// must be an object) and where it starts. Returns false, with a finding
/// (json-syntax, error-response, bad-shape), when the file is not that or
/// `item` reports a problem.
bool ReadResponseList(const PaddedText& text, const std::string& file, std::string_view key,
                      const std::function<Problem(od::object, const char* at)>& item, std::vector<Finding>* findings);

/// Reads a `meta` object: when it says the call failed (result_code other
/// than 200), `response` says so ("the response is an error: result_code
/// 401 (Unauthorized)"). Returns a syntax error.
simdjson::error_code ErrorResponse(od::object meta, std::string* response);

}  // namespace rescfg::clearml
