/// Hand-checked cases of `rescfg simulate` (rescfg-scheduling(7), THE SIMULATION CLOCK): times and durations
/// read exactly, exact statistics, the clock's start and end, the trace
/// fields of both readers, and corners of the incremental pass that
/// generated traces rarely reach.

#include <gtest/gtest.h>

#include <string>

#include "jobs/loader.h"
#include "output/simulate_output.h"
#include "simulate/comparison.h"
#include "simulate/exact.h"
#include "simulate/report.h"
#include "util/sim_time.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

using testing::ConfigFromYaml;

Micros At(const char* text) {
  std::string error;
  auto t = ParseSimTime(text, &error);
  EXPECT_TRUE(t) << text << ": " << error;
  return t.value_or(0);
}

TEST(SimTime, ReadsRfc3339ToTheMicrosecond) {
  EXPECT_EQ(At("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(At("1970-01-01T00:00:01.5Z"), 1'500'000);
  EXPECT_EQ(At("1970-01-01T02:00:00.000001+02:00"), 1);
  EXPECT_EQ(At("1969-12-31T23:59:59.999999Z"), -1);
  std::string error;
  EXPECT_FALSE(ParseSimTime("2026-11-29T10:00:00.1234567Z", &error));
  EXPECT_NE(error.find("7 fractional digits"), std::string::npos) << error;
  EXPECT_FALSE(ParseSimTime("2026-11-29T10:00:00.0000000Z", &error)) << "zeros count: the time is read as written";
  EXPECT_FALSE(ParseSimTime("2026-11-29 10:00:00Z", &error));
  EXPECT_FALSE(ParseSimTime("", &error));
}

TEST(SimTime, WritesUtcWithSixDigits) {
  EXPECT_EQ(FormatSimTime(0), "1970-01-01T00:00:00.000000Z");
  EXPECT_EQ(FormatSimTime(-1), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(FormatSimTime(At("2026-11-29T10:00:00.5+01:00")), "2026-11-29T09:00:00.500000Z");
  EXPECT_EQ(FormatSimTime(At("9999-12-31T23:59:59.999999Z")), "9999-12-31T23:59:59.999999Z");
  EXPECT_EQ(FormatSimTime(At("0000-01-01T00:00:00Z")), "0000-01-01T00:00:00.000000Z");
  EXPECT_EQ(FormatSeconds(3'600'000'000), "3600");
  EXPECT_EQ(FormatSeconds(1'500'000), "1.5");
  EXPECT_EQ(FormatSeconds(1), "0.000001");
  EXPECT_EQ(FormatSeconds(-2'250'000), "-2.25");
}

TEST(SimTime, ReadsDurationsAsDecimalSeconds) {
  std::string error;
  EXPECT_EQ(ParseDurationSeconds("3600", &error), 3'600'000'000);
  EXPECT_EQ(ParseDurationSeconds("0.5", &error), 500'000);
  EXPECT_EQ(ParseDurationSeconds("1.000001", &error), 1'000'001);
  EXPECT_EQ(ParseDurationSeconds("0.000001", &error), 1);
  EXPECT_EQ(ParseDurationSeconds("10000000000", &error), kMaxDurationSeconds * kMicrosPerSecond);
  for (const char* bad : {"0", "0.000000", "-5", "1e3", "3.", ".5", "", " 1", "1 ", "+1", "1.0000001", "0x10",
                          "10000000000.000001", "99999999999999999999999", "nan"}) {
    EXPECT_FALSE(ParseDurationSeconds(bad, &error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
  ParseDurationSeconds("-5", &error);
  EXPECT_NE(error.find("greater than 0"), std::string::npos) << error;
  ParseDurationSeconds("1e3", &error);
  EXPECT_NE(error.find("exponent"), std::string::npos) << error;
  ParseDurationSeconds("1.0000001", &error);
  EXPECT_NE(error.find("7 fractional digits"), std::string::npos) << error;
}

TEST(Exact, RoundsHalfEvenAtTheSixthDecimal) {
  EXPECT_EQ(DivideHalfEven(U256(5), 2).ToString(), "2");
  EXPECT_EQ(DivideHalfEven(U256(7), 2).ToString(), "4");
  EXPECT_EQ(DivideHalfEven(U256(8), 3).ToString(), "3");
  EXPECT_EQ(DivideHalfEven(U256(7), 3).ToString(), "2");
  EXPECT_EQ(RoundedQuotient(U256(2), 3), "0.666667");
  EXPECT_EQ(RoundedQuotient(U256(1), 8'000'000), "0") << "0.000000125 rounds down";
  EXPECT_EQ(RoundedQuotient(U256(3), 2'000'000), "0.000002") << "0.0000015 ties to even";
  EXPECT_EQ(RoundedQuotient(U256(5), 2'000'000), "0.000002") << "0.0000025 ties to even";
  EXPECT_EQ(FormatMillionths(U256(12'500'000)), "12.5");
  // Far beyond 128 bits: a million products of 2^62 by 2^62.
  U256 sum;
  for (int i = 0; i < 1000; ++i) AddProduct(&sum, uint64_t(1) << 62, uint64_t(1) << 62);
  U256 back = sum;
  back -= U256(U128(1) << 124).Times(1000);
  EXPECT_TRUE(back.is_zero());
  U128 rem = 0;
  EXPECT_EQ(sum.DivMod(U128(1) << 124, &rem).ToString(), "1000");
  EXPECT_EQ(rem, U128(0));
  EXPECT_EQ(GpuHoursChange(U256(0), U256(0)), "0");
}

const char* kTwoPools = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: X, resources: 4}
  - {name: Y, resources: 4}
profiles:
  - {name: pa, allotment: 1, dynamic: {parameter: runtime.gpus}, queueing: StrictFIFO, links: [{pool: X}, {pool: Y}]}
  - {name: pb, allotment: 1, dynamic: {parameter: runtime.gpus}, links: [{pool: X}]}
  - {name: pc, allotment: 1, dynamic: {parameter: runtime.gpus}, links: [{pool: X}, {pool: Y}]}
policies:
  - {name: A, reserved: 2, profiles: [pa]}
  - {name: B, profiles: [pb]}
  - {name: C, profiles: [pc]}
)";

SimulationReport SimulateText(const Config& config, const std::string& trace, SimulationOptions options = {},
                     JobsFormat format = JobsFormat::kYaml) {
  LoadedJobs jobs = LoadJobsText(trace, format, "trace", DynamicParameterPaths(config));
  EXPECT_FALSE(jobs.unusable);
  return BuildSimulation(config, std::move(jobs), options);
}

const SimEntry& Entry(const SimulationReport& r, const std::string& id) {
  for (const SimEntry& e : r.entries) {
    if (e.outcome.id == id) return e;
  }
  ADD_FAILURE() << "no entry " << id;
  return r.entries.front();
}

const char* kHeader = "apiVersion: rescfg/v1\nkind: JobList\njobs:\n";

TEST(Simulate, AReleaseLetsABystanderPastAProtectionThatStays) {
  // A's StrictFIFO head (2 GPUs) fits neither pool, so A2 behind it stays
  // protected and reaches both. B1 (1.25 on X) is refused while X has 1.5
  // free; when 0.25 more frees up on X the margin the reservation needs
  // there is the same, but B1 now fits beside it and starts.
  Config config = ConfigFromYaml(kTwoPools);
  std::string trace = std::string(kHeader) +
      "  - {id: r1, state: running, pool: X, policy: C, profile: pc, resources: 2.25}\n"
      "  - {id: r2, state: running, pool: X, policy: C, profile: pc, resources: 0.25, duration: 1}\n"
      "  - {id: r3, state: running, pool: Y, policy: C, profile: pc, resources: 2.5}\n"
      "  - {id: a1, policy: A, profile: pa, params: {runtime: {gpus: 2}}, submitted: 2027-01-15T08:00:00Z, duration: 10}\n"
      "  - {id: a2, policy: A, profile: pa, params: {runtime: {gpus: 0.5}}, submitted: 2027-01-15T08:00:00Z, duration: 10}\n"
      "  - {id: b1, policy: B, profile: pb, params: {runtime: {gpus: 1.25}}, submitted: 2027-01-15T08:00:00Z, duration: 10}\n";
  SimulationReport r = SimulateText(config, trace);
  EXPECT_EQ(Entry(r, "b1").started, At("2027-01-15T08:00:01Z"));
  EXPECT_EQ(Entry(r, "b1").finished, At("2027-01-15T08:00:11Z"));
  EXPECT_EQ(*Entry(r, "a1").outcome.reason, "capacity");
  EXPECT_EQ(*Entry(r, "a2").outcome.reason, "fifo-blocked");
  EXPECT_EQ(r.end, At("2027-01-15T08:00:11Z"));
  EXPECT_EQ(r.events, 3u);  // the start, r2's finish, b1's finish
}

const char* kOnePool = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: gpu, resources: 2}]
profiles: [{name: one, allotment: 1, links: [{pool: gpu}]}]
policies: [{name: team, profiles: [one]}, {name: other, profiles: [one]}]
)";

TEST(Simulate, EndIsTheLastEventOrUntil) {
  Config config = ConfigFromYaml(kOnePool);
  std::string trace = std::string(kHeader) +
      "  - {id: a, policy: team, profile: one, submitted: 2027-01-15T08:00:00Z, duration: 60}\n"
      "  - {id: b, policy: team, profile: one, submitted: 2027-01-15T08:00:30Z, duration: 60}\n"
      "  - {id: c, policy: team, profile: one, submitted: 2027-01-15T08:00:30Z, duration: 0.5}\n";
  SimulationReport all = SimulateText(config, trace);
  EXPECT_EQ(all.start, At("2027-01-15T08:00:00Z"));
  EXPECT_EQ(all.end, At("2027-01-15T08:01:30Z"));  // b's finish
  EXPECT_EQ(Entry(all, "c").started, At("2027-01-15T08:01:00Z"));  // behind a, in queue order b first
  EXPECT_EQ(Entry(all, "c").wait, 30 * kMicrosPerSecond);

  SimulationOptions until;
  until.until = At("2027-01-15T08:00:45Z");
  SimulationReport cut = SimulateText(config, trace, until);
  EXPECT_EQ(cut.end, until.until);
  EXPECT_EQ(Entry(cut, "a").status, SimStatus::kRunning);
  EXPECT_FALSE(Entry(cut, "a").finished);
  EXPECT_EQ(*Entry(cut, "c").outcome.reason, "capacity");
  EXPECT_EQ(Entry(cut, "c").wait, 15 * kMicrosPerSecond);
  // An event at --until still happens; nothing after it does.
  until.until = At("2027-01-15T08:01:00Z");
  SimulationReport at = SimulateText(config, trace, until);
  EXPECT_EQ(Entry(at, "a").status, SimStatus::kFinished);
  EXPECT_EQ(Entry(at, "c").started, At("2027-01-15T08:01:00Z"));
  EXPECT_EQ(Entry(at, "c").status, SimStatus::kRunning) << "its finish is after --until";
  // --until past the last event: the end is the last event.
  until.until = At("2027-01-16T00:00:00Z");
  EXPECT_EQ(SimulateText(config, trace, until).end, At("2027-01-15T08:01:30Z"));
  // GPU-hours and utilisation over the span: 60 + 60 + 0.5 GPU-seconds in 90 s on 2 GPUs.
  EXPECT_EQ(all.pools[0].GpuHours(), "0.033472");
  EXPECT_EQ(*all.pools[0].utilisation, "0.669444");
  EXPECT_EQ(all.policies[0].GpuHours(), "0.033472");
  EXPECT_EQ(all.policies[1].GpuHours(), "0");
  EXPECT_FALSE(all.policies[1].wait);
}

TEST(Simulate, TraceFieldsOfBothReaders) {
  Config config = ConfigFromYaml(kOnePool);
  // YAML: a quoted duration is a string; enqueued is ignored in a trace,
  // even when it is not a time; a running entry's submitted is ignored.
  std::string yaml = std::string(kHeader) +
      "  - {id: q, policy: team, profile: one, submitted: 2027-01-15T08:00:00Z, duration: \"60\"}\n"
      "  - {id: e, policy: team, profile: one, submitted: '2027-01-15T08:00:00Z', duration: 60, enqueued: soon}\n"
      "  - {id: m, policy: team, profile: one, submitted: 2027-01-15T08:00:00Z, duration: {seconds: 60}}\n"
      "  - {id: r, state: running, pool: gpu, policy: team, profile: one, submitted: whenever}\n";
  SimulationReport r = SimulateText(config, yaml);
  EXPECT_EQ(*Entry(r, "q").outcome.reason, "invalid-job");
  EXPECT_NE(MessageOf(Entry(r, "q").outcome).find("not a string"), std::string::npos);
  EXPECT_EQ(Entry(r, "e").status, SimStatus::kFinished);
  EXPECT_EQ(*Entry(r, "m").outcome.reason, "invalid-job");
  EXPECT_EQ(Entry(r, "r").status, SimStatus::kRunning);
  EXPECT_FALSE(Entry(r, "r").submitted);
  // JSON Lines: a number's text exactly as written, a string is not a number.
  std::string jsonl =
      "{\"id\": \"a\", \"policy\": \"team\", \"profile\": \"one\", \"submitted\": \"2027-01-15T08:00:00Z\", \"duration\": 0.000001}\n"
      "{\"id\": \"b\", \"policy\": \"team\", \"profile\": \"one\", \"submitted\": \"2027-01-15T08:00:00Z\", \"duration\": \"1\"}\n"
      "{\"id\": \"c\", \"policy\": \"team\", \"profile\": \"one\", \"submitted\": 1800000000, \"duration\": 1}\n"
      "{\"id\": \"d\", \"policy\": \"team\", \"profile\": \"one\", \"submitted\": \"2027-01-15T08:00:00Z\", \"duration\": true}\n";
  SimulationReport j = SimulateText(config, jsonl, {}, JobsFormat::kJsonLines);
  EXPECT_EQ(Entry(j, "a").finished, At("2027-01-15T08:00:00.000001Z"));
  EXPECT_EQ(*Entry(j, "b").outcome.reason, "invalid-job");
  EXPECT_EQ(*Entry(j, "c").outcome.reason, "invalid-job");
  EXPECT_EQ(*Entry(j, "d").outcome.reason, "invalid-job");
  EXPECT_EQ(j.rejected, 3u);
}

TEST(Simulate, StartAfterSubmissionsAndATraceWithoutQueuedEntries) {
  Config config = ConfigFromYaml(kOnePool);
  std::string trace = std::string(kHeader) +
      "  - {id: a, policy: team, profile: one, submitted: 2027-01-15T08:00:00Z, duration: 60}\n"
      "  - {id: r, state: running, pool: gpu, policy: other, profile: one, duration: 30}\n";
  SimulationOptions options;
  options.start = At("2027-01-15T09:00:00Z");
  SimulationReport r = SimulateText(config, trace, options);
  EXPECT_EQ(Entry(r, "a").started, options.start);
  EXPECT_EQ(Entry(r, "a").wait, 3600 * kMicrosPerSecond);
  EXPECT_EQ(Entry(r, "r").finished, At("2027-01-15T09:00:30Z"));
  EXPECT_EQ(r.policies[1].GpuHours(), "0.008333");  // 30 GPU-seconds

  std::string running = std::string(kHeader) + "  - {id: r, state: running, pool: gpu, policy: team, profile: one, duration: 30}\n";
  SimulationReport at_start = SimulateText(config, running, options);
  EXPECT_EQ(at_start.start, options.start);
  EXPECT_EQ(at_start.end, options.start);
  EXPECT_EQ(Entry(at_start, "r").status, SimStatus::kRunning);
  EXPECT_FALSE(at_start.pools[0].utilisation);
  SimulationReport nowhere = SimulateText(config, running);
  EXPECT_FALSE(nowhere.start);
  EXPECT_FALSE(nowhere.end);
  EXPECT_EQ(nowhere.events, 0u);
  EXPECT_FALSE(nowhere.pools[0].utilisation);
  EXPECT_EQ(nowhere.pools[0].GpuHours(), "0");
  // Both render, null where there is nothing.
  EXPECT_NE(RenderSimulation(nowhere, SimulateFormat::kJson).find("\"start\": null"), std::string::npos);
}

TEST(Simulate, DisabledPlacesNothingButTimeStillPasses) {
  Config config = ConfigFromYaml(std::string(kOnePool) + "enabled: false\n");
  std::string trace = std::string(kHeader) +
      "  - {id: a, policy: team, profile: one, submitted: 2027-01-15T08:00:00Z, duration: 60}\n"
      "  - {id: r, state: running, pool: gpu, policy: team, profile: one, duration: 30}\n"
      "  - {id: b, policy: team, profile: one, submitted: 2027-01-15T08:10:00Z, duration: 60}\n";
  SimulationReport r = SimulateText(config, trace);
  EXPECT_EQ(*Entry(r, "a").outcome.reason, "disabled");
  EXPECT_EQ(Entry(r, "a").wait, 600 * kMicrosPerSecond);
  EXPECT_EQ(Entry(r, "r").status, SimStatus::kFinished);
  EXPECT_EQ(r.end, At("2027-01-15T08:10:00Z"));
}

}  // namespace
}  // namespace rescfg
