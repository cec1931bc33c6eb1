#pragma once
/// Rendering a ScheduleReport (SPEC §5): yaml, json, jsonl, table.

#include <string>

#include "schedule/report.h"

namespace rescfg {

enum class ScheduleFormat { kYaml, kJson, kJsonLines, kTable };

/// The whole output as text; byte-identical for the same report.
std::string RenderSchedule(const ScheduleReport& report, ScheduleFormat format);

}  // namespace rescfg
