#include "output/flat_record.h"

#include "yaml_input.h"

namespace rescfg {

namespace {

/// True for the bytes AppendJsonString copies as they are.
constexpr bool IsPlain(unsigned char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

}  // namespace

void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    // Runs of plain ASCII, the common case, are appended at once.
    size_t run = i;
    while (run < s.size() && IsPlain(static_cast<unsigned char>(s[run]))) ++run;
    if (run > i) {
      out->append(s.data() + i, run - i);
      i = run;
      if (i == s.size()) break;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // Valid UTF-8 passes through; any other byte (a file name can hold
      // anything) becomes U+FFFD so the output stays valid JSON.
      size_t len = Utf8SequenceLength(s, i);
      if (len > 0) {
        out->append(s.substr(i, len));
        i += len;
      } else {
        out->append("\\ufffd");
        ++i;
      }
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xF]);
    }
    ++i;
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
