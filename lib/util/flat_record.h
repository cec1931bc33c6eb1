#pragma once
/// One-line records written as JSON objects or YAML flow mappings: the shape
/// of every list item rescfg prints (jobs, pools, findings...). Values are
/// appended straight into the output buffer, so a million records cost no
/// per-field allocations.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/quantity.h"
#include "util/text_ref.h"

namespace rescfg {

enum class RecordStyle { kJson, kYaml };

/// Appends `s` as a JSON string literal that is also a YAML double-quoted
/// scalar of the same value: control characters (C0, DEL, C1), U+2028,
/// U+2029, U+FEFF, U+FFFE and U+FFFF are escaped as \uXXXX.
void AppendJsonString(std::string* out, std::string_view s);

/// Appends a quantity per rescfg-scheduling(7), AMOUNTS: a plain number, or a quoted fraction.
void AppendQuantity(std::string* out, Quantity q);
/// What AppendQuantity appends; valid until the next call on this thread.
const std::string& QuantityJson(Quantity q);
/// The quantity as a plain JSON number (Quantity::ToDecimal), for sums in
/// jq; valid until the next call on this thread.
const std::string& DecimalJson(Quantity q);
/// How many bytes at the start of `s` AppendJsonString copies unchanged.
size_t JsonPlainPrefix(std::string_view s);

class FlatRecord {
 public:
  /// Opens "{" on `out`; the destructor (or Close) writes "}".
  FlatRecord(std::string* out, RecordStyle style) : out_(out), style_(style) { out_->push_back('{'); }
  ~FlatRecord() { Close(); }
  FlatRecord(const FlatRecord&) = delete;
  FlatRecord& operator=(const FlatRecord&) = delete;

  FlatRecord& Null(std::string_view key) { Key(key); out_->append("null"); return *this; }
  FlatRecord& Bool(std::string_view key, bool v) { Key(key); out_->append(v ? "true" : "false"); return *this; }
  FlatRecord& Add(std::string_view key, uint64_t v) { Key(key); out_->append(std::to_string(v)); return *this; }
  FlatRecord& Add(std::string_view key, Quantity v) { Key(key); AppendQuantity(out_, v); return *this; }
  /// A value already in JSON form (a number).
  FlatRecord& Raw(std::string_view key, std::string_view json) { Key(key); out_->append(json); return *this; }
  FlatRecord& Add(std::string_view key, std::string_view v) { Key(key); AppendJsonString(out_, v); return *this; }
  FlatRecord& Add(std::string_view key, const std::string& v) { return Add(key, std::string_view(v)); }
  FlatRecord& Add(std::string_view key, const char* v) { return Add(key, std::string_view(v)); }
  FlatRecord& Add(std::string_view key, const std::optional<std::string>& v) {
    return v ? Add(key, std::string_view(*v)) : Null(key);
  }
  FlatRecord& Add(std::string_view key, const std::optional<Quantity>& v) { return v ? Add(key, *v) : Null(key); }
  FlatRecord& Add(std::string_view key, TextRef v) { return v ? Add(key, *v) : Null(key); }
  /// A number already written out ("12", "0.5"): appended as it is.
  FlatRecord& Number(std::string_view key, std::string_view text) { Key(key); out_->append(text); return *this; }
  /// A record nested under `key` (in YAML a flow mapping).
  template <typename Fill>
  FlatRecord& Nested(std::string_view key, Fill fill) {
    Key(key);
    FlatRecord inner(out_, style_);
    fill(inner);
    return *this;
  }
  void Close() {
    if (out_) out_->push_back('}');
    out_ = nullptr;
  }

 private:
  void Key(std::string_view key);
  std::string* out_;
  RecordStyle style_;
  bool first_ = true;
};

}  // namespace rescfg
