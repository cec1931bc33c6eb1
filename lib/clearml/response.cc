#include "clearml/response.h"

#include "clearml/json_scan.h"
#include "jobs/job_fields.h"
#include "jobs/json_values.h"
#include "util/file_io.h"
#include "util/yaml_input.h"

namespace rescfg::clearml {

using simdjson::error_code;

simdjson::error_code ReadRef(od::value value, std::string_view what, bool in_place, TextArena* arena, Ref* ref,
                             std::string* shape) {
  *ref = {};
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  auto string_of = [&](od::value v, std::string_view* out) { return json::StableString(v, in_place, arena, out); };
  switch (type) {
    case od::json_type::null:
      return json::Skip(value, 1);
    case od::json_type::string:
      return string_of(value, &ref->id);
    case od::json_type::object: {
      auto member = [&](std::string_view key, od::value v) -> error_code {
        const bool id = key == "id";
        if (!id && key != "name") return json::Skip(v, 2);
        if (auto error = v.type().get(type)) return error;
        if (type == od::json_type::string) return string_of(v, id ? &ref->id : &ref->name);
        if (type != od::json_type::null && shape->empty()) {
          *shape = std::string(what) + "." + std::string(key) + " must be a string";
        }
        return json::Skip(v, 2);
      };
      if (auto error = json::ForEachMember(value, member)) return error;
      if (ref->empty() && shape->empty()) *shape = std::string(what) + " has neither an id nor a name";
      return simdjson::SUCCESS;
    }
    default:
      *shape = std::string(what) + " must be an ID or an object with id and name";
      return json::Skip(value, 1);
  }
}

Mark LocateSyntaxError(std::string_view text, simdjson::error_code error, const char* hint) {
  Mark mark{1, 1};
  if (error == simdjson::UTF8_ERROR && !IsValidUtf8(text, &mark)) return mark;
  if (hint != nullptr && hint >= text.data() && hint <= text.data() + text.size()) return json::MarkAt(text, hint);
  JsonScanner scan(text);
  scan.SkipSpace();
  std::string_view value;
  if (scan.SkipValue(&value)) scan.SkipSpace();
  return scan.Here();
}

PaddedText Pad(std::string text) {
  static_assert(simdjson::SIMDJSON_PADDING <= kReadSlack, "a file as read has room for the padding");
  PaddedText padded;
  padded.size = text.size();
  text.append(simdjson::SIMDJSON_PADDING, ' ');
  padded.capacity = text.size();
  padded.text = FileText(std::move(text));
  return padded;
}

PaddedText Pad(FileText text) {
  if (std::string* copy = text.owned()) return Pad(std::move(*copy));
  PaddedText padded;
  padded.size = text.size();
  padded.capacity = text.size() + kReadSlack;
  padded.text = std::move(text);
  return padded;
}

simdjson::error_code ErrorResponse(od::object object, std::string* response) {
  int64_t code = 200;
  std::string message;
  for (auto member : object) {
    std::string_view key;
    od::value value;
    if (auto error = json::ReadMember(std::move(member), &key, &value)) return error;
    od::json_type type;
    if (auto error = value.type().get(type)) return error;
    if (key == "result_code" && type == od::json_type::number) {
      if (value.get_int64().get(code)) code = 0;  // not a whole number: not 200 either
      continue;
    }
    if (key == "result_msg" && type == od::json_type::string) {
      std::string_view text;
      if (auto error = value.get_string().get(text)) return error;
      message = Excerpt(text.substr(0, 200));
      continue;
    }
    if (auto error = json::Skip(value, 2)) return error;
  }
  if (code != 200) {
    *response = "the response is an error: result_code " + std::to_string(code) +
                (message.empty() ? "" : " (" + message + ")");
  }
  return simdjson::SUCCESS;
}

namespace {

class ListReader {
 public:
  ListReader(const PaddedText& text, const std::string& file, std::string_view key,
             const std::function<Problem(od::object, const char*)>& item, std::vector<Finding>* findings)
      : text_(text), file_(file), key_(key), item_(item), findings_(findings) {}

  bool Read();

 private:
  bool Report(const char* code, const Problem& p);
  error_code Items(od::array array, Problem* problem);
  /// The `data` object of a response: finds the list under key_.
  error_code Data(od::value data, Problem* problem);

