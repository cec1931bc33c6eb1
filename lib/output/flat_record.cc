#include "output/flat_record.h"

#include <cstdio>

namespace rescfg {

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned char>(c));
          out->append(buffer);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendQuantity(std::string* out, Quantity q) {
  if (q.NeedsFraction()) {
    AppendJsonString(out, q.ToString());
  } else {
    out->append(q.ToString());
  }
}

void FlatRecord::Key(std::string_view key) {
  if (!first_) out_->append(", ");
  first_ = false;
  if (style_ == RecordStyle::kJson) {
    AppendJsonString(out_, key);
  } else {
    out_->append(key);
  }
  out_->append(": ");
}

}  // namespace rescfg
