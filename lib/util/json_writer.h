#pragma once
/// A tiny streaming JSON writer. Keys come out in the order they are written,
/// so output never depends on hash order; strings are escaped per RFC 8259.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/quantity.h"

namespace rescfg {

/// `s` as a JSON string literal, quotes included.
std::string JsonQuote(std::string_view s);

class JsonWriter {
 public:
  /// indent 0: everything on one line (JSON Lines); otherwise spaces per level.
  explicit JsonWriter(int indent = 0) : indent_(indent) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);

  JsonWriter& String(std::string_view value);
  JsonWriter& Null();
  JsonWriter& Bool(bool value);
  JsonWriter& Int(int64_t value);
  /// A number when the amount has a finite decimal form, else "n/d" (rescfg-scheduling(7), AMOUNTS).
  JsonWriter& Amount(Quantity value);
  /// A number already written out ("12", "-0.5"), appended as it is.
  JsonWriter& Number(std::string_view digits);

  /// Shorthands: Key(key) followed by the value.
  JsonWriter& Field(std::string_view key, std::string_view value) { return Key(key).String(value); }
  JsonWriter& Field(std::string_view key, const char* value) { return Key(key).String(value); }
  JsonWriter& Field(std::string_view key, bool value) { return Key(key).Bool(value); }
  JsonWriter& Field(std::string_view key, int64_t value) { return Key(key).Int(value); }
  JsonWriter& Field(std::string_view key, int value) { return Key(key).Int(value); }
  JsonWriter& Field(std::string_view key, size_t value) { return Key(key).Int(static_cast<int64_t>(value)); }

  /// The text written so far.
  const std::string& str() const { return out_; }

 private:
  void BeforeValue();
  void Open(char c);
  void Close(char c);
  void Newline();

  struct Level {
    bool empty = true;
  };
  std::string out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
  int indent_;
};

}  // namespace rescfg
