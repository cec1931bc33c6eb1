/// `explain` replays the pass: for every queued job of a generated
/// scenario, its story must agree with the schedule and, step by step, with
/// the reference semantics of rescfg-scheduling(7), THE PASS (a job placed ahead "by key" exactly
/// when the explained job had a target then; "strict-fifo" exactly when it
/// was not its queue's head; otherwise the rule that refused it).

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

#include "clearml/queues.h"
#include "clearml/tasks.h"
#include "decide/report.h"
#include "explain/explain.h"
#include "support/generators.h"
#include "support/reference_scheduler.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

using testing::GenScenario;
using testing::Scenario;

bool ByKey(AheadRule r) {
  return r == AheadRule::kExecutionPriority || r == AheadRule::kPolicyPriority || r == AheadRule::kQueueOrder ||
         r == AheadRule::kFilePosition;
}

/// Teams contending for two pools with reservations and limits: where rule
/// 3 keeps borrowers out (the worked example's shape, at random sizes).
rc::Gen<Scenario> GenContended() {
  return rc::gen::exec([] {
    auto config = std::make_shared<Config>();
    Config& c = *config;
    for (int x = 0; x < 2; ++x) {
      Pool pool;
      pool.name = "pool-" + std::to_string(x);
      pool.resources = *testing::OneOf({"4", "8"});
      c.pools.push_back(pool);
    }
    Profile profile;
    profile.name = "gpus";
    profile.allotment = *testing::OneOf({"2", "4"});
    for (int x : testing::Shuffled(std::vector<int>{0, 1})) profile.links.push_back(LinkTo(c.pools[x].name));
    c.profiles.push_back(profile);
    int policies = *rc::gen::inRange(2, 4);
    for (int p = 0; p < policies; ++p) {
      Policy policy;
      policy.name = "policy-" + std::to_string(p);
      policy.reserved = *testing::OneOf({"0", "4", "8"});
      if (*rc::gen::arbitrary<bool>()) policy.limit = std::max(policy.reserved, *testing::OneOf({"4", "8", "16"}));
      policy.profiles.push_back({profile.name, std::nullopt, {}, {}, {}});
      c.policies.push_back(policy);
    }
    for (size_t p = c.policies.size(); !testing::ReservationsHonourable(c) && p > 0; --p) c.policies[p - 1].reserved = {};
    ApplyDefaults(c);
    Scenario s;
    s.config = config;
    int jobs = *rc::gen::inRange(3, 11);
    for (int k = 0; k < jobs; ++k) {
      QueuedJob job;
      job.policy = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
      job.need = c.profiles[0].allotment;
      job.queue_order = job.position = static_cast<uint32_t>(k);
      s.queued.push_back(job);
      JobEntry e;
      e.entry = static_cast<size_t>(k) + 1;
      e.id = testing::Keep("job-" + std::to_string(k));
      e.policy = testing::Keep(c.policies[job.policy].name);
      e.profile = "gpus";
      s.entries.push_back(e);
    }
    return s;
  });
}

