#pragma once
/// Reading a resource configuration file into the model (rescfg(5), CONFIGURATION).
///
/// The loader checks shape only: YAML syntax, apiVersion/kind, unknown and
/// duplicate keys, missing and mistyped fields, quantities, names. Cross
/// references and capacity checks are lib/validate's job.
///
/// Codes: unreadable, invalid-utf8, yaml-syntax, multiple-documents, too-large (these
/// make the file unusable), wrong-type, missing-field, unknown-key,
/// duplicate-key, bad-quantity, bad-duration, bad-name, bad-value, bad-api-version,
/// bad-kind. Paths use 0-based list indexes, and an entry's name when it
/// has one: profiles[4xGPU].links[1].pool is the second link.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "util/finding.h"

namespace rescfg {

struct LoadedConfig {
  std::string file;               ///< as shown in findings
  std::optional<Config> config;   ///< set when the YAML could be read at all
  std::vector<Finding> findings;  ///< shape findings, in file order
  bool unusable = false;          ///< unreadable file or YAML syntax error (exit 2)
};

/// Parses configuration text. `config` is filled as far as the shape allows
/// (parts with errors are skipped), without defaults applied.
LoadedConfig LoadConfigText(std::string_view text, const std::string& file);

/// Reads and parses a file ("-" for standard input).
LoadedConfig LoadConfigFile(const std::string& path);

}  // namespace rescfg
