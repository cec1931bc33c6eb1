/// `rescfg fmt`: the canonical text of a configuration. Defaults can only be
/// resolved for a valid configuration, so an invalid one is refused (exit 1)
/// and nothing is printed. Warnings are `validate`'s business: fmt keeps
/// quiet about them, so that `git diff` through textconv stays clean.

#include <cstdio>

#include "commands.h"
#include "config/canonical.h"
#include "config_source.h"

namespace rescfg::cmd {

int RunFmt(const FmtOptions& options) {
  int exit_code = kExitOk;
  auto config = LoadConfigForCommand(options.file, kExitFindings, &exit_code, nullptr,
                                     /*log_warnings=*/false);
  if (!config) return exit_code;
  std::string text = WriteCanonical(*config);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
