#pragma once
/// What every export (rescfg(1), export) returns: the documents for the engine that
/// enforces a configuration, and what it could not express exactly.

#include <functional>
#include <string>
#include <vector>

#include "util/finding.h"

namespace rescfg {

class JsonWriter;

/// One point the engine cannot express as the configuration says: where in
/// the configuration it is, and what the export did instead.
struct ExportFinding {
  std::string path;     ///< configuration path, e.g. pools[H100].gpuFractions
  Mark mark;            ///< where that path is written, when known
  std::string message;  ///< what is lost or approximated, and how
  std::string hint;     ///< what to change so the export is faithful; may be empty
  std::string code;     ///< stable, kebab-case, e.g. mixed-queue; may be empty
  /// kError: the engine will refuse work rescfg does (a starved queue), not
  /// only approximate; still exit 1, since what is written is usable.
  Severity severity = Severity::kWarning;
};

struct ExportResult {
  std::string text;                    ///< the documents, ready to write
  std::vector<ExportFinding> findings; ///< empty: the export is faithful (exit 0)
  /// Set when the configuration cannot be exported at all (exit 2, nothing
  /// written): the reason, e.g. names that collide once made DNS-1123 labels.
  std::vector<Finding> errors;
  /// Members a target adds to the `--format json` object after "documents"
  /// (e.g. the documents as data); unset when it adds none.
  std::function<void(JsonWriter&)> json_members;
};

}  // namespace rescfg
