#pragma once
/// A small ordered tree of values (Helm values, in practice) that writes
/// itself as block YAML, with chosen mappings in flow style, or as JSON.
/// Keys keep the order they were added in, so the output is stable.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/quantity.h"

namespace rescfg {

class JsonWriter;

class ValueNode {
 public:
  static ValueNode Map(bool flow = false);
  static ValueNode String(std::string text);
  static ValueNode Number(Quantity value);  ///< written as a plain number (rescfg-scheduling(7), AMOUNTS form)
  static ValueNode Bool(bool value);
  static ValueNode Int(int64_t value);
  /// A sequence; in block YAML each item on its own `- ` line, written inline.
  static ValueNode List();

  /// Adds `key: value` to a mapping and returns the added value.
  ValueNode& Add(std::string key, ValueNode value);
  /// Appends an item to a sequence and returns it.
  ValueNode& Push(ValueNode value);

  /// A mapping or sequence without members.
  bool Empty() const { return members_.empty(); }

  /// Block YAML, each line indented by `indent` spaces.
  void WriteYaml(std::string* out, int indent = 0) const;
  /// The same value as JSON.
  void WriteJson(JsonWriter& json) const;

 private:
  enum class Kind { kMap, kList, kString, kNumber, kBool, kInt };
  void WriteInline(std::string* out) const;
  Kind kind_ = Kind::kMap;
  bool flow_ = false;
  std::string text_;
  Quantity number_;
  int64_t int_ = 0;
  /// Each member on the heap, so a reference Add returned stays valid as
  /// more members are added.
  std::vector<std::pair<std::string, std::unique_ptr<ValueNode>>> members_;
};

/// A mapping key as YAML: plain when every YAML reader (1.1 or 1.2) reads
/// it back as that same string (a letter, then letters, digits and ._/-,
/// and no word such as `yes`, `off` or `null`), else double-quoted.
std::string YamlKey(std::string_view key);

}  // namespace rescfg
