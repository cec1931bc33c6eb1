#include "graph/dot_text.h"

#include "util/xml_text.h"

namespace rescfg {

std::string DotQuotedText(std::string_view text) {
  std::string doubled;
  doubled.reserve(text.size());
  for (char c : text) {
    if (c == '\\') doubled.push_back('\\');
    doubled.push_back(c);
  }
  return XmlText(doubled);
}

}  // namespace rescfg
