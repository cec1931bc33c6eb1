#include "graph/graph.h"

#include "graph/dot_text.h"

#include <map>
#include <string_view>

namespace rescfg {
namespace {

/// Colours of the policies' edges (and frames), cycled: distinguishable on
/// white and in print.
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
constexpr const char* kLinkColor = "#555555";

const char* PolicyColor(int index) {
  return kPalette[static_cast<size_t>(index) % (sizeof kPalette / sizeof kPalette[0])];
}

// ---- Mermaid ---------------------------------------------------------------

/// `s` with the characters `special` lists replaced by their entities
/// (`entities[i]` for `special[i]`).
std::string Escape(const std::string& s, std::string_view special, const char* const* entities) {
  std::string out;
  for (char c : s) {
    size_t i = special.find(c);
    if (i == std::string_view::npos) out.push_back(c);
    else out += entities[i];
  }
  return out;
}

/// Mermaid labels are double-quoted; quotes and markup become entities,
/// and so does '%': Mermaid reads "%%{init: ...}%%" anywhere in the text
/// as a directive (and "%%" as a comment), even inside a label.
std::string MermaidText(const std::string& s) {
  static constexpr const char* kEntities[] = {"#quot;", "#lt;", "#gt;", "#35;", "#amp;", "#37;"};
  return Escape(s, "\"<>#&%", kEntities);
}

/// A node's text: its title, facts, and its rows as one list line (the
/// edges' labels say the rest).
std::string MermaidLabel(const GraphNode& node) {
  std::string out = MermaidText(node.title);
  for (const auto& line : node.lines) out += "<br/>" + MermaidText(line);
  if (!node.rows.empty()) {
    std::string list;
    for (const auto& row : node.rows) list += (list.empty() ? "" : ", ") + row.item;
    out += "<br/>" + MermaidText(node.rows_title + ": " + list);
  }
  return out;
}

std::string RenderMermaid(const Drawing& d) {
  std::string out = "flowchart LR\n";
  auto nodes = [&](const char* title, const std::vector<GraphNode>& list, const char* open, const char* close) {
    if (list.empty()) return;
    out += std::string("  subgraph ") + title + "\n";
    for (const auto& n : list) out += "    " + n.id + open + "\"" + MermaidLabel(n) + "\"" + close + "\n";
    out += "  end\n";
  };
  nodes("Policies", d.policies, "{{", "}}");
  nodes("Profiles", d.profiles, "[", "]");
  nodes("Pools", d.pools, "[(", ")]");
  out += "  subgraph Legend\n    legend[\"";
  std::string legend;
  for (const auto& line : d.notes) legend += (legend.empty() ? "" : "<br/>") + MermaidText(line);
  for (const auto& line : d.legend) legend += (legend.empty() ? "" : "<br/>") + MermaidText(line);
  out += legend + "\"]\n  end\n";
  std::map<int, std::string> by_color;  // linkStyle takes edge numbers
  for (size_t e = 0; e < d.edges.size(); ++e) {
    const GraphEdge& edge = d.edges[e];
    out += "  " + edge.from + " -->|\"" + MermaidText(edge.label) + "\"| " + edge.to + "\n";
    std::string& numbers = by_color[edge.color];
    numbers += (numbers.empty() ? "" : ",") + std::to_string(e);
  }
  for (const auto& [color, numbers] : by_color) {
    out += "  linkStyle " + numbers + " stroke:" + (color < 0 ? kLinkColor : PolicyColor(color)) + "\n";
  }
  std::string paused;
  for (const auto* list : {&d.policies, &d.pools}) {
    for (const auto& n : *list) if (n.paused) paused += (paused.empty() ? "" : ",") + n.id;
  }
  if (!paused.empty()) out += "  classDef paused stroke-dasharray:5 3\n  class " + paused + " paused\n";
  return out;
}

// ---- Graphviz --------------------------------------------------------------

/// Text inside an HTML-like label.
std::string HtmlText(const std::string& s) {
  static constexpr const char* kEntities[] = {"&amp;", "&lt;", "&gt;", "&quot;"};
  return Escape(s, "&<>\"", kEntities);
}

struct NodeStyle {
  const char* frame;    ///< border colour
  const char* header;   ///< title background
  const char* title;    ///< title text colour
};

/// A row edges attach to: ports live on the cell, so an edge meets its row.
void DotRows(const std::string& caption, const std::vector<GraphRow>& rows, std::string* out) {
  if (rows.empty()) return;
  *out += "<TR><TD ALIGN=\"LEFT\" BORDER=\"1\" SIDES=\"T\" COLOR=\"#bbbbbb\"><FONT POINT-SIZE=\"9\" COLOR=\"#666666\">" +
          HtmlText(caption) + "</FONT></TD></TR>";
  for (const auto& row : rows) {
    *out += "<TR><TD PORT=\"" + row.port + "\" ALIGN=\"LEFT\">" + HtmlText(row.text) + "</TD></TR>";
  }
}

std::string DotNode(const GraphNode& node, const NodeStyle& style) {
  std::string out = "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" COLOR=\"" +
                    std::string(style.frame) + "\"" + (node.paused ? " BGCOLOR=\"#eeeeee\"" : "") + ">";
  out += "<TR><TD BGCOLOR=\"" + std::string(node.paused ? "#bbbbbb" : style.header) + "\"><FONT COLOR=\"" +
         (node.paused ? "black" : style.title) + "\"><B>" + HtmlText(node.title) + "</B></FONT></TD></TR>";
  for (const auto& line : node.lines) out += "<TR><TD>" + HtmlText(line) + "</TD></TR>";
  DotRows(node.rows_title, node.rows, &out);
  DotRows(node.out_rows_title, node.out_rows, &out);
  return out + "</TABLE>";
}

std::string RenderDot(const Drawing& d) {
  std::string out = "digraph rescfg {\n";
  out += "  rankdir=LR;\n  nodesep=0.25;\n  ranksep=1.1;\n";
  out += "  node [shape=plain, fontname=\"Helvetica\", fontsize=11];\n";
  out += "  edge [arrowsize=0.7, penwidth=1.3];\n";
  // The legend is the graph's label, under the drawing.
  out += "  labelloc=b;\n  labeljust=l;\n  fontname=\"Helvetica\";\n  fontsize=10;\n";
  out += "  label=<<TABLE BORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">";
  for (const auto& note : d.notes) out += "<TR><TD ALIGN=\"LEFT\"><B>" + HtmlText(note) + "</B></TD></TR>";
  for (const auto& line : d.legend) out += "<TR><TD ALIGN=\"LEFT\">" + HtmlText(line) + "</TD></TR>";
  out += "</TABLE>>;\n";
  for (const auto& n : d.policies) {
    const char* color = PolicyColor(n.color);
    out += "  " + n.id + " [label=<" + DotNode(n, {color, color, "white"}) + ">];\n";
  }
  for (const auto& n : d.profiles) out += "  " + n.id + " [label=<" + DotNode(n, {"#4a78a8", "#dbe7f3", "black"}) + ">];\n";
  for (const auto& n : d.pools) out += "  " + n.id + " [label=<" + DotNode(n, {"#4f7f3a", "#e1eed9", "black"}) + ">];\n";
  // Keep the three kinds in three columns, whatever edges a view leaves.
  auto same_rank = [&](const char* rank, const std::vector<GraphNode>& list) {
    if (list.empty()) return;
    out += std::string("  { rank=") + rank + ";";
    for (const auto& n : list) out += " " + n.id + ";";
    out += " }\n";
  };
  same_rank("source", d.policies);
  same_rank("same", d.profiles);
  same_rank("sink", d.pools);
  for (const auto& e : d.edges) {
    std::string from = e.from + (e.from_port.empty() ? "" : ":" + e.from_port + ":e");
    std::string to = e.to + (e.to_port.empty() ? "" : ":" + e.to_port + ":w");
    out += "  " + from + " -> " + to + " [color=\"" + (e.color < 0 ? kLinkColor : PolicyColor(e.color)) +
           "\", tooltip=\"" + DotQuotedText(e.label) + "\"];\n";
  }
  return out + "}\n";
}

}  // namespace

std::string RenderGraph(const Config& config, GraphFormat format, const GraphFilter& filter,
                        const ScheduleReport* schedule) {
  Drawing d = Draw(config, filter, schedule);
  return format == GraphFormat::kDot ? RenderDot(d) : RenderMermaid(d);
}

}  // namespace rescfg
