#pragma once
/// `--accept CODE[,CODE...]` of both exports (rescfg(1), export): finding codes an
/// administrator has reviewed. Accepted findings are still reported, as
/// notes, but no longer make the exit 1, so CI can gate on new ones only.
///
/// A code the target never reports is a command-line error (exit 2): a
/// misspelt code would otherwise accept nothing and keep failing without
/// saying why, or, worse, stay in a CI script after the code it meant was
/// renamed.

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "export/export_result.h"

namespace rescfg {

/// Every finding code `target` (clearml-agent, kueue) can report, sorted.
const std::vector<std::string_view>& ExportFindingCodes(std::string_view target);

/// The codes of `values` (each a comma-separated list; blanks around codes
/// and empty items are ignored). On a code `target` never reports, returns
/// false and sets `error` to a message naming it, with the closest code.
bool ParseAcceptedCodes(const std::vector<std::string>& values, std::string_view target, std::set<std::string>* codes,
                        std::string* error);

/// Whether `finding` is accepted: its code is listed.
inline bool IsAccepted(const ExportFinding& finding, const std::set<std::string>& accepted) {
  return !finding.code.empty() && accepted.count(finding.code) > 0;
}

}  // namespace rescfg
