#pragma once
/// A ClearML task read off its text, without the parser: most tasks of a
/// snapshot are written the way the server writes them (plain keys and
/// strings, the few members rescfg reads, large sections it skips), and
/// reading those from their bytes costs a fraction of the parser's walk.
/// Whatever the reader is not sure of, the parser reads as before.

#include <cstdint>
#include <optional>
#include <string_view>

#include "jobs/params.h"

namespace rescfg::clearml {

/// The members of a task the reader tells apart; the others are skipped.
enum class TaskKey : uint8_t {
  kId, kName, kStatus, kStatusChanged, kExecution, kParamRoot, kStarted, kStatusMessage, kOther
};

TaskKey TaskKeyOf(std::string_view key);

/// The fields of a task read off its text: views of the text (strings
/// without escapes), absent when not given or null. Only what is given is
/// written: a task's fields are not cleared first, one task at a time.
class TaskText {
 public:
  enum Field : uint8_t {
    kId, kName, kStatus, kStatusChanged, kStarted, kStatusMessage,
    kQueue,  ///< `execution.queue` given as an ID
    kFields
  };
  std::optional<std::string_view> Get(Field field) const {
    if (!(given_ >> field & 1)) return std::nullopt;
    return std::string_view(data_[field], size_[field]);
  }
  void Set(Field field, std::string_view text) {
    given_ |= 1u << field;
    data_[field] = text.data();
    size_[field] = text.size();
  }

 private:
  uint32_t given_ = 0;  ///< a bit per field given; the others' views are never read
  const char* data_[kFields];
  size_t size_[kFields];
};

/// Reads the task object `text` when it is surely valid JSON that the parser
/// would read to the same entry: one object with nothing but spaces around
/// it, its keys and strings without escapes, no control character, valid
/// UTF-8, no key given twice; `id`, `name`, `status`, `status_changed`,
/// `started` and `status_message` strings or null; `execution` an object
/// (or null) whose `queue` is a string or null; the roots of `params`
/// (`hyperparams`, `configuration`, `runtime`) read into `capture` as the
/// parser reads them; any other value one the quick check is sure of
/// (QuickCheckedEnd). False for anything else, whatever `*out` and `capture`
/// then hold: the parser reads the task. `*out` is a fresh one.
bool ReadTaskText(std::string_view text, const ParamQuery& query, ParamCapture& capture, TaskText* out);

}  // namespace rescfg::clearml
