#include "config/config_reader.h"

#include <algorithm>

#include "util/edit_distance.h"
#include "util/input_limits.h"
#include "util/text_check.h"

namespace rescfg {

std::string ConfigReader::EntryPath(const char* list, const YAML::Node& node, size_t index) {
  if (node.IsMap()) {
    try {
      YAML::Node name = node["name"];
      if (name.IsScalar() && !name.Scalar().empty() && TextProblem(name.Scalar(), TextKind::kName).empty()) {
        return std::string(list) + "[" + name.Scalar() + "]";
      }
    } catch (const YAML::Exception&) {
    }
  }
  return std::string(list) + "[" + std::to_string(index) + "]";
}

std::optional<std::string> ConfigReader::Scalar(const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) {
    Error("wrong-type", MarkOf(node), path, "expected a string, found " + DescribeNode(node));
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<std::string> ConfigReader::Text(const YAML::Node& node, const std::string& path) {
  if (!Scalar(node, path)) return std::nullopt;
  if (std::string problem = TextProblem(node.Scalar(), TextKind::kFreeText); !problem.empty()) {
    Error("bad-text", MarkOf(node), path, "the text " + problem, TextProblemHint(node.Scalar()));
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<std::string> ConfigReader::Name(const YAML::Node& node, const std::string& path) {
  auto text = Scalar(node, path);
  if (!text) return std::nullopt;
  if (text->empty()) {
    Error("bad-name", MarkOf(node), path, "a name must not be empty");
    return std::nullopt;
  }
  if (std::string problem = TextProblem(*text, TextKind::kName); !problem.empty()) {
    Error("bad-name", MarkOf(node), path, "the name " + problem, TextProblemHint(*text));
    return std::nullopt;
  }
  if (text->size() > CurrentLimits().name_length) {
    Error("bad-name", MarkOf(node), path,
          "a name must be at most " + std::to_string(CurrentLimits().name_length) + " bytes long, not " +
              std::to_string(text->size()),
          "shorten it (RESCFG_MAX_NAME_LENGTH raises the limit)");
    return std::nullopt;
  }
  return text;
}

std::optional<Quantity> ConfigReader::Amount(const YAML::Node& node, const std::string& path,
                                             bool positive) {
  if (!node.IsScalar()) {
    Error("wrong-type", MarkOf(node), path, "expected an amount, found " + DescribeNode(node));
    return std::nullopt;
  }
  QuantityError error;
  auto q = ParseQuantity(node.Scalar(), &error);
  if (!q) {
    Error("bad-quantity", MarkOf(node), path, error.message, error.hint);
    return std::nullopt;
  }
  if (positive && q->is_zero()) {
    Error("bad-quantity", MarkOf(node), path, "must be greater than 0");
    return std::nullopt;
  }
  return q;
}

std::optional<std::vector<NameRef>> ConfigReader::NameList(const YAML::Node& node,
                                                           const std::string& path) {
  if (!node.IsSequence()) {
    Error("wrong-type", MarkOf(node), path, "expected a list of names, found " + DescribeNode(node));
    return std::nullopt;
  }
  std::vector<NameRef> names;
  for (size_t i = 0; i < node.size(); ++i) {
    if (auto name = Name(node[i], path + "[" + std::to_string(i) + "]")) {
      names.push_back({*name, MarkOf(node[i])});
    }
  }
  return names;
}

std::optional<bool> ConfigReader::Bool(const YAML::Node& node, const std::string& path, const char* what) {
  const std::string text = node.IsScalar() ? node.Scalar() : "";
  if (node.IsScalar() && !IsQuoted(node)) {
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
  }
  Error("wrong-type", MarkOf(node), path, std::string(what) + " must be true or false, found " + DescribeNode(node));
  return std::nullopt;
}

std::optional<int64_t> ConfigReader::WholeNumber(const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) {
    Error("bad-nodes", MarkOf(node), path, "expected a whole number from 1 to " + std::to_string(Quantity::kMaxUnits) + ", found " + DescribeNode(node));
    return std::nullopt;
  }
  QuantityError error;
  auto q = ParseQuantity(node.Scalar(), &error);
  if (!q || q->is_zero() || !q->is_whole()) {
    Error("bad-nodes", MarkOf(node), path, "expected a whole number from 1 to " + std::to_string(Quantity::kMaxUnits) + ", not '" + node.Scalar() + "'");
    return std::nullopt;
  }
  return static_cast<int64_t>(q->ticks() / Quantity::kTicksPerUnit);
}

std::vector<YAML::Node> ConfigReader::List(const MapReader& map, const std::string& key,
                                           const std::string& path) {
  std::vector<YAML::Node> items;
  auto node = map.Get(key);
  if (!node) return items;
  if (!node->IsSequence()) {
    Error("wrong-type", MarkOf(*node), path.empty() ? key : path + "." + key,
          "expected a list, found " + DescribeNode(*node));
    return items;
  }
  for (const auto& item : *node) items.push_back(item);
  return items;
}

}  // namespace rescfg
