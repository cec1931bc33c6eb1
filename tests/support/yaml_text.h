#pragma once
/// Text generators and checks for the properties of the YAML writers.

#include <rapidcheck.h>

#include <string>
#include <string_view>

namespace rescfg::testing {

/// Valid UTF-8 text of any code points, weighted towards those a writer
/// must take care of: C0 and C1 controls, DEL, U+0085, U+2028, U+2029,
/// U+FEFF, U+FFFE, U+FFFF, and characters of every encoded length.
rc::Gen<std::string> GenUtf8Text();

/// True when every character of `line` is one every YAML reader takes as
/// it is on one line: YAML 1.2 c-printable, and none of the YAML 1.1 line
/// breaks (U+0085, U+2028, U+2029), no byte-order mark, no tab or newline.
bool IsPlainYamlLine(std::string_view line);

/// The property of a YAML writer: `scalar` is a plain YAML line
/// (IsPlainYamlLine) that reads back, as a mapping's value, as `value`.
/// Fails the current rapidcheck property otherwise.
void AssertYamlScalarOf(const std::string& scalar, const std::string& value);

}  // namespace rescfg::testing
