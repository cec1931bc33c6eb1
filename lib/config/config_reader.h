#pragma once
/// Reading the YAML tree of one configuration file (rescfg(5), CONFIGURATION) into
/// the model, collecting findings: the reader's scalar and list readers
/// (config_reader.cc) and its readers of pools, profiles and policies
/// (loader.cc). Internal to lib/config.

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "util/finding.h"
#include "util/yaml_input.h"

namespace rescfg {

/// Walks the YAML tree of one configuration file, collecting findings.
class ConfigReader {
 public:
  ConfigReader(const std::string& file, std::vector<Finding>* findings)
      : file_(file), findings_(findings) {}

  Config Read(const YAML::Node& root);

 private:
  void Error(std::string code, Mark mark, std::string path, std::string message,
             std::string hint = "") {
    findings_->push_back({std::move(code), Severity::kError, file_, mark, std::move(path),
                          std::move(message), std::move(hint)});
  }
  void Missing(const MapReader& map, const std::string& path, const std::string& key) {
    if (map.Misspelt(key)) return;  // the unknown key's did-you-mean said it
    Error("missing-field", map.map_mark(), path.empty() ? key : path + "." + key,
          "required field '" + key + "' is missing");
  }

  /// A scalar's text as it is; reports wrong-type otherwise.
  std::optional<std::string> Scalar(const YAML::Node& node, const std::string& path);
  /// Free text (a description): a scalar string without control characters
  /// other than line breaks and tabs.
  std::optional<std::string> Text(const YAML::Node& node, const std::string& path);
  /// A name: a non-empty string without control characters.
  std::optional<std::string> Name(const YAML::Node& node, const std::string& path);
  std::optional<Quantity> Amount(const YAML::Node& node, const std::string& path, bool positive);
  std::optional<std::vector<NameRef>> NameList(const YAML::Node& node, const std::string& path);
  /// true or false, unquoted (yes/no and quoted text are refused).
  std::optional<bool> Bool(const YAML::Node& node, const std::string& path, const char* what);
  std::optional<GpuFractions> ReadGpuFractions(const YAML::Node& node, const std::string& path);
  /// The list at `key`, or empty when absent; reports a non-list.
  std::vector<YAML::Node> List(const MapReader& map, const std::string& key, const std::string& path);

  Pool ReadPool(const YAML::Node& node, size_t index, bool* ok);
  /// `nodes: {count, gpus}`: two whole numbers > 0 whose product is an amount.
  std::optional<PoolNodes> ReadNodes(const YAML::Node& node, const std::string& path);
  std::optional<int64_t> WholeNumber(const YAML::Node& node, const std::string& path);
  Profile ReadProfile(const YAML::Node& node, size_t index, bool* ok);
  Policy ReadPolicy(const YAML::Node& node, size_t index, bool* ok);
  std::optional<Link> ReadLink(const YAML::Node& node, const std::string& path);
  std::optional<PolicyProfile> ReadPolicyProfile(const YAML::Node& node, const std::string& path);
  /// `renamedFrom: OLD` (rescfg(5), RENAMES): a name, when the key is there.
  void RenamedFrom(const MapReader& map, const std::string& path, std::optional<std::string>* old, Mark* mark) {
    if (auto r = map.Get("renamedFrom")) { *mark = MarkOf(*r); *old = Name(*r, path + ".renamedFrom"); }
  }

  /// "pools[name]" when the entry has a readable name, else "pools[index]".
  static std::string EntryPath(const char* list, const YAML::Node& node, size_t index);

  const std::string& file_;
  std::vector<Finding>* findings_;
};

}  // namespace rescfg
