#pragma once
/// Semantic diff of two configurations (rescfg(1), COMMANDS `rescfg diff`): entities are
/// matched by name and compared on their effective values, so formatting,
/// comments, key order and spelled-out defaults are never changes.
///
/// Every difference in canonical text is a change here except the order of
/// pools, which means nothing (the order of profiles and policies does:
/// default priority lists follow it). So "no changes" is "same canonical
/// text up to the order of pools".

#include <string>
#include <vector>

#include "config/model.h"
#include "util/json_writer.h"
#include "util/markdown.h"

namespace rescfg {

/// One side of a change.
struct DiffValue {
  enum class Kind { kAbsent, kText, kAmount, kBool, kList };
  Kind kind = Kind::kAbsent;
  std::string text;
  Quantity amount;
  bool flag = false;
  std::vector<std::string> list;

  static DiffValue Absent() { return {}; }
  static DiffValue Text(std::string t) { DiffValue v; v.kind = Kind::kText; v.text = std::move(t); return v; }
  static DiffValue Amount(Quantity q) { DiffValue v; v.kind = Kind::kAmount; v.amount = q; return v; }
  static DiffValue Bool(bool b) { DiffValue v; v.kind = Kind::kBool; v.flag = b; return v; }
  static DiffValue List(std::vector<std::string> l) { DiffValue v; v.kind = Kind::kList; v.list = std::move(l); return v; }

  /// For text output: "8", "\"dev-4gpu\"", "[\"A\", \"B\"]", "(none)".
  std::string ToText() const;
  /// For JSON output: null, a string, a number (or "n/d"), a bool, an array.
  void WriteJson(JsonWriter& json) const;
};

/// kRenamed: a pool, profile or policy that renamedFrom renames (old_value
/// and new_value: its old and new names); its other changes follow it.
enum class ChangeOp { kAdded, kRemoved, kChanged, kReordered, kRenamed };
const char* ChangeOpName(ChangeOp op);

struct Change {
  ChangeOp op = ChangeOp::kChanged;
  std::string kind;   ///< "config", "pool", "profile" or "policy"
  std::string name;   ///< the entity's name; "" for kind "config"
  std::string field;  ///< "" for a whole entity; e.g. "resources", "links[H100].name"
  DiffValue old_value, new_value;
  /// For an added entity: its canonical fields, one "    key: value" line
  /// each, shown under it in text output.
  std::string detail;
};

struct ConfigDiff {
  std::vector<Change> changes;
  bool empty() const { return changes.empty(); }
};

/// Compares two configurations with defaults applied. Changes come out in a
/// stable order: top-level fields, then pools, profiles and policies (removed
/// ones in the old file order, then the rest in the new file order).
ConfigDiff DiffConfigs(const Config& old_config, const Config& new_config);

/// What a first provision does (nothing provisioned yet): every entity and
/// every top-level setting that differs from its default is an addition —
/// never a change "from" a default nobody wrote.
ConfigDiff DiffFromNothing(const Config& new_config);

/// One line per change, e.g. `~ pool "H100": resources: 8 -> 16`; a last
/// summary line. "No changes.\n" when empty.
std::string RenderDiffText(const ConfigDiff& diff);

/// The changes as a Markdown table (change, kind, name, field, old, new)
/// and the summary line, into `doc`.
void RenderDiffMarkdown(const ConfigDiff& diff, MarkdownDocument& doc);

/// Writes the changes as a JSON array of objects {op, kind, name, field, old, new}.
void WriteDiffJson(const ConfigDiff& diff, JsonWriter& json);

}  // namespace rescfg
