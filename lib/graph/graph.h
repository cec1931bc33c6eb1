#pragma once
/// `rescfg graph`: the configuration as a Mermaid flowchart or a Graphviz
/// digraph — policies point at the profiles they submit through, profiles
/// at the pools they link to.

#include <string>

#include "config/model.h"

namespace rescfg {

enum class GraphFormat { kMermaid, kDot };

/// Pools with sizes and execution priority, profiles with allotments,
/// links labelled with precedence rank and name, policies with reserved and
/// limit and edges labelled with their rank in the profile's policy
/// priority. Node ids follow file order, so the output is stable.
std::string RenderGraph(const Config& config, GraphFormat format);

}  // namespace rescfg
