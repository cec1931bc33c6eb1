#pragma once
/// Rendering a SimulationReport (rescfg-scheduling(7), THE SIMULATION CLOCK): yaml, json, jsonl, table.

#include <functional>
#include <string>
#include <string_view>

#include "simulate/report.h"

namespace rescfg {

enum class SimulateFormat { kYaml, kJson, kJsonLines, kTable };

/// The output in consecutive pieces passed to `sink` (large outputs in
/// pieces of about a megabyte); byte-identical for the same report. Stops
/// and returns false as soon as the sink does.
bool RenderSimulation(const SimulationReport& report, SimulateFormat format,
                      const std::function<bool(std::string_view)>& sink);

/// The whole output as text.
std::string RenderSimulation(const SimulationReport& report, SimulateFormat format);

}  // namespace rescfg
