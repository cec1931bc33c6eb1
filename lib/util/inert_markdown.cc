#include "util/inert_markdown.h"

namespace rescfg {
namespace {

bool StartsWithWww(std::string_view text, size_t i) {
  if (i + 4 > text.size()) return false;
  for (size_t k = 0; k < 3; ++k) {
    if (text[i + k] != 'w' && text[i + k] != 'W') return false;
  }
  return text[i + 3] == '.';
}

}  // namespace

std::string InertMarkdown(std::string_view markdown) {
  std::string out;
  out.reserve(markdown.size());
  for (size_t i = 0; i < markdown.size(); ++i) {
    const char c = markdown[i];
    if (StartsWithWww(markdown, i)) {
      out.append(markdown.substr(i, 3));
      out += kMarkdownBreak;
      i += 2;  // the '.' follows, as itself
      continue;
    }
    out.push_back(c);
    if (c == '@' || c == '#' || (c == ':' && markdown.substr(i + 1, 2) == "//")) out += kMarkdownBreak;
  }
  return out;
}

}  // namespace rescfg
