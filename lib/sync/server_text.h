#pragma once
/// A string from the ClearML server (a task id, a queue name, an error
/// message), made safe for a log line or a note (rescfg-sync(1)): what a
/// terminal would act on or hide is shown escaped, so a forged task id can
/// neither start a new log line nor send terminal escapes. Line feed,
/// carriage return and tab show as \n, \r and \t; other control characters,
/// bytes that are not UTF-8 and invisible code points as in VisibleText
/// (\x1B, \u202E). Applying it twice changes nothing more.

#include <string>
#include <string_view>

namespace rescfg::sync {

std::string ServerText(std::string_view text);

}  // namespace rescfg::sync
