#include "state/plan.h"

#include <simdjson.h>

#include "config/renames.h"
#include "util/json_writer.h"
#include "state/history.h"
#include "state/revision_check.h"
#include "state/state_store.h"
#include "util/digest.h"
#include "util/json_writer.h"

namespace rescfg {
namespace {

constexpr std::string_view kSignatureKey = "\n  \"signature\": \"";
/// The last member of the plans of earlier versions: a sha256 anyone can recompute.
constexpr std::string_view kOldChecksumKey = "\n  \"checksum\": \"";
constexpr std::string_view kEnd = "\"\n}\n";

/// Reads `key` of `object` as a string; false (with `error` naming the
/// field) when missing or not a string.
bool GetString(simdjson::dom::element object, const char* key, std::string* out, std::string* error) {
  std::string_view value;
  if (object[key].get_string().get(value)) {
    *error = std::string("field '") + key + "' is missing or not a string";
    return false;
  }
  *out = value;
  return true;
}

bool GetCount(simdjson::dom::element object, const char* key, long* out, std::string* error) {
  int64_t value = 0;
  if (object[key].get_int64().get(value) || value < 0) {
    *error = std::string("field '") + key + "' is missing or not a whole number >= 0";
    return false;
  }
  *out = static_cast<long>(value);
  return true;
}

/// "warnings": the plan's warnings, each as `rescfg validate --format json`
/// lists a finding.
void WriteWarnings(const std::vector<Finding>& warnings, JsonWriter& json) {
  json.Key("warnings").BeginArray();
  for (const Finding& f : warnings) {
    json.BeginObject().Field("code", f.code).Field("severity", SeverityName(f.severity)).Key("line");
    if (f.mark.line > 0) {
      json.Int(f.mark.line).Key("column").Int(f.mark.column);
    } else {
      json.Null().Key("column").Null();
    }
    json.Key("path");
    if (f.path.empty()) json.Null(); else json.String(f.path);
    json.Field("message", f.message).Key("hint");
    if (f.hint.empty()) json.Null(); else json.String(f.hint);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace

std::string RenderPlan(const Plan& plan, std::string_view key) {
  JsonWriter json(2);
  json.BeginObject()
      .Field("apiVersion", "rescfg/v1")
      .Field("kind", "Plan")
      .Field("created", plan.created)
      .Field("user", plan.user)
      .Field("file", plan.file)
      .Field("message", plan.message);
  json.Key("base").BeginObject().Field("revision", int64_t(plan.base_revision)).Key("sha256");
  if (plan.base_sha256.empty()) {
    json.Null();
  } else {
    json.String(plan.base_sha256);
  }
  json.EndObject();
  json.Field("revision", int64_t(plan.revision)).Field("upToDate", plan.up_to_date());
  json.Field("changes", int64_t(plan.changes)).Key("diff");
  WriteDiffJson(plan.diff, json);
  json.Field("diffText", plan.diff_text);
  WriteWarnings(plan.warnings, json);
  json.Key("config")
      .BeginObject()
      .Field("sha256", Sha256Hex(plan.canonical))
      .Field("sourceSha256", Sha256Hex(plan.source))
      .Field("canonical", plan.canonical)
      .Field("source", plan.source)
      .EndObject();
  json.EndObject();
  // The object ends "\n}": the signature becomes its last member.
  std::string body = json.str();
  body.resize(body.size() - 2);
  body += ",\n";
  return body + std::string(kSignatureKey.substr(1)) + HmacSha256Hex(key, body) + std::string(kEnd);
}

std::optional<Plan> ParsePlan(std::string_view text, std::string_view key, std::string* error) {
  const size_t at = text.rfind(kSignatureKey);
  const bool framed = at != std::string_view::npos && text.size() == at + kSignatureKey.size() + 64 + kEnd.size() &&
                      text.substr(text.size() - kEnd.size()) == kEnd;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const bool json = parser.parse(text.data(), text.size()).get(root) == simdjson::SUCCESS;
  std::string_view api, kind;
  if (!json || !root.is_object() || root["kind"].get_string().get(kind) || kind != "Plan" ||
      root["apiVersion"].get_string().get(api)) {
    *error = json ? "not a rescfg plan (no kind: Plan)" : "not a rescfg plan (not a JSON document)";
    return std::nullopt;
  }
  if (api != "rescfg/v1") {
    *error = "a plan of apiVersion '" + std::string(api) + "', not rescfg/v1";
    return std::nullopt;
  }
  if (!framed) {
    *error = text.rfind(kOldChecksumKey) != std::string_view::npos
                 ? "a plan of an earlier rescfg, without a signature; make a new plan"
                 : "damaged: its last member is not the signature line";
    return std::nullopt;
  }
  const std::string_view body = text.substr(0, at + 1);
  const std::string_view signature = text.substr(at + kSignatureKey.size(), 64);
  if (!DigestsEqual(HmacSha256Hex(key, body), signature)) {
    *error = "edited, damaged or made against another state directory: its signature does not match its content "
             "under this state's plan key";
    return std::nullopt;
  }
  Plan plan;
  simdjson::dom::element base, config, sha;
  std::string config_sha, source_sha;
  if (!GetString(root, "created", &plan.created, error) || !GetString(root, "user", &plan.user, error) ||
      !GetString(root, "file", &plan.file, error) || !GetString(root, "message", &plan.message, error) ||
      !GetCount(root, "revision", &plan.revision, error) || !GetCount(root, "changes", &plan.changes, error) ||
      !GetString(root, "diffText", &plan.diff_text, error)) {
    return std::nullopt;
  }
  if (root["base"].get(base) || !base.is_object() || !GetCount(base, "revision", &plan.base_revision, error) ||
      base["sha256"].get(sha)) {
    if (error->empty()) *error = "field 'base' is missing or incomplete";
    return std::nullopt;
  }
  std::string_view base_sha;
  if (!(sha.is_null() && plan.base_revision == 0) &&
      (sha.get_string().get(base_sha) || !IsSha256Hex(base_sha) || plan.base_revision == 0)) {
    *error = "field 'base.sha256' must be the sha256 of the base revision (null for revision 0)";
    return std::nullopt;
  }
  plan.base_sha256 = base_sha;
  if (plan.revision != plan.base_revision && plan.revision != plan.base_revision + 1) {
    *error = "field 'revision' must be the base revision or the next one";
    return std::nullopt;
  }
  if (root["config"].get(config) || !config.is_object() || !GetString(config, "sha256", &config_sha, error) ||
      !GetString(config, "sourceSha256", &source_sha, error) ||
      !GetString(config, "canonical", &plan.canonical, error) || !GetString(config, "source", &plan.source, error)) {
    if (error->empty()) *error = "field 'config' is missing";
    return std::nullopt;
  }
  if (Sha256Hex(plan.canonical) != config_sha || Sha256Hex(plan.source) != source_sha) {
    *error = "damaged: the configuration does not match its sha256";
    return std::nullopt;
  }
  return plan;
}

std::string PlanDisagreement(const Plan& plan, const PlannedChange& change) {
  const long revision = change.up_to_date ? change.base_revision : change.base_revision + 1;
  const auto changes = static_cast<long>(change.diff.changes.size());
  if (change.base_revision != plan.base_revision || change.base_sha256 != plan.base_sha256) {
    return "the plan's base is revision " + std::to_string(plan.base_revision) + ", the state's is revision " +
           std::to_string(change.base_revision);
  }
  if (revision != plan.revision) {
    return "the plan says it makes revision " + std::to_string(plan.revision) + ", its configuration makes revision " +
           std::to_string(revision);
  }
  if (changes != plan.changes) {
    return "the plan shows " + std::to_string(plan.changes) + " changes, its configuration makes " +
           std::to_string(changes);
  }
  if (RenderDiffText(change.diff) != plan.diff_text) return "the plan's diff is not the diff of its configuration";
  return "";
}

std::optional<PlannedChange> PlanChange(const StateStore* store, const Config& config, const std::string& canonical,
                                        std::string* error) {
  PlannedChange change;
  Config base;
  ApplyDefaults(base);
  std::optional<std::string> text;
  if (store && store->revision() > 0) {
    change.base_revision = store->revision();
    change.base_sha256 = store->revision_sha256();
    text = store->ReadRevision(change.base_revision, error);
    if (!text) return std::nullopt;  // damaged: corruption, never worked around
    // The base is only diffed: a stored revision that newer rules reject,
    // or that does not even load, never blocks provisioning its fix.
    std::string why;
    if (auto loaded = LoadStoredConfig(*text, "revision " + std::to_string(change.base_revision), false, &why)) {
      base = std::move(*loaded);
    } else {
      change.base_warning = why + "; the diff is against an empty configuration";
    }
  }
  // Onto nothing (no revision yet, or one that does not load), everything
  // is an addition.
  const bool from_nothing = !text || !change.base_warning.empty();
  change.diff = from_nothing ? DiffFromNothing(config) : DiffConfigs(base, config);
  if (!from_nothing) CheckRenamesKnown(base, config, "", &change.rename_findings);
  if (!from_nothing) change.base = base;
  // A new order of pools is no change that means anything.
  if (text && change.base_warning.empty()) change.up_to_date = *text == canonical || change.diff.empty();
  return change;
}

}  // namespace rescfg
