#pragma once
/// Safe parsing of YAML text into yaml-cpp nodes, and strict mapping reads.
///
/// yaml-cpp throws; everything here catches and turns failures into
/// findings, so callers never see an exception.

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/finding.h"

namespace rescfg {

/// The length of the valid UTF-8 sequence at `text[i]` (1 to 4), or 0 when
/// the bytes there are not one (overlong, surrogate, truncated, > U+10FFFF).
size_t Utf8SequenceLength(std::string_view text, size_t i);

/// Checks `text` is valid UTF-8; on failure sets the 1-based position.
bool IsValidUtf8(std::string_view text, Mark* where);

/// Parses one YAML document. On failure appends a "yaml-syntax" finding
/// (or "invalid-utf8", or "multiple-documents" when the stream holds more
/// than one non-empty document) and returns nullopt. An empty document
/// yields a null node. With `max_nodes`, a document of more nodes (scalars,
/// collections, aliases) is refused as "too-large" before its tree is built:
/// yaml-cpp spends about a microsecond and a few hundred bytes per node.
std::optional<YAML::Node> ParseYaml(std::string_view text, const std::string& file,
                                    std::vector<Finding>* findings, size_t max_nodes = 0);

/// 1-based position of a node.
Mark MarkOf(const YAML::Node& node);

/// True for a scalar written with quotes (or an explicit string tag).
bool IsQuoted(const YAML::Node& node);

/// A YAML type name for messages: "mapping", "sequence", "string", ...
std::string DescribeNode(const YAML::Node& node);

/// Reads the keys of one mapping, reporting unknown and duplicate keys.
class MapReader {
 public:
  MapReader(const YAML::Node& map, std::string path, std::vector<std::string> known,
            const std::string& file, std::vector<Finding>* findings);

  /// The value of `key`; nullopt when absent or null (null counts as absent).
  std::optional<YAML::Node> Get(const std::string& key) const;
  /// Mark of the key itself (for "missing" findings the map's own mark).
  Mark KeyMark(const std::string& key) const;
  Mark map_mark() const { return map_mark_; }
  /// True when an unknown key of this mapping was reported with `key` as
  /// its did-you-mean: a missing `key` is then that same mistake.
  bool Misspelt(const std::string& key) const;

 private:
  std::vector<std::string> suggested_;
  std::vector<std::pair<std::string, std::pair<YAML::Node, YAML::Node>>> entries_;
  Mark map_mark_;
};

}  // namespace rescfg
