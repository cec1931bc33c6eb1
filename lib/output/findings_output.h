#pragma once
/// Rendering the findings of `rescfg validate`: text (one line per finding,
/// like a compiler), json (one document for scripts) and github (workflow
/// annotations).

#include <string>
#include <vector>

#include "util/finding.h"

namespace rescfg {

enum class FindingsFormat { kText, kJson, kGithub };

/// The findings of one input file.
struct FileFindings {
  std::string file;
  std::vector<Finding> findings;
  bool unusable = false;  ///< unreadable, not YAML, not UTF-8

  int errors() const;
  int warnings() const;
  /// No errors, and with `strict` no warnings either.
  bool valid(bool strict) const;
};

/// The whole report as text; byte-identical for the same input.
std::string RenderFindings(const std::vector<FileFindings>& files, FindingsFormat format,
                           bool strict);

/// One line for standard error, e.g.
/// "3 files checked: 1 invalid, 1 unusable (3 errors, 1 warning)".
std::string SummarizeFindings(const std::vector<FileFindings>& files, bool strict);

}  // namespace rescfg
