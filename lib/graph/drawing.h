#pragma once
/// What `rescfg graph` draws, before it is written as Mermaid or Graphviz:
/// the nodes of one view of a configuration (all of it, or the part one
/// team or one pool sees), their rows, the edges between rows, the usage
/// of a jobs snapshot and the legend. Pure: no I/O.

#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "decide/report.h"

namespace rescfg {

/// Which part of a configuration to draw. Names repeat: several policies
/// (or pools) are drawn together. Given both, only what connects a listed
/// policy to a listed pool is drawn.
struct GraphFilter {
  std::vector<std::string> policies;  ///< empty: every policy
  std::vector<std::string> pools;     ///< empty: every pool
};

/// "" when every name of `filter` exists, else a message naming the first
/// one that does not, with a did-you-mean.
std::string CheckGraphFilter(const Config& config, const GraphFilter& filter);

/// One line of a node that an edge starts or ends at.
struct GraphRow {
  std::string port;   ///< unique within the node: "q0", "in1", "l2", "x0"
  std::string text;   ///< what the row says: "priority 1: Dev"
  std::string item;   ///< the same, short, for a list on one line: "1. Dev"
};

struct GraphNode {
  std::string id;                   ///< "pool0", "profile2", "policy1": file order, stable under filters
  size_t index = 0;                 ///< in its list of the configuration
  std::string title;                ///< the name
  std::vector<std::string> lines;   ///< facts: size and queue, allotment, reserved and limit, usage
  std::string rows_title;           ///< what the rows are: "execution priority", "policies", "links"
  std::vector<GraphRow> rows;       ///< rows edges end at (pools, and profiles' policies)
  std::vector<GraphRow> out_rows;   ///< rows edges start from (policies' profiles, profiles' links)
  std::string out_rows_title;
  bool paused = false;
  int color = -1;                   ///< policies: an index into the palette
};

struct GraphEdge {
  std::string from, from_port, to, to_port;
  std::string label;                ///< the edge's facts in one line, where rows cannot carry them
  int color = -1;                   ///< the policy's colour; -1 for links
};

struct Drawing {
  std::vector<GraphNode> policies, profiles, pools;
  std::vector<GraphEdge> edges;     ///< policy edges (by profile, in priority order), then links
  std::vector<std::string> notes;   ///< above the legend: disabled, the filter, the snapshot
  std::vector<std::string> legend;  ///< "term: what it means", one a line
};

/// The drawing of `config` (defaults applied) seen through `filter`, with
/// usage from `schedule` when given (the report of a jobs snapshot).
Drawing Draw(const Config& config, const GraphFilter& filter, const ScheduleReport* schedule);

}  // namespace rescfg
