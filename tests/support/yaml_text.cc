#include "support/yaml_text.h"

#include <vector>

#include "util/yaml_input.h"

namespace rescfg::testing {

rc::Gen<std::string> GenUtf8Text() {
  auto code_point = rc::gen::weightedOneOf<unsigned>({
      {4, rc::gen::inRange<unsigned>(0x20, 0x7F)},
      {2, rc::gen::inRange<unsigned>(0, 0x20)},
      {2, rc::gen::inRange<unsigned>(0x7F, 0x100)},
      {1, rc::gen::element<unsigned>(0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF, 0xFFFD, 0x85)},
      {1, rc::gen::inRange<unsigned>(0x100, 0xD800)},
      {1, rc::gen::inRange<unsigned>(0x10000, 0x110000)},
  });
  return rc::gen::map(rc::gen::container<std::vector<unsigned>>(code_point), [](const std::vector<unsigned>& cps) {
    std::string s;
    for (unsigned cp : cps) {
      if (cp < 0x80) {
        s.push_back(static_cast<char>(cp));
      } else if (cp < 0x800) {
        s += {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
      } else if (cp < 0x10000) {
        s += {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
              static_cast<char>(0x80 | (cp & 0x3F))};
      } else {
        s += {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
              static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
      }
    }
    return s;
  });
}

bool IsPlainYamlLine(std::string_view line) {
  for (size_t i = 0; i < line.size();) {
    const size_t len = Utf8SequenceLength(line, i);
    if (len == 0) return false;
    unsigned cp = static_cast<unsigned char>(line[i]) & (len == 1 ? 0x7F : 0x7F >> len);
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(line[i + k]) & 0x3F);
    const bool printable = (cp >= 0x20 && cp <= 0x7E) || (cp >= 0xA0 && cp <= 0xD7FF) ||
                           (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
    if (!printable || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF) return false;
    i += len;
  }
  return true;
}

void AssertYamlScalarOf(const std::string& scalar, const std::string& value) {
  RC_ASSERT(IsPlainYamlLine(scalar));
  std::vector<Finding> findings;
  auto node = ParseYaml("key: " + scalar + "\n", "test", &findings);
  RC_ASSERT(node.has_value());
  RC_ASSERT((*node)["key"].as<std::string>() == value);
}

}  // namespace rescfg::testing
