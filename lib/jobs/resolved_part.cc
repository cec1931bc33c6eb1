#include "jobs/resolved_part.h"

#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "util/ordinal.h"

namespace rescfg {

ConfigNames CopyNames(const Config& config, TextArena* arena, Outcomes* outcomes) {
  ConfigNames names;
  for (const Pool& pool : config.pools) {
    names.pools.push_back(arena->Keep(pool.name));
    names.queues.push_back(arena->Keep(pool.queue));
  }
  for (const Policy& policy : config.policies) names.policies.push_back(arena->Keep(policy.name));
  for (const Profile& profile : config.profiles) {
    names.profiles.push_back(arena->Keep(profile.name));
    auto& links = names.links.emplace_back();
    auto& queues = names.link_queues.emplace_back();
    for (const Link& link : profile.links) {
      links.push_back(arena->Keep(link.name));
      queues.push_back(arena->Keep(link.queue));
    }
  }
  outcomes->SetNames(names.pools, names.queues, names.links, names.link_queues);
  return names;
}

void ReservePart(ResolvedPart* part, size_t room) {
  part->queued.reserve(room);
  part->queued_outcome.reserve(room);
  part->ordering.reserve(room);
  part->rejected.reserve(room);
}

void JoinPart(ResolvedPart&& part, ResolvedPart* into) {
  const auto offset = static_cast<uint32_t>(into->queued.size());
  if (!part.beyond_nanos.empty() || !into->beyond_nanos.empty()) {
    into->beyond_nanos.resize(offset);
    part.beyond_nanos.resize(part.queued.size());
    into->beyond_nanos.insert(into->beyond_nanos.end(), part.beyond_nanos.begin(), part.beyond_nanos.end());
  }
  if (!part.listed_rank.empty() || !into->listed_rank.empty()) {
    into->listed_rank.resize(offset);
    part.listed_rank.resize(part.queued.size());
    into->listed_rank.insert(into->listed_rank.end(), part.listed_rank.begin(), part.listed_rank.end());
  }
  for (OrderKey& key : part.ordering) key.queued += offset;
  auto append = [](auto& to, auto& from) {  // and free `from` at once: less held at the peak
    to.insert(to.end(), from.begin(), from.end());
    std::remove_reference_t<decltype(from)>().swap(from);
  };
  append(into->ordering, part.ordering);
  append(into->queued, part.queued);
  append(into->queued_outcome, part.queued_outcome);
  append(into->holdings, part.holdings);
  append(into->holding_profile, part.holding_profile);
  append(into->rejected, part.rejected);
  append(into->running, part.running);
  into->matches.Add(part.matches);
  into->near_misses.Add(part.near_misses);
  into->text.Absorb(std::move(part.text));
}

void AssignMachines(const Config& config, ResolvedPart* part, Outcomes& outcomes) {
  std::unordered_map<uint32_t, std::unordered_map<std::string_view, uint32_t>> names;  // by pool
  for (size_t k = 0; k < part->holdings.size() && k < part->running.size(); ++k) {
    Holding& h = part->holdings[k];
    OutcomeRecord& out = outcomes.Whole(part->running[k]);
    if (h.machine != Holding::kBestFit || !out.node || !h.pool) continue;
    const PoolNodes& nodes = *config.pools[*h.pool].nodes;
    auto& known = names[*h.pool];
    auto it = known.find(*out.node);
    if (it == known.end()) it = known.emplace(*out.node, static_cast<uint32_t>(known.size())).first;
    if (it->second < nodes.count) {
      h.machine = it->second;
      continue;
    }
    h.machine = Holding::kPoolOnly;
    std::string note = "node '" + std::string(*out.node) + "' is the " + EnglishOrdinal(it->second + 1) +
                       " distinct node named in pool '" + config.pools[*h.pool].name + "', which has " +
                       std::to_string(nodes.count) + " machines; it holds in the pool only, on no machine";
    out.message_text = part->text.Keep(out.message_text ? std::string(*out.message_text) + "; " + note : note);
  }
}

void PutInQueueOrder(ResolvedPart&& joined, ResolvedJobs* resolved) {
  SortByQueueOrder(&joined.ordering, joined.beyond_nanos);
  for (uint32_t rank = 0; rank < joined.ordering.size(); ++rank) {
    joined.queued[joined.ordering[rank].queued].queue_order = rank;
  }
  resolved->input.queued = std::move(joined.queued);
  resolved->input.holdings = std::move(joined.holdings);
  resolved->input.holding_profile = std::move(joined.holding_profile);
  resolved->queued_outcome = std::move(joined.queued_outcome);
  resolved->rejected = std::move(joined.rejected);
  resolved->running = std::move(joined.running);
  resolved->matches = std::move(joined.matches);
  resolved->near_misses = std::move(joined.near_misses);
  resolved->listed_rank = std::move(joined.listed_rank);
  if (!resolved->listed_rank.empty()) resolved->listed_rank.resize(resolved->input.queued.size());
  resolved->text.Absorb(std::move(joined.text));
}

}  // namespace rescfg
