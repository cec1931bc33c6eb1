#include "jobs/resolve.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <string_view>
#include <unordered_set>

#include "jobs/time.h"

namespace rescfg {
namespace {

/// A fast hash of short text (ids), 8 bytes at a time.
uint64_t HashText(std::string_view s) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  uint64_t w = 0;
  std::memcpy(&w, s.data() + i, s.size() - i);
  h = (h ^ w) * 0x94D049BB133111EBULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 32);
}

/// A name lookup built once: open addressing over one array, no node per
/// name. The first value added for a name stays.
template <typename V>
class NameMap {
 public:
  explicit NameMap(size_t expected = 0) { Reserve(expected); }
  void emplace(std::string_view name, V value) {
    if (2 * (size_ + 1) > slots_.size()) Reserve(2 * (size_ + 1));
    const uint64_t h = HashText(name);
    for (size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& slot = slots_[i];
      if (!slot.used) {
        slot = {name, h, value, true};
        ++size_;
        return;
      }
      if (slot.hash == h && slot.name == name) return;
    }
  }
  const V* find(std::string_view name) const {
    const uint64_t h = HashText(name);
    for (size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (!slot.used) return nullptr;
      if (slot.hash == h && slot.name == name) return &slot.value;
    }
  }

 private:
  struct Slot {
    std::string_view name;
    uint64_t hash = 0;
    V value{};
    bool used = false;
  };
  void Reserve(size_t count) {
    size_t capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    if (capacity <= slots_.size()) return;
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.used) emplace(slot.name, slot.value);
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

struct QueueTarget {
  uint32_t policy, profile;
};

/// Name lookups built once per configuration. Keys view the configuration's
/// own strings (queue names not written out are kept in `default_queues`),
/// so the configuration must outlive the directory.
struct Directory {
  explicit Directory(const Config& config)
      : pools(config.pools.size()), profiles(config.profiles.size()), policies(config.policies.size()) {
    for (uint32_t i = 0; i < config.pools.size(); ++i) pools.emplace(config.pools[i].name, i);
    for (uint32_t i = 0; i < config.profiles.size(); ++i) profiles.emplace(config.profiles[i].name, i);
    for (uint32_t i = 0; i < config.policies.size(); ++i) {
      policies.emplace(config.policies[i].name, i);
      for (const auto& entry : config.policies[i].profiles) {
        const uint32_t* profile = profiles.find(entry.profile);
        if (profile == nullptr) continue;
        std::string_view queue;
        if (entry.queue) {
          queue = *entry.queue;
        } else {
          queue = default_queues.emplace_back(DefaultPolicyQueue(config.policies[i].name, entry.profile));
        }
        queues.emplace(queue, QueueTarget{i, *profile});
        allowed.insert(Pair(i, *profile));
      }
    }
  }
  template <typename V>
  static std::optional<V> Find(const NameMap<V>& map, TextRef name) {
    if (!name) return std::nullopt;
    const V* found = map.find(*name);
    if (found == nullptr) return std::nullopt;
    return *found;
  }
  bool Allowed(uint32_t policy, uint32_t profile) const { return allowed.count(Pair(policy, profile)) > 0; }
  static uint64_t Pair(uint32_t policy, uint32_t profile) { return (uint64_t(policy) << 32) | profile; }

  std::deque<std::string> default_queues;  ///< stable addresses for the views below
  NameMap<uint32_t> pools, profiles, policies;
  NameMap<QueueTarget> queues;
  std::unordered_set<uint64_t> allowed;  ///< Pair(policy, profile) the policy lists
};

ConfigNames CopyNames(const Config& config, TextArena* arena) {
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
  return names;
}

/// Which entries repeat the id of an earlier entry (empty ids never
/// count). Open addressing over one array of (hash tag, entry index), so a
/// probe rarely reads an id; the slot of an entry a few places ahead is
/// prefetched, as the table is far larger than the caches.
std::vector<bool> RepeatedIds(const std::vector<JobEntry>& entries) {
  const size_t n = entries.size();
  std::vector<uint64_t> hashes(n);
  size_t ids = 0;
  for (size_t i = 0; i < n; ++i) {
    if (entries[i].id && !entries[i].id->empty()) {
      hashes[i] = HashText(*entries[i].id);
      ++ids;
    }
  }
  size_t capacity = 16;
  while (capacity < 2 * ids) capacity *= 2;
  const size_t mask = capacity - 1;
  std::vector<uint64_t> slots(capacity);  // 0: empty
  std::vector<bool> repeated(n);
  constexpr size_t kAhead = 16;
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(&slots[hashes[i + kAhead] & mask]);
    if (!entries[i].id || entries[i].id->empty()) continue;
    const std::string_view id = *entries[i].id;
    const uint64_t tag = (hashes[i] >> 32) | 1;  // never 0
    for (size_t s = hashes[i] & mask;; s = (s + 1) & mask) {
      if (slots[s] == 0) {
        slots[s] = (tag << 32) | i;
        break;
      }
      if ((slots[s] >> 32) == tag && *entries[static_cast<uint32_t>(slots[s])].id == id) {
        repeated[i] = true;
        break;
      }
    }
  }
  return repeated;
}

