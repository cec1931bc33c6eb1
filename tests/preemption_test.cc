/// Preemption decided on the pass's final state (rescfg-scheduling(7), PREEMPTION): the worked
/// example, exactly, and the corners of the rules.

#include <gtest/gtest.h>

#include "schedule/pass_preempting.h"
#include "schedule/preemption.h"
#include "schedule/problem.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

using testing::ConfigFromYaml;

const char* const kWorkedExample = testing::kWorkedExampleYaml;

constexpr int64_t kMinute = 60'000'000;
constexpr int64_t kTen = 1'795'082'400'000'000;  // some day at 10:00

enum : uint32_t { kBareMetal = 0, kH100 = 1, k4x = 2, kDev = 0, kResearch = 1 };

Holding Running(uint32_t pool, uint32_t policy, int64_t amount, int64_t started) {
  Holding h{pool, policy, Quantity::Units(amount)};
  h.started_us = started;
  return h;
}

QueuedJob Queue(uint32_t policy, uint32_t profile, int64_t need, uint32_t order, int64_t enqueued) {
  QueuedJob j{policy, profile, Quantity::Units(need), order, order};
  j.enqueued_us = enqueued;
  return j;
}

/// The worked example: Dev runs d1, d2 in Bare Metal (10:00) and d3, d4 in H100 (10:05);
/// Research enqueues r1, r2 at 10:18; now is 10:20.
SchedulingResult WorkedExample(Config& config, int64_t min_runtime) {
  config.preemption = PreemptionSettings{};
  config.preemption->min_runtime_us = min_runtime;
  config.preemption->delay_us = kMinute;
  SchedulingInput input;
  input.config = &config;
  input.holdings = {Running(kBareMetal, kDev, 4, kTen), Running(kBareMetal, kDev, 4, kTen),
                    Running(kH100, kDev, 4, kTen + 5 * kMinute), Running(kH100, kDev, 4, kTen + 5 * kMinute)};
  input.holding_profile.assign(4, k4x);
  input.queued = {Queue(kResearch, k4x, 4, 0, kTen + 18 * kMinute), Queue(kResearch, k4x, 4, 1, kTen + 18 * kMinute)};
  input.now_us = kTen + 20 * kMinute;
  return RunSchedulingPass(input);
}

TEST(Preemption, WorkedExampleOfTheSpec) {
  Config config = ConfigFromYaml(kWorkedExample);
  SchedulingResult r = WorkedExample(config, 10 * kMinute);
  EXPECT_TRUE(r.placements.empty());
  ASSERT_EQ(r.preemptions.size(), 2u);
  EXPECT_EQ(r.preemptions[0].job, 0u);
  EXPECT_EQ(r.preemptions[0].pool, kBareMetal);
  EXPECT_EQ(r.preemptions[0].victims, std::vector<uint32_t>{0});
  EXPECT_TRUE(r.preemptions[0].awaiting.empty());
  EXPECT_EQ(r.preemptions[1].job, 1u);
  EXPECT_EQ(r.preemptions[1].pool, kBareMetal);
  EXPECT_EQ(r.preemptions[1].victims, std::vector<uint32_t>{1});
  ASSERT_EQ(r.pending.size(), 2u);
  for (const PendingJob& p : r.pending) EXPECT_EQ(p.reason, PendingReason::kPreempting);
  EXPECT_EQ(r.messages[r.pending[0].message],
            "waits for 1 job of Dev to stop in Bare Metal Low END GPUs: Dev uses 16 of its 8 reserved; Research 0 of 8");
  EXPECT_EQ(r.messages[r.pending[1].message],
            "waits for 1 job of Dev to stop in Bare Metal Low END GPUs: Dev uses 12 of its 8 reserved; Research 4 of 8");
  // The pass itself is unchanged: usage is what runs and was placed.
  EXPECT_EQ(r.policy_used[kDev].ToString(), "16");
  EXPECT_EQ(r.policy_used[kResearch].ToString(), "0");
}

TEST(Preemption, WorkedExampleWithThirtyMinutesPreemptsNothing) {
  Config config = ConfigFromYaml(kWorkedExample);
  SchedulingResult r = WorkedExample(config, 30 * kMinute);
  EXPECT_TRUE(r.preemptions.empty());
  for (const PendingJob& p : r.pending) EXPECT_EQ(p.reason, PendingReason::kCapacity);
}

TEST(Preemption, WithoutTheBlockNothingIsPreempted) {
  Config config = ConfigFromYaml(kWorkedExample);
  SchedulingInput input;
  input.config = &config;
  input.holdings = {Running(kBareMetal, kDev, 4, kTen), Running(kBareMetal, kDev, 4, kTen)};
  input.queued = {Queue(kResearch, k4x, 4, 0, kTen)};
  input.now_us = kTen + 20 * kMinute;
  EXPECT_TRUE(RunSchedulingPass(input).preemptions.empty());
}

