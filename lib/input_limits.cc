#include "input_limits.h"

#include <cstdlib>

namespace rescfg {

Limits& CurrentLimits() {
  static Limits limits;
  return limits;
}

std::string ApplyLimitsFromEnvironment() {
  struct Variable { const char* name; uint64_t Limits::*field; };
  static const Variable kVariables[] = {
      {"RESCFG_MAX_CONFIG_BYTES", &Limits::config_bytes}, {"RESCFG_MAX_CONFIG_NODES", &Limits::config_nodes},
      {"RESCFG_MAX_JOBS_BYTES", &Limits::jobs_bytes},     {"RESCFG_MAX_JOBS", &Limits::jobs_entries},
      {"RESCFG_MAX_NAME_LENGTH", &Limits::name_length},
  };
  for (const Variable& v : kVariables) {
    const char* text = std::getenv(v.name);
    if (!text || !*text) continue;
    char* end = nullptr;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0' || value == 0 || text[0] == '-') {
      return std::string(v.name) + "='" + text + "' is not a positive whole number";
    }
    CurrentLimits().*v.field = value;
  }
  return "";
}

}  // namespace rescfg
