/// Large inputs are read, resolved and written out by two threads: the
/// result must be the one of a single thread, field by field and byte for
/// byte, including what only the whole file can tell (repeated ids across
/// the halves, queue order of times equal to the nanosecond).

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "decide/report.h"
#include "jobs/loader.h"
#include "jobs/resolve.h"
#include "output/schedule_output.h"
#include "support/same_resolution.h"
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
  size_t duplicates = 0;
  for (size_t i = one.outcomes.size() / 2; i < one.outcomes.size(); ++i) {
    duplicates += one.outcomes[i].reason == "duplicate-id";
  }
  EXPECT_GT(duplicates, 1000u);  // the second half repeats ids of the first
  testing::ExpectSameResolution(one, two);
}

/// The same file without repeated ids, with blank and white lines (more in
/// the first half, so the second half's outcomes move down when joined),
/// and lines long enough to be over 8 MB in all (read in two halves).
std::string UniqueIdsText(size_t lines) {
  std::string text;
  for (size_t i = 0; i < lines; ++i) {
    if (i % 997 == 5 && i < lines / 2) text += i % 2 ? "\n" : " \t\r\n";
    std::string line = Line(i);
    const size_t id = line.find("\"j");
    if (i % 7 == 3 && id != std::string::npos) line.replace(id, 2, "\"u");  // no id repeats
    text += line + "\n";
  }
  return text;
}

TEST(TwoThreads, ResolveWhileReadingAsAfterReading) {
  const Config config = testing::ConfigFromYaml(kConfig);
  for (const size_t lines : {150000u, 3000u}) {  // two halves, then one
    const std::string text = UniqueIdsText(lines);
    ASSERT_TRUE(lines < 100000 || text.size() > (size_t(8) << 20));
    const LoadedJobs read = LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config));
    const LoadedJobs resolved =
        LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config), &config);
    ASSERT_TRUE(resolved.resolved) << lines;
    EXPECT_TRUE(resolved.entries.empty());
    EXPECT_EQ(read.findings.size(), resolved.findings.size());
    const ResolvedJobs after = ResolveJobs(config, read.entries);
    size_t rejected = 0, running = 0;
    for (const JobOutcome& o : after.outcomes) {
      rejected += o.status == JobStatus::kRejected;
      running += o.status == JobStatus::kRunning;
      ASSERT_NE(o.reason, "duplicate-id");
    }
    EXPECT_GT(rejected, lines / 4);
    EXPECT_GT(running, lines / 10);
    testing::ExpectSameResolution(after, *resolved.resolved);
  }
}

/// Ids repeat across the halves, and the first half has blank lines (so
/// the repeated slots of the second half are not its outcomes' indexes):
/// the second reading, knowing which ids repeat, gives the duplicates.
TEST(TwoThreads, RepeatedIdsAreResolvedInASecondReading) {
  const Config config = testing::ConfigFromYaml(kConfig);
  std::string text;
  for (size_t i = 0; i < 150000; ++i) text += (i % 991 == 7 && i < 75000 ? "\n" : "") + Line(i) + "\n";
  const LoadedJobs read = LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config));
  const LoadedJobs resolved =
      LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config), &config);
  ASSERT_TRUE(resolved.resolved);
  EXPECT_TRUE(resolved.entries.empty());
  EXPECT_EQ(resolved.findings.size(), read.findings.size());
  const ResolvedJobs after = ResolveJobs(config, read.entries);
  size_t duplicates = 0;
  for (const JobOutcome& o : after.outcomes) duplicates += o.reason == "duplicate-id";
  EXPECT_GT(duplicates, 1000u);
  testing::ExpectSameResolution(after, *resolved.resolved);
}

