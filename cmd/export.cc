/// `rescfg export TARGET`: the documents an enforcing engine needs (SPEC §7).

#include <spdlog/spdlog.h>

#include "commands.h"
#include "config_source.h"
#include "export/clearml_agent.h"
#include "export/export.h"
#include "output/json_writer.h"
#include "output_file.h"

namespace rescfg::cmd {
namespace {

ExportResult Export(const ExportOptions& options, const Config& config) {
  if (options.target == "clearml-agent") {
    return ExportClearmlAgent(config, {options.mode == "daemon" ? AgentMode::kDaemon : AgentMode::kK8sGlue, options.pool});
  }
  ExportResult result;
  // Each target fills this in (lib/export/).
  result.errors.push_back({"unsupported", Severity::kError, "", {}, "", "export " + options.target + " is not built yet", ""});
  return result;
}

}  // namespace

int RunExport(const ExportOptions& options) {
  std::string label;
  auto config = LoadConfigFrom(options.config, &label);
  if (!config) return kExitUnusable;
  ExportResult result = Export(options, *config);
  if (!result.errors.empty()) {
    for (Finding& f : result.errors) {
      if (f.file.empty()) f.file = label;
    }
    LogFindings(result.errors);
    return kExitUnusable;
  }
  for (const ExportFinding& f : result.findings) {
    std::string where = label + (f.mark.line > 0 ? ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column) : "");
    spdlog::warn("{}: {}{}: {}{}", where, f.code.empty() ? "" : f.code + ": ", f.path, f.message,
                 f.hint.empty() ? "" : " (" + f.hint + ")");
  }
  std::string out = result.text;
  if (options.format == "json") {
    JsonWriter json(2);
    json.BeginObject().Field("kind", "Export").Field("target", options.target).Field("source", label);
    json.Field("documents", result.text);
    if (result.json_members) result.json_members(json);
    json.Key("findings").BeginArray();
    for (const ExportFinding& f : result.findings) {
      json.BeginObject().Field("code", f.code).Field("path", f.path);
      json.Key("line");
      if (f.mark.line > 0) json.Int(f.mark.line); else json.Null();
      json.Key("column");
      if (f.mark.column > 0) json.Int(f.mark.column); else json.Null();
      json.Field("message", f.message).Field("hint", f.hint).EndObject();
    }
    json.EndArray().EndObject();
    out = json.str() + "\n";
  }
  if (!WriteOutput(options.output, out)) return kExitUnusable;
  return result.findings.empty() ? kExitOk : kExitFindings;
}

}  // namespace rescfg::cmd
