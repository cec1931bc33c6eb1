#include "output/findings_output.h"

#include "util/flat_record.h"

#include <algorithm>

#include "util/yaml_input.h"

namespace rescfg {
namespace {

int Count(const std::vector<Finding>& findings, Severity severity) {
  return static_cast<int>(std::count_if(findings.begin(), findings.end(),
                                        [&](const Finding& f) { return f.severity == severity; }));
}

std::string Plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// "path: message (hint)", the body shared by text and github.
std::string Body(const Finding& f) {
  std::string out = f.path.empty() ? f.message : f.path + ": " + f.message;
  if (!f.hint.empty()) out += " (" + f.hint + ")";
  return out;
}

void AppendText(std::string& out, const Finding& f) {
  out += f.file;
  if (f.mark.line > 0) out += ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column);
  out += std::string(": ") + SeverityName(f.severity) + "[" + f.code + "]: ";
  // One finding, one line: a message never breaks the line-per-finding rule.
  for (char c : Body(f)) out += (c == '\n' || c == '\r') ? ' ' : c;
  out += '\n';
}

void AppendJsonString(std::string& out, std::string_view s) { rescfg::AppendJsonString(&out, s); }

void AppendJsonField(std::string& out, const char* indent, const char* key, bool first = false) {
  if (!first) out += ",\n";
  out += indent;
  out += '"';
  out += key;
  out += "\": ";
}

void AppendJsonStringOrNull(std::string& out, const std::string& s) {
  if (s.empty()) out += "null"; else AppendJsonString(out, s);
}

std::string RenderJson(const std::vector<FileFindings>& files, bool strict) {
  bool all_valid = std::all_of(files.begin(), files.end(),
                               [&](const FileFindings& f) { return f.valid(strict); });
  std::string out = "{\n";
  AppendJsonField(out, "  ", "valid", true);
  out += all_valid ? "true" : "false";
  AppendJsonField(out, "  ", "strict");
  out += strict ? "true" : "false";
  AppendJsonField(out, "  ", "files");
  out += files.empty() ? "[]" : "[\n";
  for (size_t i = 0; i < files.size(); ++i) {
    const FileFindings& file = files[i];
    out += "    {\n";
    AppendJsonField(out, "      ", "file", true);
    AppendJsonString(out, file.file);
    AppendJsonField(out, "      ", "valid");
    out += file.valid(strict) ? "true" : "false";
    AppendJsonField(out, "      ", "unusable");
    out += file.unusable ? "true" : "false";
    AppendJsonField(out, "      ", "errors");
    out += std::to_string(file.errors());
    AppendJsonField(out, "      ", "warnings");
    out += std::to_string(file.warnings());
    AppendJsonField(out, "      ", "findings");
    out += file.findings.empty() ? "[]" : "[\n";
    for (size_t k = 0; k < file.findings.size(); ++k) {
      const Finding& f = file.findings[k];
      out += "        {";
      out += "\"code\": ";
      AppendJsonString(out, f.code);
      out += ", \"severity\": ";
      AppendJsonString(out, SeverityName(f.severity));
      out += ", \"line\": " + (f.mark.line > 0 ? std::to_string(f.mark.line) : "null");
      out += ", \"column\": " + (f.mark.line > 0 ? std::to_string(f.mark.column) : "null");
      out += ", \"path\": ";
      AppendJsonStringOrNull(out, f.path);
      out += ", \"message\": ";
      AppendJsonString(out, f.message);
      out += ", \"hint\": ";
      AppendJsonStringOrNull(out, f.hint);
      out += k + 1 < file.findings.size() ? "},\n" : "}\n";
    }
    if (!file.findings.empty()) out += "      ]";
    out += i + 1 < files.size() ? "\n    },\n" : "\n    }\n";
  }
  if (!files.empty()) out += "  ]";
  out += "\n}\n";
  return out;
}

/// GitHub workflow commands: '%', CR and LF are escaped everywhere, and
/// ':' and ',' too inside property values.
std::string GithubEscape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

void AppendGithub(std::string& out, const Finding& f) {
  out += f.severity == Severity::kError ? "::error " : "::warning ";
  out += "file=" + GithubEscape(f.file, true);
  if (f.mark.line > 0) {
    out += ",line=" + std::to_string(f.mark.line) + ",col=" + std::to_string(f.mark.column);
  }
  out += ",title=" + GithubEscape(f.code, true) + "::" + GithubEscape(Body(f), false) + "\n";
}

}  // namespace

int FileFindings::errors() const { return Count(findings, Severity::kError); }
int FileFindings::warnings() const { return Count(findings, Severity::kWarning); }
bool FileFindings::valid(bool strict) const {
  return !unusable && errors() == 0 && (!strict || warnings() == 0);
}

std::string RenderFindings(const std::vector<FileFindings>& files, FindingsFormat format,
                           bool strict) {
  if (format == FindingsFormat::kJson) return RenderJson(files, strict);
  std::string out;
  for (const auto& file : files) {
    for (const auto& f : file.findings) {
      if (format == FindingsFormat::kGithub) AppendGithub(out, f); else AppendText(out, f);
    }
  }
  return out;
}

std::string SummarizeFindings(const std::vector<FileFindings>& files, bool strict) {
  int invalid = 0, unusable = 0, errors = 0, warnings = 0;
  for (const auto& file : files) {
    if (file.unusable) {
      ++unusable;
    } else if (!file.valid(strict)) {
      ++invalid;
    }
    errors += file.errors();
    warnings += file.warnings();
  }
  std::string out = Plural(static_cast<int>(files.size()), "file") + " checked: ";
  if (invalid == 0 && unusable == 0) out += "all valid";
  if (invalid > 0) out += std::to_string(invalid) + " invalid";
  if (unusable > 0) out += std::string(invalid > 0 ? ", " : "") + std::to_string(unusable) + " unusable";
  out += " (" + Plural(errors, "error") + ", " + Plural(warnings, "warning") + ")";
  if (strict && warnings > 0 && errors == 0) out += "; warnings fail with --strict";
  return out;
}

}  // namespace rescfg