void CheckExplanations(const Scenario& s) {
  const ScheduleReport report = BuildSchedule(*s.config, s.entries);
  const SchedulingInput input = s.Input();
  const SchedulingResult slow = reference::Schedule(input);
  reference::Semantics sem(input);
  // A few jobs of each scenario (each explanation replays the whole pass).
  std::vector<uint32_t> picked;
  for (uint32_t job = 0; job < s.queued.size(); ++job) picked.push_back(job);
  picked = testing::Shuffled(picked);
  if (picked.size() > 3) picked.resize(3);
  for (uint32_t job : picked) {
    const std::string id = "job-" + std::to_string(job);
    std::string error;
    auto e = ExplainJob(*s.config, s.entries, id, 1000, &error);
    RC_ASSERT(e.has_value());
    // Where the job was decided in the reference's placement order.
    size_t decided = slow.placements.size();
    for (size_t k = 0; k < slow.placements.size(); ++k) {
      if (slow.placements[k].job == job) decided = k;
    }
    if (decided < slow.placements.size()) {
      RC_ASSERT(e->status == "assigned");
      RC_ASSERT(e->placed_at == decided + 1);
    } else {
      RC_ASSERT(e->status == "pending");
      RC_ASSERT(!e->placed_at.has_value());
    }
    const auto& links = sem.Links(s.queued[job].profile);
    RC_ASSERT(e->pools.size() == links.size());
    // Replay the reference's placements and compare each listed job's rule.
    reference::State state = sem.Initial();
    std::vector<size_t> seen(links.size(), 0);
    const bool considered = s.config->enabled && sem.Schedulable(job);
    for (size_t k = 0; k < decided; ++k) {
      const Placement& p = slow.placements[k];
      auto at = std::find(links.begin(), links.end(), p.pool);
      if (considered && at != links.end()) {
        const size_t i = static_cast<size_t>(at - links.begin());
        RC_ASSERT(seen[i] < e->pools[i].ahead.size());
        const AheadJob& a = e->pools[i].ahead[seen[i]++];
        RC_ASSERT(a.job == "job-" + std::to_string(p.job));
        const bool strict = s.config->profiles[s.queued[job].profile].queueing == Queueing::kStrictFIFO;
        const bool head = !strict || sem.QueueHead(state, job) == job;
        RC_ASSERT((a.rule == AheadRule::kStrictFifo) == !head);
        if (head) RC_ASSERT(ByKey(a.rule) == sem.TargetLink(state, job).has_value());
        if (a.rule == AheadRule::kOwnLimit) RC_ASSERT(state.used[s.queued[job].policy] + s.queued[job].need > sem.Limit(s.queued[job].policy));
        if (a.rule == AheadRule::kReservation) RC_ASSERT(sem.ReservationRefuses(state, job, p.pool));
        if (a.rule == AheadRule::kNoRoom) RC_ASSERT(s.queued[job].need > sem.Free(state, p.pool));
      }
      const QueuedJob& placed = s.queued[p.job];
      state.held[p.pool] += placed.need;
      state.used[placed.policy] += placed.need;
      state.decided[p.job] = true;
    }
    for (size_t i = 0; i < links.size(); ++i) {
      RC_ASSERT(e->pools[i].ahead_total == seen[i]);
      RC_ASSERT(e->pools[i].free_when_decided == sem.Free(state, links[i]));
    }
  }
}

RC_GTEST_PROP(Explain, AgreesWithTheScheduleAndTheReference, ()) { CheckExplanations(*GenScenario()); }

RC_GTEST_PROP(Explain, NamesTheReservationsThatKeptBorrowersOut, ()) { CheckExplanations(*GenContended()); }

}  // namespace
}  // namespace rescfg

namespace rescfg {
namespace {

/// A task listed first among its queue's entries comes before an earlier
/// one that is not listed; `explain` says so, also when the snapshot was
/// resolved as it was read (its entries gone by then).
TEST(Explain, NamesTheListingOfAClearmlQueue) {
  const Config config = testing::ConfigFromYaml(R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: a, resources: 1}]
profiles: [{name: p, allotment: 1, links: [{pool: a}]}]
policies: [{name: Dev, profiles: [{profile: p, queue: dev-p}]}]
)");
  const clearml::QueueList queues = clearml::ReadQueuesText(
      R"([{"id": "q1", "name": "dev-p", "entries": [{"task": "listed"}]}])", "queues.json");
  const std::string tasks =
      R"({"id": "early", "status": "queued", "status_changed": "2026-11-29T09:00:00Z", "execution": {"queue": "q1"}})"
      "\n"
      R"({"id": "listed", "status": "queued", "status_changed": "2026-11-29T10:00:00Z", "execution": {"queue": "q1"}})"
      "\n";
  for (const Config* resolve : {static_cast<const Config*>(nullptr), &config}) {
    SCOPED_TRACE(resolve ? "resolved as read" : "read first");
    const clearml::Companions companions{&queues, nullptr, nullptr};
    LoadedJobs jobs = clearml::LoadClearmlTasksText(
        tasks, "tasks.jsonl", [&] { return companions; }, DynamicParameterPaths(config), resolve);
    ASSERT_FALSE(jobs.unusable);
    ASSERT_EQ(resolve != nullptr, jobs.resolved != nullptr);
    std::string error;
    auto e = ExplainJob(config, std::move(jobs), "early", 10, &error);
    ASSERT_TRUE(e) << error;
    EXPECT_EQ(e->status, "pending");
    ASSERT_EQ(e->pools.size(), 1u);
    ASSERT_EQ(e->pools[0].ahead.size(), 1u);
    EXPECT_EQ(e->pools[0].ahead[0].job, "listed");
    EXPECT_EQ(e->pools[0].ahead[0].detail,
              "listed at place 1 in the entries of ClearML queue 'dev-p' (--clearml-queues), which order a queue "
              "before any time; it is not listed there");
  }
}

}  // namespace
}  // namespace rescfg
