#pragma once
/// Which strings rescfg stores (rescfg(5), CONFIGURATION): valid UTF-8 once YAML escapes are
/// decoded, no noncharacter U+FFFE or U+FFFF, and no control characters in
/// names; free text (descriptions) may hold line breaks and tabs.
///
/// yaml-cpp decodes some escapes to bytes that are not UTF-8 ("\_" and
/// "\N" become the single bytes A0 and 85), so the check runs on the
/// decoded value, not on the file.

#include <string>
#include <string_view>

namespace rescfg {

enum class TextKind {
  kName,      ///< names, queues, parameter paths: no control character at all
  kFreeText,  ///< descriptions: line breaks (LF, CR) and tabs allowed
};

/// Why `text` cannot be stored as `kind`, or "" when it can. The message
/// names the offending character and its byte offset.
std::string TextProblem(std::string_view text, TextKind kind);

/// The code point of the valid UTF-8 sequence `seq` (one character) when a
/// YAML writer must escape it: C1 controls, U+2028, U+2029, U+FEFF, U+FFFE,
/// U+FFFF (JSON may escape them too). 0 for any other.
unsigned YamlUnsafeCodePoint(std::string_view seq);

/// A hint for a TextProblem: how to write the character instead.
std::string TextProblemHint(std::string_view text);

}  // namespace rescfg
