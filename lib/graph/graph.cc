#include "graph/graph.h"

#include <algorithm>

namespace rescfg {
namespace {

/// Mermaid labels are double-quoted; quotes and markup become entities.
std::string MermaidText(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "#quot;"; break;
      case '<': out += "#lt;"; break;
      case '>': out += "#gt;"; break;
      case '#': out += "#35;"; break;
      case '&': out += "#amp;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string DotText(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

template <typename T>
size_t IndexOf(const std::vector<T>& items, const std::string& name) {
  return static_cast<size_t>(
      std::find_if(items.begin(), items.end(), [&](const T& x) { return x.name == name; }) - items.begin());
}

size_t RankOf(const std::optional<std::vector<NameRef>>& order, const std::string& name) {
  const auto& list = order.value_or(std::vector<NameRef>{});
  for (size_t i = 0; i < list.size(); ++i) if (list[i].name == name) return i + 1;
  return 0;
}

struct Node {
  std::string id;
  std::vector<std::string> lines;
};
struct Edge {
  std::string from, to, label;
};

/// The graph in a neutral form, rendered by either writer.
struct Drawing {
  std::vector<Node> pools, profiles, policies;
  std::vector<Edge> edges;
};

Drawing Draw(const Config& config) {
  Drawing d;
  for (size_t i = 0; i < config.pools.size(); ++i) {
    const Pool& pool = config.pools[i];
    Node node{"pool" + std::to_string(i), {pool.name, pool.resources.ToString() + " GPUs, queue " + pool.queue}};
    if (pool.paused) node.lines.push_back("paused (drained)");
    const auto& order = pool.execution_priority.value_or(std::vector<NameRef>{});
    if (!order.empty()) {
      std::string line = "execution:";
      for (size_t k = 0; k < order.size(); ++k) line += " " + std::to_string(k + 1) + ". " + order[k].name;
      node.lines.push_back(line);
    }
    d.pools.push_back(std::move(node));
  }
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    const Profile& profile = config.profiles[i];
    std::string amount = profile.dynamic_parameter
                             ? *profile.dynamic_parameter + " (default " + profile.allotment.ToString() + ")"
                             : "allotment " + profile.allotment.ToString();
    d.profiles.push_back({"profile" + std::to_string(i), {profile.name, amount}});
    for (size_t k = 0; k < profile.links.size(); ++k) {
      const Link& link = profile.links[k];
      size_t pool = IndexOf(config.pools, link.pool);
      if (pool == config.pools.size()) continue;
      const Pool& target = config.pools[pool];
      std::string label = "link " + std::to_string(k + 1);
      if (!link.name.empty()) label += ": " + link.name;
      if (size_t exec = RankOf(target.execution_priority, profile.name)) {
        label += ", execution " + std::to_string(exec);
      }
      if (!link.queue.empty() && link.queue != target.queue) label += ", queue " + link.queue;
      d.edges.push_back({"profile" + std::to_string(i), "pool" + std::to_string(pool), label});
    }
  }
  for (size_t i = 0; i < config.policies.size(); ++i) {
    const Policy& policy = config.policies[i];
    std::string bounds = "reserved " + policy.reserved.ToString() + ", limit " +
                         (policy.limit ? policy.limit->ToString() : std::string("none"));
    Node node{"policy" + std::to_string(i), {policy.name, bounds}};
    if (policy.paused) node.lines.push_back("paused (frozen)");
    d.policies.push_back(std::move(node));
  }
  // Policy edges grouped by profile, in each profile's priority order.
  std::vector<Edge> policy_edges;
  for (size_t k = 0; k < config.profiles.size(); ++k) {
    const Profile& profile = config.profiles[k];
    const auto& order = profile.policy_priority.value_or(std::vector<NameRef>{});
    for (size_t rank = 0; rank < order.size(); ++rank) {
      size_t i = IndexOf(config.policies, order[rank].name);
      if (i == config.policies.size()) continue;
      const Policy& policy = config.policies[i];
      std::string label = "priority " + std::to_string(rank + 1);
      for (const auto& entry : policy.profiles) {
        if (entry.profile == profile.name) {
          label += ", queue " + entry.queue.value_or(DefaultPolicyQueue(policy.name, profile.name));
        }
      }
      policy_edges.push_back({"policy" + std::to_string(i), "profile" + std::to_string(k), label});
    }
  }
  d.edges.insert(d.edges.begin(), policy_edges.begin(), policy_edges.end());
  return d;
}

std::string Join(const std::vector<std::string>& lines, const std::string& sep,
                 std::string (*escape)(const std::string&)) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? sep : "") + escape(lines[i]);
  return out;
}

std::string RenderMermaid(const Drawing& d, bool enabled) {
  std::string out = "flowchart LR\n";
  if (!enabled) out += "  %% resource management is disabled (enabled: false)\n";
  auto nodes = [&](const char* title, const std::vector<Node>& list, const char* open, const char* close) {
    out += std::string("  subgraph ") + title + "\n";
    for (const auto& n : list) {
      out += "    " + n.id + open + "\"" + Join(n.lines, "<br/>", &MermaidText) + "\"" + close + "\n";
    }
    out += "  end\n";
  };
  nodes("Policies", d.policies, "{{", "}}");
  nodes("Profiles", d.profiles, "[", "]");
  nodes("Pools", d.pools, "[(", ")]");
  for (const auto& e : d.edges) {
    out += "  " + e.from + " -->|\"" + MermaidText(e.label) + "\"| " + e.to + "\n";
  }
  return out;
}

std::string RenderDot(const Drawing& d, bool enabled) {
  std::string out = "digraph rescfg {\n  rankdir=LR;\n";
  if (!enabled) out += "  label=\"resource management is disabled (enabled: false)\";\n";
  auto nodes = [&](const std::vector<Node>& list, const char* shape) {
    for (const auto& n : list) {
      out += "  " + n.id + " [shape=" + shape + ", label=\"" + Join(n.lines, "\\n", &DotText) + "\"];\n";
    }
  };
  nodes(d.policies, "hexagon");
  nodes(d.profiles, "box");
  nodes(d.pools, "cylinder");
  for (const auto& e : d.edges) {
    out += "  " + e.from + " -> " + e.to + " [label=\"" + DotText(e.label) + "\"];\n";
  }
  return out + "}\n";
}

}  // namespace

std::string RenderGraph(const Config& config, GraphFormat format) {
  Drawing d = Draw(config);
  return format == GraphFormat::kDot ? RenderDot(d, config.enabled) : RenderMermaid(d, config.enabled);
}

}  // namespace rescfg
