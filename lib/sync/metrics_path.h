#pragma once
/// Where `rescfg sync --metrics FILE` may write: anywhere but over a file
/// the state keeps. Inside a state directory only DIR/sync/ holds files a
/// sync may add (the packaged unit writes DIR/sync/metrics.prom), and not
/// the ones it keeps there (journal, lock, the last snapshot); every other
/// file of a state directory (history.jsonl, a revision) is provision's,
/// and the guard of -o refuses it (rescfg(1), "rescfg sync").

#include <string>

namespace rescfg::sync {

/// "" when `path` may be written, else why not.
std::string MetricsPathRefusal(const std::string& path);

}  // namespace rescfg::sync
