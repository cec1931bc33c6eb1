#pragma once
/// Reading one input file under its ceiling (input_limits.h), with the
/// finding that says why it could not be read: the one place every reader
/// of a configuration, a jobs file or a ClearML companion goes through.

#include <optional>
#include <string>

#include "util/file_text.h"
#include "util/finding.h"

namespace rescfg {

/// Which ceiling applies, and which RESCFG_MAX_* variable raises it.
enum class InputKind { kConfig, kJobs, kQueues, kWorkers };

/// Reads `path` ("-" is standard input) under the ceiling of `kind`. On
/// failure returns nullopt and sets `*failure` (unreadable, or too large
/// with a hint naming the variable that raises the limit).
std::optional<std::string> ReadInputFile(const std::string& path, InputKind kind, Finding* failure);

/// The same, a large regular file mapped instead of copied (file_text.h):
/// for the inputs that can be hundreds of megabytes.
std::optional<FileText> ReadInputText(const std::string& path, InputKind kind, Finding* failure);

}  // namespace rescfg
