/// `rescfg graph`: draw the configuration for a README or a review comment.

#include <cstdio>

#include "commands.h"
#include "config_source.h"
#include "graph/graph.h"

namespace rescfg::cmd {

int RunGraph(const GraphOptions& options) {
  auto config = LoadConfigFrom(options.config);
  if (!config) return kExitUnusable;
  std::string out = RenderGraph(*config, options.format == "dot" ? GraphFormat::kDot : GraphFormat::kMermaid);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
