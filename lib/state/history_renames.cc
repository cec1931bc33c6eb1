#include "state/history_renames.h"

#include "config/renames.h"
#include "state/revision_check.h"

namespace rescfg {
namespace {

std::optional<Config> Revision(const StateStore& store, long revision) {
  std::string error;
  auto text = store.ReadRevision(revision, &error);
  if (!text) return std::nullopt;
  return LoadStoredConfig(*text, "revision " + std::to_string(revision), false, &error);
}

void Add(const char* kind, const std::map<std::string, std::string, std::less<>>& renames,
         std::vector<std::string>* out) {
  for (const auto& [old, now] : renames) out->push_back(std::string(kind) + " " + old + " -> " + now);
}

}  // namespace

std::vector<std::string> RenamesBetween(const Config& before, const Config& after) {
  std::vector<std::string> out;
  const RenameMap renames = RenamesAgainst(before, after);
  Add("pool", renames.pools, &out);
  Add("profile", renames.profiles, &out);
  Add("policy", renames.policies, &out);
  return out;
}

std::vector<std::vector<std::string>> RenamesOfHistory(const StateStore& store) {
  std::vector<std::vector<std::string>> out;
  std::optional<Config> before;  // each revision is loaded once
  for (const HistoryEntry& e : store.history()) {
    std::optional<Config> now = Revision(store, e.revision);
    out.push_back(before && now ? RenamesBetween(*before, *now) : std::vector<std::string>());
    before = std::move(now);
  }
  return out;
}

}  // namespace rescfg
