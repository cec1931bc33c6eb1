#include "sync/server_text.h"

#include "util/text_table.h"

namespace rescfg::sync {

std::string ServerText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '\n' && c != '\r' && c != '\t') continue;
    out += VisibleText(text.substr(start, i - start));
    out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
    start = i + 1;
  }
  out += VisibleText(text.substr(start));
  return out;
}

}  // namespace rescfg::sync