/// A thread done with its half takes part of the other's: resolved in the
/// halves and parts cut from either (each by one thread or the other, the
/// parts in any order), the result is that of one pass, and ids repeated
/// across parts are found for the second reading.
TEST(TwoThreads, ResolvedInPartsAsOnePass) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const LoadedJobs jobs = LoadJobsText(JobsText(3000), JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config));
  const std::vector<JobEntry>& entries = jobs.entries;
  const size_t n = entries.size();
  ASSERT_EQ(n, 3000u);
  const ResolvedJobs one = ResolveJobs(config, entries, ResolveThreads::kOne);
  struct Case {
    size_t second_from;
    std::vector<size_t> cuts;  ///< where the other parts start
    bool backwards;            ///< the parts resolved last first
  };
  std::vector<size_t> every_97;
  for (size_t at = 97; at < n; at += 97) every_97.push_back(at);
  const Case cases[] = {
      {1500, {}, false},       {1500, {700, 1100, 2900}, false}, {1500, {700, 1100, 2900}, true},
      {n, {1000, 2000}, true}, {0, {10, 20, 2999}, false},       {1455, every_97, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.second_from) + " and " + std::to_string(c.cuts.size()) + " cuts");
    std::vector<bool> repeated;
    std::optional<ResolvedJobs> result;
    for (int reading = 0; reading < 2 && !result; ++reading) {
      ResolutionAsRead resolution(config, n, c.second_from, repeated);
      std::vector<size_t> starts = c.cuts;
      starts.push_back(0);
      starts.push_back(c.second_from);
      std::sort(starts.begin(), starts.end());
      starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
      struct Part {
        size_t number, from, to;
      };
      std::vector<Part> parts;
      for (size_t k = 0; k < starts.size(); ++k) {
        const size_t from = starts[k], to = k + 1 < starts.size() ? starts[k + 1] : n;
        const size_t thread = k % 2;
        const size_t number = from == 0 ? 0 : from == c.second_from ? 1 : resolution.AddPart(from, to - from, thread);
        parts.push_back({number, from, to});
      }
      if (c.backwards) std::reverse(parts.begin(), parts.end());
      for (const Part& part : parts) {
        for (size_t at = part.from; at < part.to; at += 128) {
          resolution.Resolve(part.number, entries.data() + at, std::min<size_t>(128, part.to - at));
        }
      }
      std::vector<bool> found;
      result = std::move(resolution).Finish(&found);
      if (!result) {
        ASSERT_EQ(reading, 0);  // ids repeat: known the second time
        ASSERT_EQ(found.size(), n);
        ASSERT_GT(std::count(found.begin(), found.end(), true), 100);
        repeated = std::move(found);
      }
    }
    ASSERT_TRUE(result);
    testing::ExpectSameResolution(one, *result);
  }
}

/// A second half of blank lines is done long before the first: its thread
/// then takes lines of the first half, numbered as if one thread had read
/// them all (their lines, their entries).
/// With ids repeated and blank lines before the cuts, the second reading
/// cuts where the first did: the repeated slots are the same entries'.
TEST(TwoThreads, LinesTakenFromTheOtherHalfAreNumberedAsInTheFile) {
  const Config config = testing::ConfigFromYaml(kConfig);
  for (const bool repeats : {false, true}) {
    SCOPED_TRACE(repeats ? "ids repeat" : "no id repeats");
    std::string text;
    if (repeats) {
      for (size_t i = 0; i < 70000; ++i) text += (i % 991 == 7 ? "\n" : "") + Line(i) + "\n";
    } else {
      text = UniqueIdsText(70000);
    }
    // Misspelt keys here and there: their warnings come in the order of
    // their first entries, each at its first line, however the lines were shared.
    auto misspelt = [](size_t i, bool second) {
      return "{\"id\": \"m" + std::to_string(i) + "\", " +
             (second ? R"("profle": "p", "polcy": "Dev", "enqeued": 1})" : R"("polcy": "Dev", "profle": "p"})") + "\n";
    };
    text += misspelt(0, repeats);
    const size_t lines = text.size() / 6;
    for (size_t i = 0; i < lines; ++i) {
      text += i % 1000 == 999 ? Line(i + 1000000) + "\n" : i % 7919 == 5 ? misspelt(i, i % 2) : " \t   \n";
    }
    ASSERT_GT(text.size(), size_t(8) << 20);
    const LoadedJobs read = LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config));
    size_t typos = 0;
    for (const Finding& f : read.findings) typos += f.code == "unknown-job-key";
    ASSERT_EQ(typos, 3u);
    for (int run = 0; run < 3; ++run) {  // cut wherever the threads happen to meet
      const LoadedJobs resolved =
          LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", DynamicParameterPaths(config), &config);
      ASSERT_TRUE(resolved.resolved);
      ASSERT_EQ(read.findings.size(), resolved.findings.size());
      for (size_t k = 0; k < read.findings.size(); ++k) {
        EXPECT_EQ(resolved.findings[k].code, read.findings[k].code) << k;
        EXPECT_EQ(resolved.findings[k].mark.line, read.findings[k].mark.line) << k;
        EXPECT_EQ(resolved.findings[k].message, read.findings[k].message) << k;
      }
      testing::ExpectSameResolution(ResolveJobs(config, read.entries), *resolved.resolved);
    }
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
    if (k > 0) {
      ASSERT_LT(report.pending[k - 1], report.pending[k]) << k;
    }
    const JobOutcome& job = report.jobs[report.pending[k]];
    ASSERT_EQ(job.status, JobStatus::kPending) << k;
    ASSERT_TRUE(job.reason && HasMessage(job)) << k;
    if (report.pending[k] % 4 != 0 && report.pending[k] != 1) {
      ASSERT_EQ(*job.reason, "fifo-blocked") << k;
      ASSERT_TRUE(MessageOf(job).ends_with(" (j1)")) << MessageOf(job);
    }
  }
}

}  // namespace
}  // namespace rescfg