TEST(Preemption, DelayNotYetPassed) {
  Config config = ConfigFromYaml(kWorkedExample);
  config.preemption = PreemptionSettings{};
  SchedulingInput input;
  input.config = &config;
  input.holdings = {Running(kBareMetal, kDev, 8, kTen), Running(kH100, kDev, 8, kTen)};
  input.queued = {Queue(kResearch, k4x, 4, 0, kTen + 19 * kMinute + 1)};
  input.now_us = kTen + 20 * kMinute;
  EXPECT_TRUE(RunSchedulingPass(input).preemptions.empty());
  input.queued[0].enqueued_us = kUnknownTime;  // unknown wait: only with delay 0
  EXPECT_TRUE(RunSchedulingPass(input).preemptions.empty());
  config.preemption->delay_us = 0;
  EXPECT_EQ(RunSchedulingPass(input).preemptions.size(), 1u);
}

// The id ranks found beside the pass are the last tie: d1 and d2 tie in all else, and the one
// whose id comes first in byte order is taken first.
TEST(Preemption, IdRanksFoundBesideThePassBreakTheTie) {
  Config config = ConfigFromYaml(kWorkedExample);
  config.preemption = PreemptionSettings{};
  SchedulingInput input;
  input.config = &config;
  input.holdings = {Running(kBareMetal, kDev, 4, kTen), Running(kBareMetal, kDev, 4, kTen),
                    Running(kH100, kDev, 8, kTen)};
  input.holding_profile.assign(3, k4x);
  input.queued = {Queue(kResearch, k4x, 4, 0, kTen)};
  input.now_us = kTen + 20 * kMinute;
  EXPECT_EQ(RunSchedulingPass(input).preemptions.at(0).victims, std::vector<uint32_t>{0});
  const SchedulingResult r = RunSchedulingPass(input, nullptr, [] { return std::vector<uint32_t>{1, 0, 2}; });
  EXPECT_EQ(r.preemptions.at(0).victims, std::vector<uint32_t>{1});
}

TEST(Preemption, StoppingJobsAreAwaitedBeforeAnyVictim) {
  Config config = ConfigFromYaml(kWorkedExample);
  config.preemption = PreemptionSettings{};
  SchedulingInput input;
  input.config = &config;
  input.holdings = {Running(kBareMetal, kDev, 4, kTen), Running(kBareMetal, kDev, 4, kTen), Running(kH100, kDev, 8, kTen)};
  input.holdings[1].stopping = true;
  input.queued = {Queue(kResearch, k4x, 4, 0, kTen), Queue(kResearch, k4x, 4, 1, kTen)};
  input.now_us = kTen + 20 * kMinute;
  SchedulingResult r = RunSchedulingPass(input);
  ASSERT_EQ(r.preemptions.size(), 2u);
  EXPECT_TRUE(r.preemptions[0].victims.empty());
  EXPECT_EQ(r.preemptions[0].awaiting, std::vector<uint32_t>{1});
  // Dev counts 12 without its stopping job: the second may take 4 more, not below 8.
  EXPECT_EQ(r.preemptions[1].victims, std::vector<uint32_t>{0});
}

TEST(Preemption, NeverBelowTheVictimsReservationNorFromNonPreemptible) {
  Config config = ConfigFromYaml(kWorkedExample);
  config.preemption = PreemptionSettings{};
  SchedulingInput input;
  input.config = &config;
  input.holdings = {Running(kBareMetal, kDev, 4, kTen), Running(kBareMetal, kDev, 4, kTen), Running(kH100, kDev, 4, kTen),
                    Running(kH100, kResearch, 4, kTen)};
  input.queued = {Queue(kResearch, k4x, 4, 0, kTen)};
  input.now_us = kTen + 20 * kMinute;
  // Dev 12 of 8, Research 4 of 8: Research's job preempts one Dev job, in Bare Metal.
  SchedulingResult r = RunSchedulingPass(input);
  ASSERT_EQ(r.preemptions.size(), 1u);
  EXPECT_EQ(r.preemptions[0].pool, kBareMetal);
  config.policies[kDev].preemptible = false;
  EXPECT_TRUE(RunSchedulingPass(input).preemptions.empty());
}

TEST(Preemption, CostIsLinearInJobs) {
  Config config = ConfigFromYaml(kWorkedExample);
  config.preemption = PreemptionSettings{};
  config.preemption->min_runtime_us = 0;
  config.preemption->delay_us = 0;
  config.pools[kBareMetal].resources = Quantity::Units(40000);
  config.pools[kH100].resources = Quantity::Units(40000);
  config.policies[kDev].limit = Quantity::Units(80000);
  config.policies[kResearch].reserved = Quantity::Units(40000);
  config.policies[kResearch].limit = Quantity::Units(80000);
  SchedulingInput input;
  input.config = &config;
  for (int i = 0; i < 20000; ++i) input.holdings.push_back(Running(i % 2 ? kH100 : kBareMetal, kDev, 4, kTen));
  for (uint32_t i = 0; i < 20000; ++i) input.queued.push_back(Queue(kResearch, k4x, 4, i, kTen));
  input.now_us = kTen + 20 * kMinute;
  Config without = config;
  without.preemption.reset();
  SchedulingInput pass_input = input;
  pass_input.config = &without;
  SchedulingResult result = RunSchedulingPass(pass_input);
  PreemptionStats stats;
  DecidePreemptions(input, &result, &stats);
  EXPECT_EQ(stats.decisions, 10000u);
  EXPECT_LE(stats.looked, 4u * 20000);
  EXPECT_LE(stats.pools, 2u * 20000);
}

}  // namespace
}  // namespace rescfg
