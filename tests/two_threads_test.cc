/// Large inputs are read, resolved and written out by two threads: the
/// result must be the one of a single thread, field by field and byte for
/// byte, including what only the whole file can tell (repeated ids across
/// the halves, queue order of times equal to the nanosecond).

#include <gtest/gtest.h>

#include <string>

#include "jobs/loader.h"
#include "jobs/resolve.h"
#include "output/schedule_output.h"
#include "schedule/report.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: a, resources: 64}, {name: b, resources: 8}]
profiles:
- {name: p, allotment: 1, links: [{pool: a}, {pool: b, queue: b-p}]}
- {name: d, allotment: 2, dynamic: {parameter: runtime.gpus_request}, links: [{pool: a}]}
policies:
- {name: Dev, limit: 40, profiles: [{profile: p, queue: dev-p}, d]}
- {name: Ops, profiles: [p]}
)";

/// One line of a jobs file; `i` picks the kind and makes the id. Ids repeat
/// across the whole file (every 7th line reuses an id some 60 000 lines
/// earlier, so from one half into the other), times tie to the nanosecond
/// and differ beyond it.
std::string Line(size_t i) {
  const std::string id = "\"id\": \"j" + std::to_string(i % 7 == 3 ? i / 2 : i) + "\"";
  const std::string time = "\"enqueued\": \"2026-11-29T10:00:0" + std::to_string(i % 3) + ".123456789" +
                           (i % 5 == 0 ? std::to_string(i % 997) : "") + "Z\"";
  switch (i % 13) {
    case 0: return "{" + id + ", \"policy\": \"Dev\", \"profile\": \"p\", " + time + "}";
    case 1: return "{" + id + ", \"queue\": \"dev-p\"}";
    case 2: return "{" + id + ", \"policy\": \"Dev\", \"profile\": \"d\", \"params\": {\"runtime\": {\"gpus_request\": " +
                   std::to_string(i % 4) + "}}, " + time + "}";
    case 3: return "{" + id + ", \"policy\": \"Ops\", \"profile\": \"p\", \"state\": \"running\", \"pool\": \"b\"}";
    case 4: return "{" + id + ", \"policy\": \"Gone\", \"profile\": \"p\", \"state\": \"running\", \"pool\": \"a\", "
                   "\"resources\": 2}";
    case 5: return "{" + id + ", \"policy\": \"Ops\", \"profile\": \"d\"}";  // profile-not-allowed
    case 6: return "{" + id + ", \"policy\": \"Dev\", \"profile\": \"zzz\", " + time + "}";
    case 7: return "{" + id + ", \"policy\": \"Dev\", \"profile\": \"p\", \"enqueued\": \"yesterday\"}";
    case 8: return "{\"policy\": \"Dev\", \"profile\": \"p\"}";  // no id
    case 9: return "[" + std::to_string(i) + "]";
    case 10: return "{" + id + ", \"queue\": \"nobody\"}";
    case 11: return "{" + id + ", \"policy\": \"Ops\", \"profile\": \"p\", \"state\": \"running\", \"pool\": \"c\"}";
    default: return "{" + id + ", \"policy\": \"Ops\", \"profile\": \"p\", " + time + "}";
  }
}

void ExpectSameOutcome(const JobOutcome& a, const JobOutcome& b, size_t i) {
  ASSERT_EQ(a.entry, b.entry) << i;
  ASSERT_EQ(a.status, b.status) << i;
  ASSERT_EQ(a.id, b.id) << i;
  ASSERT_EQ(a.policy, b.policy) << i;
  ASSERT_EQ(a.profile, b.profile) << i;
  ASSERT_EQ(a.pool, b.pool) << i;
  ASSERT_EQ(a.queue, b.queue) << i;
  ASSERT_EQ(a.link, b.link) << i;
  ASSERT_EQ(a.reason, b.reason) << i;
  ASSERT_EQ(a.message, b.message) << i;
  ASSERT_EQ(a.name, b.name) << i;
  ASSERT_EQ(a.resources, b.resources) << i;
  ASSERT_EQ(a.need_source, b.need_source) << i;
}

std::string JobsText(size_t lines) {
  std::string text;
  for (size_t i = 0; i < lines; ++i) text += Line(i) + "\n";
  return text;
}

