#pragma once
/// A finding about an input file: what `rescfg validate` reports, and what
/// every loader returns instead of throwing.

#include <string>
#include <vector>

namespace rescfg {

/// A position in an input file, 1-based; 0 when unknown.
/// Positions are not part of any value: two configurations that differ only
/// in where things were written are equal, so Mark always compares equal.
struct Mark {
  int line = 0;
  int column = 0;
  friend bool operator==(const Mark&, const Mark&) { return true; }
};

enum class Severity { kError, kWarning };

struct Finding {
  std::string code;     ///< stable, kebab-case, e.g. "unknown-key"
  Severity severity = Severity::kError;
  std::string file;
  Mark mark;
  std::string path;     ///< e.g. profiles[4xGPU].links[1].pool
  std::string message;
  std::string hint;     ///< optional: "did you mean ...", "use \"1/7\""
};

inline bool HasErrors(const std::vector<Finding>& findings) {
  for (const auto& f : findings) if (f.severity == Severity::kError) return true;
  return false;
}

const char* SeverityName(Severity s);

}  // namespace rescfg
