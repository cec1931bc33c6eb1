#include "jobs/json_values.h"

#include <algorithm>
#include <new>

#include "jobs/job_fields.h"

namespace rescfg::json {

std::string_view TrimTrailingSpace(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

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
  // No fault of the input: the reader could not get memory, and says so as
  // every other allocation does (out of memory, exit 2).
  if (error == simdjson::MEMALLOC) throw std::bad_alloc();
  switch (error) {
    case simdjson::UTF8_ERROR: return "not valid UTF-8 text";
    case simdjson::DEPTH_ERROR: return "not valid JSON: nested too deeply";
    case simdjson::UNCLOSED_STRING: return "not valid JSON: a string is not closed";
    case simdjson::STRING_ERROR: return "not valid JSON: bad string (escape or control character)";
    case simdjson::UNESCAPED_CHARS: return "not valid JSON: a string holds a control character (escape it)";
    case simdjson::NUMBER_ERROR: return "not valid JSON: bad number";
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      return "not valid JSON: an object or array is not closed, or text follows the object";
    case simdjson::TRAILING_CONTENT: return "not valid JSON: text after the object";
    default: return "not valid JSON";
  }
}

namespace {

/// Length of the valid UTF-8 sequence at `s[i]`, 0 when it is not one.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 6 && b >= 0xC2 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 && b <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  const auto c1 = static_cast<unsigned char>(s[i + 1 < s.size() ? i + 1 : i]);
  if ((b == 0xE0 && c1 < 0xA0) || (b == 0xED && c1 > 0x9F) || (b == 0xF0 && c1 < 0x90) || (b == 0xF4 && c1 > 0x8F)) {
    return 0;  // overlong, surrogate, or past U+10FFFF
  }
  return n;
}

}  // namespace

size_t ErrorColumn(std::string_view line, error_code error, const char* at) {
  if (at != nullptr && at >= line.data() && at < line.data() + line.size()) return size_t(at - line.data()) + 1;
  size_t open_quote = std::string_view::npos;
  for (size_t i = 0; i < line.size();) {
    const size_t n = Utf8Length(line, i);
    if (n == 0) return i + 1;
    if (error == simdjson::UTF8_ERROR) {
      i += n;
      continue;
    }
    const char c = line[i];
    if (open_quote != std::string_view::npos) {
      if (static_cast<unsigned char>(c) < 0x20) return i + 1;
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '"') open_quote = std::string_view::npos;
    } else if (c == '"') {
      open_quote = i;
    }
    i += n;
  }
  if (open_quote != std::string_view::npos) return open_quote + 1;
  return TrimTrailingSpace(line).size() + 1;
}

error_code NumberText(od::value value, std::string_view* text) {
  *text = TrimTrailingSpace(value.raw_json_token());
  return IsJsonNumber(*text) ? simdjson::SUCCESS : simdjson::NUMBER_ERROR;
}

error_code Skip(od::value value, int depth) {
  if (depth > kMaxDepth) return simdjson::DEPTH_ERROR;
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  switch (type) {
    case od::json_type::object:
      return ForEachMember(value, [&](std::string_view, od::value field_value) { return Skip(field_value, depth + 1); });
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
      // Stage 1 has checked the text is UTF-8 without control characters;
      // only escapes are left to check, and most strings have none (the
      // parser skips a value that is not consumed).
      if (value.raw_json_token().find('\\') == std::string_view::npos) return simdjson::SUCCESS;
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

error_code SkipDocument(od::document& doc) {
  od::json_type type;
  if (auto error = doc.type().get(type)) return error;
  switch (type) {
    case od::json_type::object:
    case od::json_type::array: {
      od::value value;
      if (auto error = doc.get_value().get(value)) return error;
      if (auto error = Skip(value, 1)) return error;
      return doc.current_location().error() ? simdjson::SUCCESS : simdjson::TRAILING_CONTENT;
    }
    // Root scalars check what follows them themselves.
    case od::json_type::string:
      return doc.get_string().error();
    case od::json_type::number: {
      std::string_view raw;
      if (auto error = doc.raw_json_token().get(raw)) return error;
      if (!IsJsonNumber(TrimTrailingSpace(raw))) return simdjson::NUMBER_ERROR;
      return doc.get_number().error();
    }
    case od::json_type::boolean:
      return doc.get_bool().error();
    case od::json_type::null: {
      bool is_null = false;
      if (auto error = doc.is_null().get(is_null)) return error;
      return is_null ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR;
    }
  }
  return simdjson::TAPE_ERROR;
}

error_code ReadParam(od::value value, const ParamQuery& query, ParamCapture& capture, int node, JobEntry* entry,
                     int depth) {
  if (depth > kMaxDepth) return simdjson::DEPTH_ERROR;
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  auto set = [&](ParamCapture::Kind kind, std::string_view text) {
    if (!capture.Set(node, kind, text)) {
      AddProblem(entry, "duplicate key '" + std::string(capture.KeyOf(node)) + "' in params");
    }
  };
  std::string_view text;
  switch (type) {
    case od::json_type::object: {
      set(ParamCapture::Kind::kMap, {});
      if (!query.HasChildren(node)) return Skip(value, depth);
      od::object object;
      if (auto error = value.get_object().get(object)) return error;
      for (auto member : object) {
        std::string_view key;
        od::value field_value;
        if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
        int child = query.Child(node, key);
        if (child < 0) {
          if (int near = query.NearMiss(node, key); near >= 0) capture.NoteNearMiss(near, node, key);
        }
        auto error = child < 0 ? Skip(field_value, depth + 1)
                               : ReadParam(field_value, query, capture, child, entry, depth + 1);
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

error_code StableString(od::value value, bool in_place, TextArena* arena, std::string_view* out) {
  const std::string_view raw = TrimTrailingSpace(value.raw_json_token());
  if (in_place && raw.size() >= 2 && raw.back() == '"' && raw.find('\\') == std::string_view::npos) {
    *out = raw.substr(1, raw.size() - 2);
    return simdjson::SUCCESS;
  }
  std::string_view text;
  if (auto error = value.get_string().get(text)) return error;
  // Every escape is longer than what it stands for: same length, no escapes.
  *out = in_place && raw.size() == text.size() + 2 ? raw.substr(1, text.size()) : arena->Keep(text);
  return simdjson::SUCCESS;
}

ParseSpan PaddedSpan(std::string_view text, const char* limit, std::string* copy) {
  constexpr size_t kPadding = simdjson::SIMDJSON_PADDING;
  const size_t capacity = static_cast<size_t>(limit - text.data());
  if (capacity >= text.size() + kPadding) return {text, capacity, true};
  copy->assign(text);
  copy->append(kPadding, ' ');
  return {std::string_view(copy->data(), text.size()), copy->size(), false};
}

Mark MarkAt(std::string_view text, const char* at) {
  const size_t offset = std::min(static_cast<size_t>(std::max(at, text.data()) - text.data()), text.size());
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    // A line feed, or a carriage return not followed by one, ends a line.
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, static_cast<int>(offset - line_start) + 1};
}

}  // namespace rescfg::json