/// Queue order (SPEC §3): jobs with `enqueued` first, by time; then the
/// rest; ties by file position. A stable radix sort of jobs listed in file
/// order: digits where all keys agree (most of them in a real snapshot) cost
/// one counting pass only.
struct OrderKey {
  uint64_t high;  ///< untimed last, then seconds
  uint32_t low;   ///< nanoseconds
  uint32_t queued;
};

OrderKey MakeOrderKey(const std::optional<Timestamp>& time, uint32_t queued) {
  if (!time) return {~uint64_t(0), 0, queued};
  // Years 0000-9999 with any offset stay well within +-2^40 seconds.
  return {uint64_t(time->seconds + (int64_t(1) << 40)), uint32_t(time->nanos), queued};
}

void SortByQueueOrder(std::vector<OrderKey>* keys) {
  constexpr int kBits = 16;
  constexpr size_t kBuckets = size_t(1) << kBits;
  auto digit = [](const OrderKey& k, int d) -> uint32_t {
    // Digits 0-1: nanoseconds; 2-5: the high word, least significant first.
    return d < 2 ? (k.low >> (kBits * d)) & (kBuckets - 1) : (k.high >> (kBits * (d - 2))) & (kBuckets - 1);
  };
  std::vector<OrderKey> buffer(keys->size());
  std::vector<uint32_t> count(kBuckets);
  for (int d = 0; d < 6; ++d) {
    std::fill(count.begin(), count.end(), 0);
    for (const OrderKey& k : *keys) ++count[digit(k, d)];
    if (keys->empty() || count[digit(keys->front(), d)] == keys->size()) continue;  // all agree
    uint32_t sum = 0;
    for (auto& c : count) {
      uint32_t n = c;
      c = sum;
      sum += n;
    }
    for (const OrderKey& k : *keys) buffer[count[digit(k, d)]++] = k;
    keys->swap(buffer);
  }
}

/// A job's need (SPEC §3): the allotment, or for a dynamic profile the
/// parameter's value when it is a valid quantity > 0.
Quantity NeedOf(const Profile& profile, const JobEntry& entry, std::string_view* source, std::string* note) {
  *source = "allotment";
  if (!profile.dynamic_parameter) return profile.allotment;
  for (const ParamValue& param : entry.params) {
    if (*param.path != *profile.dynamic_parameter) continue;
    if (param.text) {
      QuantityError error;
      auto value = ParseQuantity(*param.text, &error);
      if (value && !value->is_zero()) {
        *source = "parameter";
        return *value;
      }
      *note = "parameter " + std::string(*param.path) + " = '" + std::string(param.text->substr(0, 40)) +
              "' is not a valid amount (" + (value ? std::string("must be greater than 0") : error.message) +
              "); using the allotment " + profile.allotment.ToString();
    } else {
      *note = "parameter " + std::string(*param.path) + " is not a single value; using the allotment " +
              profile.allotment.ToString();
    }
    *source = "fallback";
    return profile.allotment;
  }
  return profile.allotment;
}

std::string Str(TextRef t) { return std::string(*t); }

class Resolver {
 public:
  Resolver(const Config& config, ResolvedJobs* resolved) : config_(config), dir_(config), r_(*resolved) {}

  void Resolve(const std::vector<JobEntry>& entries);

 private:
  TextRef Keep(TextRef t) { return t ? TextRef(r_.text.Keep(*t)) : TextRef(); }
  TextRef Keep(std::string_view t) { return r_.text.Keep(t); }
  TextRef Keep(const std::string& t) { return r_.text.Keep(t); }

