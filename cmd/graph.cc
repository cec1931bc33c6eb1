/// `rescfg graph`: draw the configuration for a README or a review comment.

#include <cstdio>

#include "commands.h"
#include "config_input.h"
#include "graph/graph.h"

namespace rescfg::cmd {

int RunGraph(const GraphOptions& options) {
  int exit_code = kExitOk;
  std::string label;
  auto config = LoadConfigSource(options.config, &exit_code, &label);
  if (!config) return exit_code;
  std::string out = RenderGraph(*config, options.format == "dot" ? GraphFormat::kDot : GraphFormat::kMermaid);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
