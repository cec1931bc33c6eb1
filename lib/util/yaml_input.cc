#include "util/yaml_input.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "util/edit_distance.h"
#include "util/yaml_fast_scanner.h"

namespace rescfg {

size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
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
  return ok ? len : 0;
}

namespace {

/// Where the first invalid sequence is, counting columns in characters.
Mark FirstInvalidUtf8(std::string_view text) {
  int line = 1, column = 1;
  size_t i = 0;
  while (i < text.size()) {
    size_t len = Utf8SequenceLength(text, i);
    if (len == 0) break;
    if (text[i] == '\n') { ++line; column = 1; } else { ++column; }
    i += len;
  }
  return {line, column};
}

}  // namespace

bool IsValidUtf8(std::string_view text, Mark* where) {
  // Jobs files reach hundreds of MB and are nearly all ASCII: skip it eight
  // bytes at a time, and count lines only to report a failure.
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) {
      if (where) *where = FirstInvalidUtf8(text);
      return false;
    }
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

namespace {

/// Counts nodes as the parser reports them and stops the parse past a
/// limit, before yaml-cpp builds a tree of them.
class NodeCounter : public YAML::EventHandler {
 public:
  struct TooMany {};
  explicit NodeCounter(size_t limit) : left_(limit) {}
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { Count(); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { Count(); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {
    Count();
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    Count();
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Count();
  }
  void OnMapEnd() override {}

 private:
  void Count() {
    if (left_-- == 0) throw TooMany{};
  }
  size_t left_;
};

/// Counts the nodes the fast scanner reports (the same events yaml-cpp gives).
class NodeTally : public YamlEventSink {
 public:
  void Handle(const Event& ev) override {
    if (ev.type == Ev::kNull || ev.type == Ev::kScalar || ev.type == Ev::kSeqStart || ev.type == Ev::kMapStart) {
      ++nodes;
    }
  }
  size_t nodes = 0;
};

/// False when `text` holds more than `limit` nodes. Throws YAML::Exception
/// on a syntax error, like YAML::LoadAll. A plain file is counted by the
/// fast scanner, about twenty times quicker than a first yaml-cpp pass.
bool WithinNodeLimit(const std::string& text, size_t limit) {
  NodeTally tally;
  if (ScanPlainYaml(text, &tally)) return tally.nodes <= limit;
  std::istringstream in(text);
  YAML::Parser parser(in);
  NodeCounter counter(limit);
  try {
    while (parser.HandleNextDocument(counter)) {
    }
  } catch (const NodeCounter::TooMany&) {
    return false;
  }
  return true;
}

}  // namespace

std::optional<YAML::Node> ParseYaml(std::string_view text, const std::string& file,
                                    std::vector<Finding>* findings, size_t max_nodes) {
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
    std::string copy(text);
    if (max_nodes > 0 && !WithinNodeLimit(copy, max_nodes)) {
      findings->push_back({"too-large", Severity::kError, file, {1, 1}, "",
                           "the document has more than " + std::to_string(max_nodes) +
                               " YAML nodes; it is too large to read",
                           ""});
      return std::nullopt;
    }
    // One document: a second one would be silently ignored by YAML::Load.
    std::vector<YAML::Node> documents = YAML::LoadAll(copy);
    std::optional<YAML::Node> root;
    for (const auto& document : documents) {
      if (document.IsNull()) continue;  // an empty document, e.g. after a trailing ---
      if (root) {
        findings->push_back({"multiple-documents", Severity::kError, file, MarkOf(document), "",
                             "the file holds more than one YAML document; it must hold one",
                             "remove the second '---' and what follows, or use one file per document"});
        return std::nullopt;
      }
      root = document;
    }
    return root ? *root : YAML::Node();
  } catch (const YAML::Exception& e) {
    Mark m{e.mark.is_null() ? 1 : e.mark.line + 1, e.mark.is_null() ? 1 : e.mark.column + 1};
    std::string message = e.msg.empty() ? "YAML syntax error" : "YAML syntax error: " + e.msg;
    std::string hint;
    if (message.find("bad file") != std::string::npos || message.find("depth") != std::string::npos) {
      message = "YAML syntax error: nesting is too deep or the document is malformed";
    } else if (e.msg == "end of map not found" || e.msg == "end of sequence not found" ||
               e.msg == "illegal map value" || e.msg == "block sequence entries are not allowed in this context") {
      // yaml-cpp names the parser state; the mistake behind it is almost
      // always a line indented more or less than its block.
      message = "YAML syntax error: bad indentation (" + e.msg + ")";
      hint = "line " + std::to_string(m.line) +
             " is not aligned with the block it belongs to: indent it with spaces exactly like its "
             "sibling keys or list items";
    }
    findings->push_back({"yaml-syntax", Severity::kError, file, m, "", message, hint});
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
    // A copy: `it->` yields a temporary proxy, so a reference would dangle.
    const YAML::Node key = it->first;
    const YAML::Node value = it->second;
    std::string name = key.IsScalar() ? key.Scalar() : std::string();
    std::string where = path.empty() ? name : path + "." + name;
    if (!key.IsScalar()) {
      findings->push_back({"wrong-type", Severity::kError, file, MarkOf(key), path,
                           "a key must be a plain name, not " + DescribeNode(key), ""});
      continue;
    }
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string suggestion = ClosestMatch(name, known);
      if (!suggestion.empty()) suggested_.push_back(suggestion);
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
    entries_.push_back({name, {key, value}});
  }
}

bool MapReader::Misspelt(const std::string& key) const {
  return std::find(suggested_.begin(), suggested_.end(), key) != suggested_.end();
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
