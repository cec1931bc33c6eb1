#pragma once
/// The tasks of a snapshot as the sync keeps them (ServerSnapshot::tasks_json):
/// "[", one minified task a line separated by ",\n", then "\n]\n" ("[]\n"
/// when there are none). A minified task has no line break inside it, so
/// each task's JSON is one line: a step that needs a few of them can look
/// at each line's text and parse only the lines that may concern it,
/// instead of the whole array (a large snapshot is mostly queued tasks).

#include <cstddef>
#include <string_view>

namespace rescfg::sync {

/// Calls `fn(std::string_view task)` with each task's JSON text, in order.
template <typename Fn>
void ForEachTaskLine(std::string_view tasks_json, Fn fn) {
  size_t at = 0;
  while (at < tasks_json.size()) {
    size_t end = tasks_json.find('\n', at);
    if (end == std::string_view::npos) end = tasks_json.size();
    std::string_view line = tasks_json.substr(at, end - at);
    if (at == 0 && !line.empty() && line.front() == '[') line.remove_prefix(1);
    if (!line.empty() && line.back() == ',') line.remove_suffix(1);
    if (!line.empty() && line != "]") fn(line);
    at = end + 1;
  }
}

}  // namespace rescfg::sync