TEST(TwoThreads, ResolveAsOnePass) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const std::string text = JobsText(150000);
  const LoadedJobs jobs = LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config));
  ASSERT_EQ(jobs.entries.size(), 150000u);
  const ResolvedJobs one = ResolveJobs(config, jobs.entries, ResolveThreads::kOne);
  const ResolvedJobs two = ResolveJobs(config, jobs.entries, ResolveThreads::kAuto);
  ASSERT_EQ(one.outcomes.size(), two.outcomes.size());
  size_t duplicates = 0;
  for (size_t i = 0; i < one.outcomes.size(); ++i) {
    ExpectSameOutcome(one.outcomes[i], two.outcomes[i], i);
    duplicates += one.outcomes[i].reason == "duplicate-id" && i >= one.outcomes.size() / 2;
  }
  EXPECT_GT(duplicates, 1000u);  // the second half repeats ids of the first
  ASSERT_EQ(one.input.queued.size(), two.input.queued.size());
  for (size_t q = 0; q < one.input.queued.size(); ++q) {
    const QueuedJob &a = one.input.queued[q], &b = two.input.queued[q];
    ASSERT_EQ(a.policy, b.policy) << q;
    ASSERT_EQ(a.profile, b.profile) << q;
    ASSERT_EQ(a.need, b.need) << q;
    ASSERT_EQ(a.queue_order, b.queue_order) << q;
    ASSERT_EQ(a.position, b.position) << q;
  }
  EXPECT_EQ(one.queued_outcome, two.queued_outcome);
  EXPECT_EQ(one.rejected, two.rejected);
  EXPECT_EQ(one.running, two.running);
  for (size_t i : one.rejected) ASSERT_EQ(one.outcomes[i].status, JobStatus::kRejected) << i;
  for (size_t i : one.running) ASSERT_EQ(one.outcomes[i].status, JobStatus::kRunning) << i;
  size_t decided = 0;
  for (const JobOutcome& o : one.outcomes) decided += o.status == JobStatus::kRejected || o.status == JobStatus::kRunning;
  EXPECT_EQ(decided, one.rejected.size() + one.running.size());
  ASSERT_EQ(one.input.holdings.size(), two.input.holdings.size());
  for (size_t h = 0; h < one.input.holdings.size(); ++h) {
    ASSERT_EQ(one.input.holdings[h].pool, two.input.holdings[h].pool) << h;
    ASSERT_EQ(one.input.holdings[h].policy, two.input.holdings[h].policy) << h;
    ASSERT_EQ(one.input.holdings[h].amount, two.input.holdings[h].amount) << h;
  }
}

TEST(TwoThreads, WriteJsonLinesAsOne) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const ScheduleReport report = BuildSchedule(
      config, LoadJobsText(JobsText(100000), JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config)));
  const std::string whole = RenderSchedule(report, ScheduleFormat::kJsonLines);  // one thread, one string
  std::string pieces;
  size_t calls = 0;
  ASSERT_TRUE(RenderSchedule(report, ScheduleFormat::kJsonLines, [&](std::string_view piece) {
    pieces += piece;
    ++calls;
    return true;
  }));
  EXPECT_GT(calls, 4u);
  EXPECT_EQ(pieces.size(), whole.size());
  EXPECT_TRUE(pieces == whole);
  // A sink that fails stops the writing at once.
  calls = 0;
  EXPECT_FALSE(RenderSchedule(report, ScheduleFormat::kJsonLines, [&](std::string_view) { return ++calls < 3; }));
  EXPECT_EQ(calls, 3u);
}

TEST(TwoThreads, FillInPendingJobsAsOne) {
  // Every job of a StrictFIFO queue waits behind its head, which does not
  // fit beside a running job; of the other queue's, 7 fit, the rest wait.
  const Config config = testing::ConfigFromYaml(R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: a, resources: 8}]
profiles:
- {name: s, allotment: 8, queueing: StrictFIFO, links: [{pool: a}]}
- {name: p, allotment: 1, links: [{pool: a}]}
policies: [{name: Dev, profiles: [s, p]}]
)");
  std::string text;
  for (size_t i = 0; i < 200000; ++i) {
    text += "{\"id\": \"j" + std::to_string(i) + "\", \"policy\": \"Dev\", \"profile\": \"" + (i % 4 ? "s" : "p") +
            "\"}\n";
  }
  text += R"({"id": "r", "policy": "Dev", "profile": "p", "state": "running", "pool": "a"})" "\n";
  const ScheduleReport report = BuildSchedule(config, LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", {}));
  ASSERT_EQ(report.jobs.size(), 200001u);
  ASSERT_EQ(report.assignments.size(), 7u);
  ASSERT_EQ(report.pending.size(), 200000u - 7u);
  // Listed once each, in queue order (file order here), each with its reason.
  for (size_t k = 0; k < report.pending.size(); ++k) {
    if (k > 0) ASSERT_LT(report.pending[k - 1], report.pending[k]) << k;
    const JobOutcome& job = report.jobs[report.pending[k]];
    ASSERT_EQ(job.status, JobStatus::kPending) << k;
    ASSERT_TRUE(job.reason && job.message) << k;
    if (report.pending[k] % 4 != 0 && report.pending[k] != 1) {
      ASSERT_EQ(*job.reason, "fifo-blocked") << k;
      ASSERT_TRUE(job.message->ends_with(" (j1)")) << *job.message;
    }
  }
}

}  // namespace
}  // namespace rescfg
