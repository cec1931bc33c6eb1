#include "sync/metrics_path.h"

#include <climits>
#include <cstdlib>
#include <filesystem>

#include "state/state_store.h"
#include "sync/kept_snapshot.h"

namespace rescfg::sync {
namespace {

/// The real path of `path`'s directory and its last component ("" when the directory cannot be resolved).
std::pair<std::string, std::string> Where(const std::string& path) {
  const std::filesystem::path p(path);
  std::string parent = p.parent_path().string();
  if (parent.empty()) parent = ".";
  char* real = ::realpath(parent.c_str(), nullptr);
  if (real == nullptr) return {"", p.filename().string()};
  std::string dir(real);
  std::free(real);
  return {dir, p.filename().string()};
}

}  // namespace

std::string MetricsPathRefusal(const std::string& path) {
  const std::string state = StateDirectoryHolding(path);
  if (state.empty()) return "";
  const std::string refused = "refusing to write --metrics " + path + ": it is a file of the state directory '" +
                              state + "'; write it elsewhere, or in its sync/ directory (e.g. " + state +
                              "/sync/metrics.prom)";
  const SyncPaths sync = SyncPathsOf(state);
  const auto [dir, name] = Where(path);
  const auto [sync_dir, ignored] = Where(sync.journal);
  if (dir.empty() || dir != sync_dir) return refused;
  for (const std::string& kept : {sync.tasks, sync.queues, sync.workers, sync.journal, sync.lock}) {
    if (std::filesystem::path(kept).filename() == name) return refused;
  }
  return "";
}

}  // namespace rescfg::sync
