#include "jobs/jsonl_jobs.h"

#include <simdjson.h>

#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "jobs/job_fields.h"

namespace rescfg {

namespace {

namespace od = simdjson::ondemand;
using simdjson::error_code;

/// Deeper values are refused; the checks recurse once per level.
constexpr int kMaxDepth = 512;

/// Upper bound of the entries (memchr is much faster than a byte loop).
size_t CountLines(std::string_view text) {
  size_t lines = 1;
  for (const char *p = text.data(), *end = p + text.size();
       (p = static_cast<const char*>(std::memchr(p, '\n', end - p))) != nullptr; ++p) {
    ++lines;
  }
  return lines;
}

bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

std::string_view TrimTrailingSpace(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

/// JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool IsJsonNumber(std::string_view s) {
  size_t i = 0, n = s.size();
  auto digits = [&] {
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < n && s[i] == '-') ++i;
  if (i < n && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

std::string SyntaxMessage(error_code error) {
  switch (error) {
    case simdjson::UTF8_ERROR: return "not valid UTF-8 text";
    case simdjson::DEPTH_ERROR: return "not valid JSON: nested too deeply";
    case simdjson::UNCLOSED_STRING: return "not valid JSON: a string is not closed";
    case simdjson::STRING_ERROR: return "not valid JSON: bad string (escape or control character)";
    case simdjson::NUMBER_ERROR: return "not valid JSON: bad number";
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      return "not valid JSON: an object or array is not closed, or text follows the object";
    case simdjson::TRAILING_CONTENT: return "not valid JSON: text after the object";
    default: return "not valid JSON";
  }
}

class JsonLinesReader {
 public:
  JsonLinesReader(const ParamQuery& query, TextArena* arena) : query_(query), capture_(query), arena_(arena) {}

  /// `capacity`: readable bytes from `line` on (at least line size + padding).
  /// `in_place`: the line outlives the entries, so they may view it.
  void ReadLine(std::string_view line, size_t capacity, bool in_place, JobEntry& entry) { ReadLine(line, capacity, in_place, &entry); }
  void ReadLine(std::string_view line, size_t capacity, bool in_place, JobEntry* entry);
  KeyTypos& typos() { return typos_; }

 private:
  error_code ReadJob(od::object object, JobEntry* entry);
  error_code ReadField(std::string_view key, od::value value, JobEntry* entry);
  error_code ReadParam(od::value value, int node, JobEntry* entry, int depth);
  /// `submitted` or `duration`: a string or a number's text with its style.
  error_code ReadTraceField(JobField field, od::json_type type, od::value value, JobEntry* entry);
  /// Consumes a value the reader does not need, checking that it is valid JSON.
  error_code Skip(od::value value, int depth);
  /// The text of a number, checked against the JSON grammar.
  static error_code NumberText(od::value value, std::string_view* text);
  /// A string value's text where it lasts: in the line when it has no
  /// escapes (`raw` is its token), else copied into the arena.
  std::string_view Stable(std::string_view raw, std::string_view text) {
    raw = TrimTrailingSpace(raw);
    // Every escape is longer than what it stands for: same length, no escapes.
    if (in_place_ && raw.size() == text.size() + 2) return raw.substr(1, text.size());
    return arena_->Keep(text);
  }

  const ParamQuery& query_;
  ParamCapture capture_;
  TextArena* arena_;
  bool in_place_ = false;
  od::parser parser_;
  std::vector<std::string_view> keys_;
  KeyTypos typos_;
};

error_code JsonLinesReader::NumberText(od::value value, std::string_view* text) {
  *text = TrimTrailingSpace(value.raw_json_token());
  return IsJsonNumber(*text) ? simdjson::SUCCESS : simdjson::NUMBER_ERROR;
}

error_code JsonLinesReader::Skip(od::value value, int depth) {
  if (depth > kMaxDepth) return simdjson::DEPTH_ERROR;
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  switch (type) {
    case od::json_type::object: {
      od::object object;
      if (auto error = value.get_object().get(object)) return error;
      for (auto member : object) {
        od::field field;
        std::string_view key;
        if (auto error = std::move(member).get(field)) return error;
        if (auto error = field.unescaped_key().get(key)) return error;
        if (auto error = Skip(field.value(), depth + 1)) return error;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::array: {
      od::array array;
      if (auto error = value.get_array().get(array)) return error;
      for (auto element : array) {
        od::value item;
        if (auto error = element.get(item)) return error;
        if (auto error = Skip(item, depth + 1)) return error;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::string:
      return value.get_string().error();
    case od::json_type::number: {
      std::string_view text;
      return NumberText(value, &text);
    }
    case od::json_type::boolean:
      return value.get_bool().error();
    case od::json_type::null: {
      bool is_null = false;
      if (auto error = value.is_null().get(is_null)) return error;
      return is_null ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR;
    }
  }
  return simdjson::TAPE_ERROR;
}

error_code JsonLinesReader::ReadParam(od::value value, int node, JobEntry* entry, int depth) {
  if (depth > kMaxDepth) return simdjson::DEPTH_ERROR;
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  auto set = [&](ParamCapture::Kind kind, std::string_view text) {
    if (!capture_.Set(node, kind, text)) {
      AddProblem(entry, "duplicate key '" + std::string(capture_.KeyOf(node)) + "' in params");
    }
  };
  std::string_view text;
  switch (type) {
    case od::json_type::object: {
      set(ParamCapture::Kind::kMap, {});
      if (!query_.HasChildren(node)) return Skip(value, depth);
      od::object object;
      if (auto error = value.get_object().get(object)) return error;
      for (auto member : object) {
        od::field field;
        std::string_view key;
        if (auto error = std::move(member).get(field)) return error;
        if (auto error = field.unescaped_key().get(key)) return error;
        int child = query_.Child(node, key);
        auto error = child < 0 ? Skip(field.value(), depth + 1)
                               : ReadParam(field.value(), child, entry, depth + 1);
        if (error) return error;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::array:
      set(ParamCapture::Kind::kList, {});
      return Skip(value, depth);
    case od::json_type::string:
      if (auto error = value.get_string().get(text)) return error;
      set(ParamCapture::Kind::kScalar, text);
      return simdjson::SUCCESS;
    case od::json_type::number:
      if (auto error = NumberText(value, &text)) return error;
      set(ParamCapture::Kind::kScalar, text);
      return simdjson::SUCCESS;
    case od::json_type::boolean: {
      bool b = false;
      if (auto error = value.get_bool().get(b)) return error;
      set(ParamCapture::Kind::kScalar, b ? "true" : "false");
      return simdjson::SUCCESS;
    }
    case od::json_type::null:
      if (auto error = Skip(value, depth)) return error;
      set(ParamCapture::Kind::kNull, {});
      return simdjson::SUCCESS;
  }
  return simdjson::TAPE_ERROR;
}

error_code JsonLinesReader::ReadTraceField(JobField field, od::json_type type, od::value value, JobEntry* entry) {
  std::string_view text;
  if (type == od::json_type::string) {
    std::string_view raw = value.raw_json_token();
    if (auto error = value.get_string().get(text)) return error;
    *FieldSlot(entry, field) = Stable(raw, text);
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
    if (type == od::json_type::object) return ReadParam(value, ParamQuery::kParams, entry, 1);
  } else if (type == od::json_type::string) {
    std::string_view raw = value.raw_json_token();
    std::string_view text;
    if (auto error = value.get_string().get(text)) return error;
    *FieldSlot(entry, field) = Stable(raw, text);
    return simdjson::SUCCESS;
  } else if (type == od::json_type::number && field == JobField::kResources) {
    std::string_view text;
    if (auto error = NumberText(value, &text)) return error;
    entry->resources = in_place_ ? text : arena_->Keep(text);
    return simdjson::SUCCESS;
  }
  AddProblem(entry, MistypedFieldMessage(key, field, "an object"));
  return Skip(value, 1);
}

error_code JsonLinesReader::ReadJob(od::object object, JobEntry* entry) {
  keys_.clear();
  for (auto member : object) {
    od::field field;
    if (auto error = std::move(member).get(field)) return error;
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return error;
    keys_.push_back(key);
    if (auto error = ReadField(key, field.value(), entry)) return error;
  }
  if (auto duplicate = FindDuplicateKey(keys_)) {
    AddProblem(entry, "duplicate key '" + std::string(*duplicate) + "'");
  }
  return simdjson::SUCCESS;
}

void JsonLinesReader::ReadLine(std::string_view line, size_t capacity, bool in_place, JobEntry* entry) {
  in_place_ = in_place;
  auto prefix = [&] { return "line " + std::to_string(entry->mark.line) + ": "; };
  od::document doc;
  od::json_type type;
  error_code error = parser_.iterate(line.data(), line.size(), capacity).get(doc);
  if (!error) error = doc.type().get(type);
  if (!error && type != od::json_type::object) {
    entry->invalid = prefix() + "not a JSON object: " + Excerpt(line);
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
    JobEntry fresh;
    fresh.entry = entry->entry;
    fresh.mark = entry->mark;
    *entry = std::move(fresh);
    entry->invalid = prefix() + SyntaxMessage(error);
    return;
  }
  capture_.Collect(&entry->params, arena_);
}

/// Reads the lines of [begin, end) into `entries`, numbering lines from
/// `first_line` and entries from `first_entry` + 1. `limit` is the end of
/// the whole text: lines are parsed in place when the parser's padding fits
/// before it (the following lines provide it); the others are copied.
void ReadLines(const char* begin, const char* end, const char* limit, int first_line, size_t first_entry,
               JsonLinesReader& reader, std::vector<JobEntry>* entries) {
  constexpr size_t kPadding = simdjson::SIMDJSON_PADDING;
  std::string tail_copy;
  int line_number = first_line - 1;
  size_t entry_number = first_entry;
  for (const char* start = begin; start < end;) {
    ++line_number;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end - start));
    std::string_view line(start, (newline ? newline : end) - start);
    start = newline ? newline + 1 : end;
    if (IsBlank(line)) continue;
    JobEntry& entry = entries->emplace_back();
    entry.entry = ++entry_number;
    entry.mark = {line_number, 1};
    size_t capacity = static_cast<size_t>(limit - line.data());
    bool in_place = true;
    if (capacity < line.size() + kPadding) {
      tail_copy.assign(line);
      tail_copy.append(kPadding, ' ');
      line = std::string_view(tail_copy.data(), line.size());
      capacity = tail_copy.size();
      in_place = false;
    }
    reader.ReadLine(line, capacity, in_place, entry);
  }
}

}  // namespace

void ReadJsonLinesJobs(std::string_view text, const ParamQuery& query, LoadedJobs* out) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  const char* const end = text.data() + text.size();
  const size_t base = out->entries.size();
  TextArena& arena = JobsArena(out);
  out->entries.reserve(base + CountLines(text));
  // Large files are read by two threads, each half on its own; lines are
  // independent, so the entries are the same.
  constexpr size_t kParallelBytes = size_t(8) << 20;
  const char* middle = nullptr;
  if (text.size() >= kParallelBytes && std::thread::hardware_concurrency() > 1) {
    middle = static_cast<const char*>(std::memchr(text.data() + text.size() / 2, '\n', text.size() / 2));
    if (middle != nullptr) ++middle;  // the second half starts after a newline
    if (middle == end) middle = nullptr;
  }
  JsonLinesReader reader(query, &arena);
  if (middle == nullptr) {
    ReadLines(text.data(), end, end, 1, base, reader, &out->entries);
    reader.typos().AppendWarnings(out->file, &out->findings);
    return;
  }
  const std::string_view first(text.data(), static_cast<size_t>(middle - text.data()));
  const int first_lines = static_cast<int>(CountLines(first) - 1);  // `first` ends with a newline
  TextArena second_arena;
  std::vector<JobEntry> second;
  std::exception_ptr failure;
  KeyTypos second_typos;
  std::thread worker([&] {
    try {
      second.reserve(CountLines(std::string_view(middle, static_cast<size_t>(end - middle))));
      JsonLinesReader second_reader(query, &second_arena);
      ReadLines(middle, end, end, first_lines + 1, 0, second_reader, &second);
      second_typos = second_reader.typos();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  struct Join {
    std::thread& thread;
    ~Join() {
      if (thread.joinable()) thread.join();
    }
  } join{worker};
  ReadLines(text.data(), middle, end, 1, base, reader, &out->entries);
  worker.join();
  if (failure) std::rethrow_exception(failure);
  const size_t offset = out->entries.size();
  for (JobEntry& entry : second) {
    entry.entry += offset;
    out->entries.push_back(std::move(entry));
  }
  arena.Absorb(std::move(second_arena));
  reader.typos().Merge(second_typos);
  reader.typos().AppendWarnings(out->file, &out->findings);
}

}  // namespace rescfg
