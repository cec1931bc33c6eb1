#include "util/input_limits.h"

#include <cstdlib>
#include <string_view>

#include "util/file_io.h"

namespace rescfg {

std::string LimitHint(const char* code, const char* variable) {
  return std::string_view(code) == kTooLarge ? std::string("give a smaller file, or raise ") + variable : "";
}

Limits& CurrentLimits() {
  static Limits limits;
  return limits;
}

std::string ApplyLimitsFromEnvironment() {
  struct Variable { const char* name; uint64_t Limits::*field; };
  static const Variable kVariables[] = {
      {"RESCFG_MAX_CONFIG_BYTES", &Limits::config_bytes}, {"RESCFG_MAX_CONFIG_NODES", &Limits::config_nodes},
      {"RESCFG_MAX_JOBS_BYTES", &Limits::jobs_bytes},     {"RESCFG_MAX_JOBS", &Limits::jobs_entries},
      {"RESCFG_MAX_NAME_LENGTH", &Limits::name_length},   {"RESCFG_MAX_QUEUES_BYTES", &Limits::queues_bytes},
      {"RESCFG_MAX_WORKERS_BYTES", &Limits::workers_bytes},
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
