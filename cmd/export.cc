/// `rescfg export TARGET`: the documents an enforcing engine needs (rescfg(1), export).

#include <spdlog/spdlog.h>

#include <cstdio>
#include <set>

#include "commands.h"
#include "config_source.h"
#include "export/accept.h"
#include "export/clearml_agent.h"
#include "export/export_result.h"
#include "export/kueue.h"
#include "output_file.h"
#include "util/json_writer.h"

namespace rescfg::cmd {
namespace {

ExportResult Export(const ExportOptions& options, const Config& config, const std::string& label) {
  if (options.target == "clearml-agent") {
    return ExportClearmlAgent(config, {options.mode == "daemon" ? AgentMode::kDaemon : AgentMode::kK8sGlue,
                                       options.pools.empty() ? "" : options.pools.front(),
                                       options.chart == "open" ? AgentChart::kOpen : AgentChart::kEnterprise});
  }
  if (options.target == "kueue") return ExportKueue(config, label, {options.pools});
  ExportResult result;
  // Each target fills this in (lib/export/).
  result.errors.push_back({"unsupported", Severity::kError, "", {}, "", "export " + options.target + " is not built yet", ""});
  return result;
}

/// A finding on stderr: an error or a warning, or, when accepted, a note,
/// shown whenever warnings are (not under --quiet).
void LogExportFinding(const std::string& label, const ExportFinding& f, bool accepted) {
  std::string where = label + (f.mark.line > 0 ? ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column) : "");
  std::string text = where + ": " + (f.code.empty() ? "" : f.code + ": ") + f.path + ": " + f.message +
                     (f.hint.empty() ? "" : " (" + f.hint + ")");
  if (!accepted) {
    if (f.severity == Severity::kError) spdlog::error("{}", text); else spdlog::warn("{}", text);
    return;
  }
  auto logger = spdlog::default_logger();
  if (!logger->should_log(spdlog::level::warn)) return;
  logger->flush();
  std::fprintf(stderr, "rescfg: note: %s (accepted)\n", text.c_str());
}

}  // namespace

int RunExport(const ExportOptions& options) {
  if (options.target == "kueue" && options.mode != "k8s-glue") {
    spdlog::error("--mode applies to export clearml-agent, not kueue");
    return kExitUnusable;
  }
  if (options.target == "clearml-agent" && options.pools.size() > 1) {
    spdlog::error("export clearml-agent takes one --pool: each pool's agent gets its own documents");
    return kExitUnusable;
  }
  if (options.chart != "enterprise" && (options.target != "clearml-agent" || options.mode != "k8s-glue")) {
    spdlog::error("--chart applies to export clearml-agent --mode k8s-glue: it chooses the Helm chart the values are for");
    return kExitUnusable;
  }
  std::set<std::string> accepted;
  std::string accept_error;
  if (!ParseAcceptedCodes(options.accept, options.target, &accepted, &accept_error)) {
    spdlog::error("{}", accept_error);
    return kExitUnusable;
  }
  std::string label;
  auto config = LoadConfigFrom(options.config, &label);
  if (!config) return kExitUnusable;
  ExportResult result = Export(options, *config, label);
  if (!result.errors.empty()) {
    for (Finding& f : result.errors) {
      if (f.file.empty()) f.file = label;
    }
    LogFindings(result.errors);
    return kExitUnusable;
  }
  size_t open = 0;  // findings not accepted
  for (const ExportFinding& f : result.findings) {
    const bool ok = IsAccepted(f, accepted);
    open += ok ? 0 : 1;
    LogExportFinding(label, f, ok);
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
      json.Field("message", f.message).Field("hint", f.hint);
      json.Field("severity", f.severity == Severity::kError ? "error" : "warning").Field("accepted", IsAccepted(f, accepted));
      json.EndObject();
    }
    json.EndArray().EndObject();
    out = json.str() + "\n";
  }
  if (!WriteOutput(options.output, out)) return kExitUnusable;
  return open == 0 ? kExitOk : kExitFindings;
}

}  // namespace rescfg::cmd
