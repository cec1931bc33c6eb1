#include "yaml_input.h"

#include <algorithm>

#include "edit_distance.h"

namespace rescfg {

bool IsValidUtf8(std::string_view text, Mark* where) {
  int line = 1, column = 1;
  size_t i = 0;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  while (i < text.size()) {
    unsigned char c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len != 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (s[i + k] & 0xC0) == 0x80;
    if (ok && len == 2) ok = c >= 0xC2;
    if (ok && len == 3) {
      unsigned cp = ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu);
      ok = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
    }
    if (ok && len == 4) {
      unsigned cp = ((c & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) |
                    (s[i + 3] & 0x3Fu);
      ok = cp >= 0x10000 && cp <= 0x10FFFF;
    }
    if (!ok) {
      if (where) *where = {line, column};
      return false;
    }
    if (c == '\n') { ++line; column = 1; } else { ++column; }
    i += len;
  }
  return true;
}

Mark MarkOf(const YAML::Node& node) {
  if (!node.IsDefined()) return {};
  YAML::Mark m = node.Mark();
  if (m.is_null()) return {};
  return {m.line + 1, m.column + 1};
}

bool IsQuoted(const YAML::Node& node) {
  return node.IsScalar() && !node.Tag().empty() && node.Tag() != "?";
}

std::string DescribeNode(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing (null)";
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  return "'" + node.Scalar().substr(0, 40) + "'";
}

std::optional<YAML::Node> ParseYaml(std::string_view text, const std::string& file,
                                    std::vector<Finding>* findings) {
  Mark bad;
  if (!IsValidUtf8(text, &bad)) {
    findings->push_back({"invalid-utf8", Severity::kError, file, bad, "",
                         "the file is not valid UTF-8 text", ""});
    return std::nullopt;
  }
  if (text.find('\0') != std::string_view::npos) {
    findings->push_back({"yaml-syntax", Severity::kError, file, {1, 1}, "",
                         "the file contains a NUL byte; it is not a text file", ""});
    return std::nullopt;
  }
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    Mark m{e.mark.is_null() ? 1 : e.mark.line + 1, e.mark.is_null() ? 1 : e.mark.column + 1};
    std::string message = e.msg.empty() ? "YAML syntax error" : "YAML syntax error: " + e.msg;
    if (message.find("bad file") != std::string::npos || message.find("depth") != std::string::npos) {
      message = "YAML syntax error: nesting is too deep or the document is malformed";
    }
    findings->push_back({"yaml-syntax", Severity::kError, file, m, "", message, ""});
  } catch (const std::exception& e) {
    findings->push_back({"yaml-syntax", Severity::kError, file, {1, 1}, "",
                         std::string("cannot parse YAML: ") + e.what(), ""});
  }
  return std::nullopt;
}

MapReader::MapReader(const YAML::Node& map, std::string path, std::vector<std::string> known,
                     const std::string& file, std::vector<Finding>* findings)
    : map_mark_(MarkOf(map)) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    // A copy: it-> yields a temporary proxy, so a reference would dangle.
    YAML::Node key = it->first;
    std::string name = key.IsScalar() ? key.Scalar() : std::string();
    std::string where = path.empty() ? name : path + "." + name;
    if (!key.IsScalar()) {
      findings->push_back({"wrong-type", Severity::kError, file, MarkOf(key), path,
                           "a key must be a plain name, not " + DescribeNode(key), ""});
      continue;
    }
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string suggestion = ClosestMatch(name, known);
      findings->push_back({"unknown-key", Severity::kError, file, MarkOf(key), where,
                           "unknown key '" + name + "'",
                           suggestion.empty() ? "" : "did you mean '" + suggestion + "'?"});
      continue;
    }
    bool duplicate = std::any_of(entries_.begin(), entries_.end(),
                                 [&](const auto& e) { return e.first == name; });
    if (duplicate) {
      findings->push_back({"duplicate-key", Severity::kError, file, MarkOf(key), where,
                           "key '" + name + "' appears more than once in this mapping",
                           "keep one of them"});
      continue;
    }
    entries_.push_back({name, {key, it->second}});
  }
}

std::optional<YAML::Node> MapReader::Get(const std::string& key) const {
  for (const auto& e : entries_) {
    if (e.first == key) {
      if (e.second.second.IsNull()) return std::nullopt;
      return e.second.second;
    }
  }
  return std::nullopt;
}

Mark MapReader::KeyMark(const std::string& key) const {
  for (const auto& e : entries_) if (e.first == key) return MarkOf(e.second.first);
  return map_mark_;
}

}  // namespace rescfg
