#pragma once
/// `rescfg graph`: the configuration as a Mermaid flowchart or a Graphviz
/// digraph — policies point at the profiles they submit through, profiles
/// at the pools they link to — with a legend, optionally one team's or one
/// pool's view, and the usage of a jobs snapshot.
///
/// Graphviz gets HTML-like tables: every rank (policy priority, link
/// precedence, execution priority) and queue is a row of a node, and each
/// edge runs from row to row, so no label can drift from its edge. Mermaid
/// has no such rows: there the same facts label the edges.

#include <string>

#include "config/model.h"
#include "decide/report.h"
#include "graph/drawing.h"

namespace rescfg {

enum class GraphFormat { kMermaid, kDot };

/// Node ids follow file order, so the output is stable. `schedule`, when
/// given, is the report of a jobs snapshot: pools show what is in use.
std::string RenderGraph(const Config& config, GraphFormat format, const GraphFilter& filter = {},
                        const ScheduleReport* schedule = nullptr);

}  // namespace rescfg
