#pragma once
/// Rendering a ScheduleReport (rescfg(5), SCHEDULE OUTPUT): yaml, json, jsonl, table.

#include <functional>
#include <string>
#include <string_view>

#include "decide/report.h"

namespace rescfg {

enum class ScheduleFormat { kYaml, kJson, kJsonLines, kTable };

/// The whole output as text; byte-identical for the same report.
std::string RenderSchedule(const ScheduleReport& report, ScheduleFormat format);

/// The same text in consecutive pieces passed to `sink` (JSON Lines in
/// pieces of about a megabyte, so a large output is never held whole).
/// Stops and returns false as soon as the sink does.
bool RenderSchedule(const ScheduleReport& report, ScheduleFormat format,
                    const std::function<bool(std::string_view)>& sink);

}  // namespace rescfg