  const PaddedText& text_;
  const std::string& file_;
  std::string_view key_;
  const std::function<Problem(od::object, const char*)>& item_;
  std::vector<Finding>* findings_;
  bool found_ = false;
};

bool ListReader::Report(const char* code, const Problem& p) {
  const bool syntax = p.error != simdjson::SUCCESS;
  Mark mark = syntax ? LocateSyntaxError(text_.view(), p.error, p.at)
                     : (p.at ? json::MarkAt(text_.view(), p.at) : Mark{1, 1});
  findings_->push_back({syntax ? "json-syntax" : code, Severity::kError, file_, mark, "",
                        syntax ? json::SyntaxMessage(p.error) : p.message, ""});
  return false;
}

error_code ListReader::Items(od::array array, Problem* problem) {
  found_ = true;
  for (auto element : array) {
    od::value item;
    if (auto error = element.get(item)) return error;
    const char* at = item.raw_json_token().data();
    od::json_type type;
    if (auto error = item.type().get(type)) return error;
    if (type != od::json_type::object) {
      *problem = {simdjson::SUCCESS, at, "an element of the " + std::string(key_) + " list is not an object"};
      return simdjson::SUCCESS;
    }
    od::object object;
    if (auto error = item.get_object().get(object)) return error;
    *problem = item_(object, at);
    if (*problem) return simdjson::SUCCESS;
  }
  return simdjson::SUCCESS;
}

error_code ListReader::Data(od::value data, Problem* problem) {
  od::object object;
  if (data.get_object().get(object)) {
    *problem = {simdjson::SUCCESS, data.raw_json_token().data(), "data must be an object"};
    return simdjson::SUCCESS;
  }
  for (auto member : object) {
    std::string_view key;
    od::value field_value;
    if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
    if (key == key_ && found_) {
      *problem = {simdjson::SUCCESS, field_value.raw_json_token().data(),
                  "the response gives 'data." + std::string(key_) + "' twice; readers disagree on which counts",
                  "duplicate-key"};
      return simdjson::SUCCESS;
    }
    if (key != key_) {
      if (auto error = json::Skip(field_value, 2)) return error;
      continue;
    }
    od::value list = field_value;
    od::array array;
    if (list.get_array().get(array)) {
      *problem = {simdjson::SUCCESS, list.raw_json_token().data(), "data." + std::string(key_) + " must be a list"};
      return simdjson::SUCCESS;
    }
    if (auto error = Items(array, problem)) return error;
    if (*problem) return simdjson::SUCCESS;
  }
  return simdjson::SUCCESS;
}

bool ListReader::Read() {
  od::parser parser;
  od::document doc;
  bool iterated = false;
  Problem problem;
  std::string error_response;
  auto read = [&]() -> error_code {
    if (auto error = parser.iterate(text_.text.data(), text_.size, text_.capacity).get(doc)) return error;
    iterated = true;
    od::json_type type;
    if (auto error = doc.type().get(type)) return error;
    if (type == od::json_type::array) {
      od::array array;
      if (auto error = doc.get_array().get(array)) return error;
      if (auto error = Items(array, &problem)) return error;
      if (problem) return simdjson::SUCCESS;
    } else if (type == od::json_type::object) {
      od::object object;
      if (auto error = doc.get_object().get(object)) return error;
      bool data = false, meta = false;
      for (auto member : object) {
        std::string_view key;
        od::value field_value;
        if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
        if ((key == "data" && data) || (key == "meta" && meta)) {
          problem = {simdjson::SUCCESS, field_value.raw_json_token().data(),
                     "the response gives '" + std::string(key) + "' twice; readers disagree on which counts",
                     "duplicate-key"};
          return simdjson::SUCCESS;
        }
        data = data || key == "data";
        meta = meta || key == "meta";
        if (key == "data") {
          if (auto error = Data(field_value, &problem)) return error;
          if (problem) return simdjson::SUCCESS;
        } else if (key == "meta" && error_response.empty()) {
          od::value meta = field_value;
          od::object object;
          if (meta.get_object().get(object)) {
            if (auto error = json::Skip(meta, 1)) return error;
            continue;
          }
          if (auto error = ErrorResponse(object, &error_response)) return error;
          if (!error_response.empty()) return simdjson::SUCCESS;
        } else if (auto error = json::Skip(field_value, 1)) {
          return error;
        }
      }
    } else {
      problem = {simdjson::SUCCESS, nullptr,
                 "expected a " + std::string(key_) + ".get_all response or a JSON array of " + std::string(key_)};
      return simdjson::SUCCESS;
    }
    if (!doc.current_location().error()) return simdjson::TRAILING_CONTENT;
    return simdjson::SUCCESS;
  };
  error_code error;
  try {  // results are checked before use, so this is only a safety net
    error = read();
  } catch (const simdjson::simdjson_error& e) {
    error = e.error();
  }
  if (error) {
    const char* at = nullptr;
    if (iterated) {
      if (auto location = doc.current_location(); !location.error()) at = location.value_unsafe();
    }
    return Report("json-syntax", {error, at, ""});
  }
  if (!error_response.empty()) return Report("error-response", {simdjson::SUCCESS, nullptr, error_response});
  if (problem) return Report(problem.code ? problem.code : "bad-shape", problem);
  if (!found_) {
    return Report("bad-shape", {simdjson::SUCCESS, nullptr,
                                "not a " + std::string(key_) + ".get_all response: it has no data." + std::string(key_) +
                                    " list"});
  }
  return true;
}

}  // namespace

bool ReadResponseList(const PaddedText& text, const std::string& file, std::string_view key,
                      const std::function<Problem(od::object, const char* at)>& item, std::vector<Finding>* findings) {
  return ListReader(text, file, key, item, findings).Read();
}

}  // namespace rescfg::clearml