  /// Marks the outcome rejected; the message starts with the entry's line so
  /// the user can find it in the file.
  void Reject(JobOutcome* out, const JobEntry& entry, const char* reason, const std::string& message) {
    out->status = JobStatus::kRejected;
    out->reason = reason;
    // Readers already name the line of a problem with the whole entry.
    const bool named = message.rfind("line ", 0) == 0;
    out->message = Keep(entry.mark.line > 0 && !named ? "line " + std::to_string(entry.mark.line) + ": " + message
                                                      : message);
    out->policy = Keep(entry.policy);
    out->profile = Keep(entry.profile);
    out->pool.reset();
    out->queue.reset();
    out->resources.reset();
    out->link.reset();
  }

  const Config& config_;
  Directory dir_;
  ResolvedJobs& r_;
};

void Resolver::Resolve(const std::vector<JobEntry>& entries) {
  const ConfigNames& names = r_.names;
  r_.outcomes.reserve(entries.size());
  const std::vector<bool> repeated = RepeatedIds(entries);
  std::vector<OrderKey> ordering;
  ordering.reserve(entries.size());
  r_.input.queued.reserve(entries.size());
  r_.queued_outcome.reserve(entries.size());

  for (size_t i = 0; i < entries.size(); ++i) {
    const JobEntry& e = entries[i];
    JobOutcome& out = r_.outcomes.emplace_back();
    out.entry = static_cast<uint32_t>(e.entry);
    if (e.id && !e.id->empty()) out.id = Keep(*e.id);
    bool duplicate = repeated[i];

    bool running = e.state && *e.state == "running";
    std::string invalid = e.invalid;
    if (invalid.empty() && e.state && *e.state != "running" && *e.state != "queued") {
      invalid = "state must be queued or running, not '" + std::string(e.state->substr(0, 40)) + "'";
    }
    if (invalid.empty() && !out.id) invalid = e.id ? "id must not be empty" : "required field 'id' is missing";

    // Which queue, policy and profile the entry means.
    std::optional<QueueTarget> via_queue = e.queue ? Directory::Find(dir_.queues, e.queue) : std::nullopt;
    std::optional<uint32_t> policy = Directory::Find(dir_.policies, e.policy);
    std::optional<uint32_t> profile = Directory::Find(dir_.profiles, e.profile);
    if (via_queue) {
      if (!e.policy) policy = via_queue->policy;
      if (!e.profile) profile = via_queue->profile;
    }

    if (running) {
      out.status = JobStatus::kRunning;
      out.need_source = "holding";
      std::optional<Quantity> holding;
      if (invalid.empty() && !e.pool) invalid = "required field 'pool' is missing (a running job names its pool)";
      if (invalid.empty() && e.resources) {
        QuantityError error;
        holding = ParseQuantity(*e.resources, &error);
        if (!holding) invalid = "resources: " + error.message + (error.hint.empty() ? "" : " (" + error.hint + ")");
      } else if (invalid.empty()) {
        if (!profile) {
          invalid = "cannot tell what it holds: no resources given and its profile is " +
                    std::string(e.profile || e.queue ? "unknown" : "not given");
        } else {
          std::string_view source;
          std::string note;
          holding = NeedOf(config_.profiles[*profile], e, &source, &note);
        }
      }
      if (!invalid.empty()) { Reject(&out, e, "invalid-job", invalid); continue; }
      if (duplicate) { Reject(&out, e, "duplicate-id", "id '" + Str(out.id) + "' appears earlier in the file"); continue; }
      auto pool = Directory::Find(dir_.pools, e.pool);
      if (!pool) { Reject(&out, e, "unknown-pool", "pool '" + Str(e.pool) + "' is not in the configuration"); continue; }
      out.pool = names.pools[*pool];
      out.queue = names.queues[*pool];
      out.resources = holding;
      out.policy = policy ? TextRef(names.policies[*policy]) : Keep(e.policy);
      out.profile = profile ? TextRef(names.profiles[*profile]) : Keep(e.profile);
      std::string message;
      auto warn = [&](const std::string& w) { message += (message.empty() ? "" : "; ") + w; };
      if (!policy) warn(e.policy ? "policy '" + Str(e.policy) + "' no longer exists; counted in the pool only"
                                 : "no policy; counted in the pool only");
      if (!profile && e.profile) warn("profile '" + Str(e.profile) + "' no longer exists");
      if (profile) {
        // Its queue is that of its profile's link to the pool (SPEC §5).
        const auto& links = config_.profiles[*profile].links;
        auto link = std::find_if(links.begin(), links.end(), [&](const Link& l) { return l.pool == *out.pool; });
        if (link == links.end()) {
          warn("pool '" + Str(out.pool) + "' is not linked to profile '" + Str(out.profile) + "'");
        } else {
          out.queue = names.link_queues[*profile][static_cast<size_t>(link - links.begin())];
        }
      }
      if (policy && profile && !dir_.Allowed(*policy, *profile)) {
        warn("policy '" + Str(out.policy) + "' does not list profile '" + Str(out.profile) + "'");
      }
      if (!message.empty()) out.message = Keep(message);
      r_.input.holdings.push_back({*pool, policy, *holding});
      continue;
    }

    // Queued.
    std::optional<Timestamp> enqueued;
    if (invalid.empty() && !e.queue && (!e.policy || !e.profile)) {
      invalid = std::string("required field '") + (e.policy ? "profile" : "policy") +
                "' is missing (give policy and profile, or queue)";
    }
    if (invalid.empty() && via_queue) {
      if (e.policy && *e.policy != config_.policies[via_queue->policy].name) {
        invalid = "queue '" + Str(e.queue) + "' belongs to policy '" + config_.policies[via_queue->policy].name +
                  "', not '" + Str(e.policy) + "'";
      } else if (e.profile && *e.profile != config_.profiles[via_queue->profile].name) {
        invalid = "queue '" + Str(e.queue) + "' is for profile '" + config_.profiles[via_queue->profile].name +
                  "', not '" + Str(e.profile) + "'";
      }
    }
    if (e.enqueued_mistyped) {
      if (!invalid.empty()) invalid += "; ";
      invalid += "field 'enqueued' must be a string";
    }
    if (invalid.empty() && e.enqueued) {
      enqueued = ParseRfc3339(*e.enqueued);
      if (!enqueued) {
        invalid = "enqueued '" + std::string(e.enqueued->substr(0, 40)) +
                  "' is not an RFC 3339 time such as 2026-11-29T10:00:00Z";
      }
    }
    if (!invalid.empty()) { Reject(&out, e, "invalid-job", invalid); continue; }
    if (duplicate) { Reject(&out, e, "duplicate-id", "id '" + Str(out.id) + "' appears earlier in the file"); continue; }
    if (e.queue && !via_queue) { Reject(&out, e, "unknown-queue", "no policy has a queue named '" + Str(e.queue) + "'"); continue; }
    if (!policy) { Reject(&out, e, "unknown-policy", "policy '" + Str(e.policy) + "' is not in the configuration"); continue; }
    if (!profile) { Reject(&out, e, "unknown-profile", "profile '" + Str(e.profile) + "' is not in the configuration"); continue; }
    if (!dir_.Allowed(*policy, *profile)) {
      Reject(&out, e, "profile-not-allowed", "policy '" + config_.policies[*policy].name + "' does not list profile '" +
                                              config_.profiles[*profile].name + "'");
      continue;
    }
    out.status = JobStatus::kPending;
    out.policy = names.policies[*policy];
    out.profile = names.profiles[*profile];
    std::string note;
    Quantity need = NeedOf(config_.profiles[*profile], e, &out.need_source, &note);
    out.resources = need;
    if (!note.empty()) out.message = Keep(note);  // kept for pending jobs' messages
    QueuedJob job;
    job.policy = *policy;
    job.profile = *profile;
    job.need = need;
    job.position = static_cast<uint32_t>(i);
    ordering.push_back(MakeOrderKey(enqueued, static_cast<uint32_t>(r_.input.queued.size())));
    r_.input.queued.push_back(job);
    r_.queued_outcome.push_back(static_cast<uint32_t>(i));
  }

  SortByQueueOrder(&ordering);
  for (uint32_t rank = 0; rank < ordering.size(); ++rank) r_.input.queued[ordering[rank].queued].queue_order = rank;
}

}  // namespace

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries) {
  ResolvedJobs resolved;
  resolved.names = CopyNames(config, &resolved.text);
  Resolver(config, &resolved).Resolve(entries);
  return resolved;
}

}  // namespace rescfg
