/// `rescfg graph`: draw the configuration for a README or a review comment.

#include <cstdio>

#include "commands.h"
#include "config_source.h"
#include "graph/graph.h"
#include "output_file.h"

namespace rescfg::cmd {

int RunGraph(const GraphOptions& options) {
  auto config = LoadConfigFrom(options.config);
  if (!config) return kExitUnusable;
  std::string out = RenderGraph(*config, options.format == "dot" ? GraphFormat::kDot : GraphFormat::kMermaid);
  return WriteOutput(options.output, out) ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
