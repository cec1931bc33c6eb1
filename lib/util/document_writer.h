#pragma once
/// A YAML or JSON document written section by section: scalars, one-line
/// records and lists of one-line records, so that line diffs of two outputs
/// read well. Shared by the outputs of `schedule` and `simulate`.

#include <string>
#include <string_view>

#include "util/flat_record.h"

namespace rescfg {

/// Writes the document (YAML or JSON) section by section; list items are
/// one-line records so that line diffs of two schedules read well.
class DocumentWriter {
 public:
  explicit DocumentWriter(RecordStyle style) : style_(style) {
    if (style_ == RecordStyle::kJson) out_ = "{\n";
  }
  void Scalar(std::string_view key, std::string_view raw) {
    Key(key);
    out_.append(raw);
  }
  void String(std::string_view key, std::string_view value) {
    Key(key);
    AppendJsonString(&out_, value);
  }
  template <typename Fill>
  void Record(std::string_view key, Fill fill) {
    Key(key);
    FlatRecord rec(&out_, style_);
    fill(rec);
  }
  template <typename Items, typename Make>
  void List(std::string_view key, const Items& items, Make make) {
    Key(key);
    if (items.empty()) {
      out_.append("[]");
      return;
    }
    if (style_ == RecordStyle::kJson) {
      out_.append("[");
    } else {
      out_.pop_back();  // "key:" alone, items below
    }
    bool first = true;
    for (const auto& item : items) {
      if (style_ == RecordStyle::kJson) {
        out_.append(first ? "\n    " : ",\n    ");
      } else {
        out_.append("\n  - ");
      }
      first = false;
      FlatRecord rec(&out_, style_);
      make(rec, item);
    }
    if (style_ == RecordStyle::kJson) out_.append("\n  ]");
  }
  std::string Finish() {
    out_.append(style_ == RecordStyle::kJson ? "\n}\n" : "\n");
    return std::move(out_);
  }

 private:
  void Key(std::string_view key) {
    if (style_ == RecordStyle::kJson) {
      out_.append(first_ ? "  " : ",\n  ");
      AppendJsonString(&out_, key);
      out_.append(": ");
    } else {
      if (!first_) out_.push_back('\n');
      out_.append(key);
      out_.append(": ");
    }
    first_ = false;
  }
  RecordStyle style_;
  std::string out_;
  bool first_ = true;
};

}  // namespace rescfg
