/// What a ClearML task snapshot says for preemption (rescfg(5), JOBS FILE, ClearML task
/// snapshots): a running task being stopped (`status_message: stopping`), when it began
/// (`started`), and when a queued task joined its queue (`status_changed`).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "clearml/tasks.h"

namespace rescfg::clearml {
namespace {

LoadedJobs Tasks(const std::string& text) { return LoadClearmlTasksText(text, "tasks.json", Companions{}, {}); }

/// The one entry of a one-task array, or of one JSON Lines line (`lines`).
JobEntry One(const std::string& task, LoadedJobs* keep, bool lines = false) {
  *keep = lines ? LoadClearmlTasksText(task + "\n", "tasks.jsonl", Companions{}, {}) : Tasks("[" + task + "]");
  EXPECT_FALSE(keep->unusable);
  if (keep->entries.size() != 1) {
    ADD_FAILURE() << "expected one entry, got " << keep->entries.size();
    return {};
  }
  return keep->entries[0];
}

std::string Running(const std::string& fields) {
  return R"({"id": "t1", "status": "in_progress", "execution": {"queue": "q-dev"})" + fields + "}";
}

TEST(ClearmlPreemptionFields, StoppingComesFromTheStatusMessageOfARunningTask) {
  for (bool lines : {false, true}) {
    LoadedJobs keep;
    JobEntry e = One(Running(R"(, "status_message": "stopping", "status_reason": "preempted")"), &keep, lines);
    EXPECT_EQ(e.invalid, "");
    EXPECT_EQ(e.stopping, "true") << lines;
    const struct {
      const char* fields;
    } not_stopping[] = {{""}, {R"(, "status_message": "")"}, {R"(, "status_message": "Stopping")"},
                        {R"(, "status_message": "Changed by clearml-agent node-1:gpu0")"},
                        {R"(, "status_message": null)"}, {R"(, "status_message": 5)"},
                        {R"(, "status_message": ["stopping"])"}};
    for (const auto& c : not_stopping) {
      e = One(Running(c.fields), &keep, lines);
      EXPECT_EQ(e.stopping, std::nullopt) << c.fields;
      EXPECT_EQ(e.invalid, "") << c.fields;
    }
  }
}

TEST(ClearmlPreemptionFields, OnlyARunningTaskIsStopping) {
  LoadedJobs keep;
  // A queued task stopped without a live worker leaves its queue; one still
  // listed with this message is not running, so not stopping.
  JobEntry e = One(R"({"id": "t1", "status": "queued", "status_message": "stopping", "execution": {"queue": "q"}})",
                   &keep);
  EXPECT_EQ(e.state, "queued");
  EXPECT_EQ(e.stopping, std::nullopt);
}

TEST(ClearmlPreemptionFields, StartedIsTheRunStartOfARunningTaskOnly) {
  LoadedJobs keep;
  JobEntry e = One(Running(R"(, "started": "2026-11-29T10:00:00.123000+00:00")"), &keep);
  EXPECT_EQ(e.started, "2026-11-29T10:00:00.123000+00:00");
  e = One(Running(R"(, "started": null)"), &keep);
  EXPECT_EQ(e.started, std::nullopt);
  e = One(Running(R"(, "started": 1764410400)"), &keep);
  EXPECT_EQ(e.started, std::nullopt) << "not a time: says nothing";
  EXPECT_EQ(e.invalid, "");
  // A queued task preempted earlier keeps its first start on the server: not a run now.
  e = One(R"({"id": "t1", "status": "queued", "started": "2026-11-29T10:00:00+00:00",
              "status_changed": "2026-11-29T10:30:00+00:00", "execution": {"queue": "q"}})",
          &keep);
  EXPECT_EQ(e.started, std::nullopt);
  EXPECT_EQ(e.enqueued, "2026-11-29T10:30:00+00:00") << "its wait starts at status_changed";
}

TEST(ClearmlPreemptionFields, KeysGivenTwiceMakeTheTaskInvalid) {
  LoadedJobs keep;
  JobEntry e = One(Running(R"(, "status_message": "stopping", "status_message": "")"), &keep);
  EXPECT_EQ(e.invalid, "duplicate key 'status_message'");
  e = One(Running(R"(, "started": "2026-11-29T10:00:00Z", "started": "2026-11-29T11:00:00Z")"), &keep);
  EXPECT_EQ(e.invalid, "duplicate key 'started'");
}

}  // namespace
}  // namespace rescfg::clearml
