#include "jobs/jsonl_jobs.h"

#include <simdjson.h>

#include <string>
#include <utility>
#include <vector>

#include "jobs/job_fields.h"
#include "jobs/json_lines.h"
#include "jobs/json_values.h"

namespace rescfg {

namespace {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using json::NumberText;
using json::Skip;

class JsonLinesReader {
 public:
  JsonLinesReader(const ParamQuery& query, TextArena* arena) : query_(query), capture_(query), arena_(arena) {}

  void ReadLine(json::ParseSpan line, JobEntry* entry);
  KeyTypos& typos() { return typos_; }

 private:
  error_code ReadJob(od::object object, JobEntry* entry);
  error_code ReadField(std::string_view key, od::value value, JobEntry* entry);
  /// `submitted` or `duration`: a string or a number's text with its style.
  error_code ReadTraceField(JobField field, od::json_type type, od::value value, JobEntry* entry);

  const ParamQuery& query_;
  ParamCapture capture_;
  TextArena* arena_;
  bool in_place_ = false;
  od::parser parser_;
  std::vector<std::string_view> keys_;
  KeyTypos typos_;
};

error_code JsonLinesReader::ReadTraceField(JobField field, od::json_type type, od::value value, JobEntry* entry) {
  std::string_view text;
  if (type == od::json_type::string) {
    if (auto error = json::StableString(value, in_place_, arena_, &text)) return error;
    *FieldSlot(entry, field) = text;
    *StyleSlot(entry, field) = ScalarStyle::kQuoted;
    return simdjson::SUCCESS;
  }
  if (type == od::json_type::number) {
    if (auto error = NumberText(value, &text)) return error;
    *FieldSlot(entry, field) = in_place_ ? text : arena_->Keep(text);
    *StyleSlot(entry, field) = ScalarStyle::kPlain;
    return simdjson::SUCCESS;
  }
  *StyleSlot(entry, field) = ScalarStyle::kNotScalar;
  return Skip(value, 1);
}

error_code JsonLinesReader::ReadField(std::string_view key, od::value value, JobEntry* entry) {
  const JobField field = JobFieldOf(key);
  if (field == JobField::kOther) {
    typos_.Note(key, entry->mark.line);
    return Skip(value, 1);
  }
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::null) return Skip(value, 1);  // null counts as absent
  if (IsTraceField(field)) return ReadTraceField(field, type, value, entry);
  if (field == JobField::kParams) {
    if (type == od::json_type::object) return json::ReadParam(value, query_, capture_, ParamQuery::kParams, entry, 1);
  } else if (field == JobField::kStopping) {
    if (type == od::json_type::boolean) {
      bool stopping = false;
      if (auto error = value.get_bool().get(stopping)) return error;
      entry->stopping = stopping ? "true" : "false";
      return simdjson::SUCCESS;
    }
  } else if (type == od::json_type::string) {
    std::string_view text;
    if (auto error = json::StableString(value, in_place_, arena_, &text)) return error;
    *FieldSlot(entry, field) = text;
    return simdjson::SUCCESS;
  } else if (type == od::json_type::number && field == JobField::kResources) {
    std::string_view text;
    if (auto error = NumberText(value, &text)) return error;
    entry->resources = in_place_ ? text : arena_->Keep(text);
    return simdjson::SUCCESS;
  }
  if (field == JobField::kEnqueued) {
    entry->enqueued_mistyped = true;  // resolution decides: ignored on a running job
  } else if (field == JobField::kNode) {
    entry->node_mistyped = true;  // resolution decides: only a running job has a node
  } else {
    AddProblem(entry, MistypedFieldMessage(key, field, "an object"));
  }
  return Skip(value, 1);
}

error_code JsonLinesReader::ReadJob(od::object object, JobEntry* entry) {
  keys_.clear();
  for (auto member : object) {
    std::string_view key;
    od::value field_value;
    if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
    keys_.push_back(key);
    if (auto error = ReadField(key, field_value, entry)) return error;
  }
  if (auto duplicate = FindDuplicateKey(keys_)) {
    AddProblem(entry, "duplicate key '" + std::string(*duplicate) + "'");
  }
  return simdjson::SUCCESS;
}

void JsonLinesReader::ReadLine(json::ParseSpan line, JobEntry* entry) {
  in_place_ = line.in_place;
  od::document doc;
  od::json_type type;
  error_code error = parser_.iterate(line.text.data(), line.text.size(), line.capacity).get(doc);
  const bool iterated = !error;  // else `doc` is no document to ask where it stopped
  if (!error) error = doc.type().get(type);
  if (!error && type != od::json_type::object) {
    entry->invalid = "not a JSON object: " + Excerpt(line.text);
    return;
  }
  od::object object;
  if (!error) error = doc.get_object().get(object);
  capture_.Reset();
  if (!error) {
    try {  // results are checked before use, so this is only a safety net
      error = ReadJob(object, entry);
    } catch (const simdjson::simdjson_error& e) {
      error = e.error();
    }
  }
  // After the object only whitespace may follow.
  if (!error && !doc.current_location().error()) error = simdjson::TRAILING_CONTENT;
  if (error) {
    const char* at = nullptr;
    if (!iterated || doc.current_location().get(at)) at = nullptr;
    const size_t column = json::ErrorColumn(line.text, error, at);
    JobEntry fresh;
    fresh.entry = entry->entry;
    fresh.mark = {entry->mark.line, static_cast<int>(column)};
    *entry = std::move(fresh);
    entry->invalid = json::SyntaxMessage(error);
    entry->invalid_at_column = true;
    return;
  }
  capture_.Collect(&entry->params, arena_);
}

}  // namespace

namespace {

/// Key typos over all lines, as warnings of the file.
auto WarnTypos(LoadedJobs* out) {
  return [out](JsonLinesReader& first, JsonLinesReader* second) {
    if (second) first.typos().Merge(second->typos());
    first.typos().AppendWarnings(out->file, &out->findings);
  };
}

}  // namespace

void ReadJsonLinesJobs(std::string_view text, const ParamQuery& query, LoadedJobs* out, const json::LineParts* parts) {
  json::ReadEntryLines(
      text, out, [&](TextArena* arena) { return JsonLinesReader(query, arena); }, WarnTypos(out), parts);
}

ResolvedJobs ReadAndResolveJsonLines(std::string_view text, const ParamQuery& query, const Config& config,
                                     LoadedJobs* out, const json::LineParts* parts) {
  return json::ResolveEntryLines(
      text, out, [&](TextArena* arena) { return JsonLinesReader(query, arena); }, WarnTypos(out), config, parts);
}

}  // namespace rescfg
