// Time in `rescfg sync` is read and waited on the clock it is given
// (util/clock.h): the retries' backoff, the wait for the server and the
// bound on a cycle's reading run on a test clock, instantly. Each test
// would fail (or hang on the real time) if the code read the machine's
// clocks or slept.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>

#include "state/state_store.h"
#include "support/fake_transport.h"
#include "support/provisioned_state.h"
#include "support/temp_dir.h"
#include "sync/api_client.h"
#include "sync/cycle.h"
#include "sync/journal.h"
#include "sync/read_bounds.h"
#include "sync/server_snapshot.h"

namespace rescfg {
namespace {

using sync::HttpRequest;
using sync::HttpResponse;
using testing::FakeTransport;
using testing::OkAnswer;
using testing::RawAnswer;

constexpr int64_t kSecond = 1'000'000;

/// A test clock that also keeps each wait it was asked for.
class RecordingClock final : public ManualClock {
 public:
  explicit RecordingClock(int64_t utc = 0) : ManualClock(utc) {}
  void Sleep(int64_t micros) override {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      waits_.push_back(micros);
    }
    ManualClock::Sleep(micros);
  }
  std::vector<int64_t> waits() const {
    std::lock_guard<std::mutex> hold(mutex_);
    return waits_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<int64_t> waits_;
};

/// Wall-clock seconds a block took (the test's own check that nothing slept).
class WallTimer {
 public:
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// What the libcurl transport does with a cycle's read guard, in front of a
/// fake server whose every answer takes `per_call` on the test clock.
class SlowGuardedServer : public sync::HttpTransport {
 public:
  SlowGuardedServer(FakeTransport* server, ManualClock* clock, sync::ReadGuard* guard, int64_t per_call)
      : server_(server), clock_(clock), guard_(guard), per_call_(per_call) {}
  HttpResponse Post(const HttpRequest& request) override {
    std::string why;
    if (!guard_->BeforeCall(&why)) return Aborted(why);
    clock_->Advance(per_call_);
    HttpResponse response = server_->Post(request);
    if (!guard_->WhileReceiving(response.body.size(), &why)) return Aborted(why);
    guard_->AfterCall(response.body.size());
    return response;
  }

 private:
  static HttpResponse Aborted(const std::string& why) {
    HttpResponse response;
    response.outcome = HttpResponse::Outcome::kAborted;
    response.error = why;
    return response;
  }
  FakeTransport* server_;
  ManualClock* clock_;
  sync::ReadGuard* guard_;
  int64_t per_call_;
};

TEST(SyncClockTest, BackoffWaitsOnTheInjectedClockAndGrowsToItsCap) {
  // Waits of 10 s growing to a cap of 40 s: slept for real, this test would take minutes.
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("workers.get_all", {RawAnswer(503, "busy"), RawAnswer(502, "bad gateway"), RawAnswer(503, "busy"),
                                    RawAnswer(504, "timeout"), OkAnswer(R"({"workers": []})")});
  RecordingClock clock;
  const sync::RetryPolicy policy{6, 10'000, 40'000};
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, policy, clock);
  const WallTimer timer;
  const sync::ApiAnswer answer = api.Call("workers.get_all", "{}");
  EXPECT_LT(timer.Seconds(), 5.0);
  ASSERT_TRUE(answer.ok()) << answer.Describe();
  EXPECT_TRUE(answer.in_doubt);  // an HTTP 5xx may have been acted on
  const std::vector<int64_t> waits = clock.waits();
  ASSERT_EQ(waits.size(), 4u);
  const int64_t full[] = {10 * kSecond, 20 * kSecond, 40 * kSecond, 40 * kSecond};
  int64_t total = 0;
  for (size_t i = 0; i < waits.size(); ++i) {
    EXPECT_GE(waits[i], full[i] / 2) << "wait " << i;
    EXPECT_LE(waits[i], full[i]) << "wait " << i;
    total += waits[i];
  }
  // The clock moved on by the waits and nothing else: the calls took no time on it.
  EXPECT_EQ(clock.slept(), total);
  EXPECT_EQ(clock.MonotonicMicros(), total);
  EXPECT_LE(total, sync::MaxTotalBackoffMicros(policy));
}

TEST(SyncClockTest, NoWaitAfterTheLastAttemptNorAfterARefusal) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.get_all", {RawAnswer(500, "down")});
  server.Script("queues.remove_task", {testing::RefusedAnswer(400, 703)});
  RecordingClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {3, 1'000, 1'000}, clock);
  EXPECT_EQ(api.Call("queues.get_all", "{}").kind, sync::ApiAnswer::Kind::kUnreachable);
  EXPECT_EQ(clock.waits().size(), 2u);  // 3 attempts, 2 waits between them
  EXPECT_EQ(api.Call("queues.remove_task", "{}").kind, sync::ApiAnswer::Kind::kRefused);
  EXPECT_EQ(clock.waits().size(), 2u);  // a refusal is an answer: not tried again
}

TEST(SyncClockTest, TheWaitForTheServerIsMeasuredOnTheInjectedClock) {
  ManualClock clock;
  FakeTransport server;
  auto slow = [&clock](const std::string& data) {
    return [&clock, data](const HttpRequest&) {
      clock.Advance(250'000);  // each answer takes a quarter of a second on the test clock
      return OkAnswer(data);
    };
  };
  server.Handle("auth.login", slow(R"({"token": "T"})"));
  server.Handle("queues.get_all", slow(R"({"queues": []})"));
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  ASSERT_TRUE(api.Call("queues.get_all", "{}").ok());
  EXPECT_EQ(api.server_wait_micros(), 500'000);  // the login and the call
  clock.Advance(10 * kSecond);                   // time between calls is no wait
  api.ResetWait();
  ASSERT_TRUE(api.Call("queues.get_all", "{}").ok());
  EXPECT_EQ(api.server_wait_micros(), 250'000);
}

TEST(SyncClockTest, TheReadBoundCountsOnTheInjectedClock) {
  ManualClock clock(1'700'000'000 * kSecond);
  clock.Advance(42 * kSecond);  // the bound counts from Arm, not from the clock's origin
  sync::ReadBounds bounds;
  bounds.cycle_micros = 300 * kSecond;
  sync::ReadGuard guard(clock, bounds);
  std::string why;
  EXPECT_TRUE(guard.BeforeCall(&why));  // disarmed: no bound
  clock.Advance(1'000 * kSecond);
  EXPECT_TRUE(guard.BeforeCall(&why));
  {
    const sync::ArmedRead armed(&guard);
    EXPECT_TRUE(guard.BeforeCall(&why)) << why;
    clock.Advance(300 * kSecond);  // exactly the bound: still within it
    EXPECT_TRUE(guard.BeforeCall(&why)) << why;
    EXPECT_TRUE(guard.WhileReceiving(100, &why)) << why;
    clock.Advance(1);
    EXPECT_FALSE(guard.WhileReceiving(100, &why));
    EXPECT_NE(why.find("longer than 300 s (--read-timeout)"), std::string::npos) << why;
    why.clear();
    EXPECT_FALSE(guard.BeforeCall(&why));
    EXPECT_NE(why.find("--read-timeout"), std::string::npos) << why;
  }
  why.clear();
  EXPECT_TRUE(guard.BeforeCall(&why)) << why;  // the moves after the reading are not bounded by it
  const sync::ArmedRead again(&guard);       // the next cycle's reading starts from zero
  EXPECT_TRUE(guard.BeforeCall(&why)) << why;
}

/// A state directory with a provisioned configuration, and the sync's journal.
class ProvisionedState {
 public:
  ProvisionedState() {
    const std::string config = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\nenabled: true\n"
                               "pools:\n  - name: \"p\"\n    resources: 8\n    queue: \"p\"\n"
                               "    executionPriority: []\nprofiles: []\npolicies: []\n";
    testing::ProvisionState(state(), config, "clock test");
  }
  std::string state() const { return dir_.file("state"); }
  std::string journal() const { return dir_.file("journal"); }

 private:
  testing::TempDir dir_;
};

TEST(SyncClockTest, ACycleWhoseReadingOutlastsItsBoundEndsWithoutSleeping) {
  ProvisionedState state;
  ManualClock clock(1'700'000'000 * kSecond);
  sync::ReadBounds bounds;
  bounds.cycle_micros = 300 * kSecond;
  bounds.cycle_calls = 1'000;
  sync::ReadGuard guard(clock, bounds);
  // A scroll without end whose every page takes 40 s on the test clock.
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.get_all", {OkAnswer(R"({"queues": [{"id": "qp", "name": "p", "entries": []}]})")});
  server.Script("workers.get_all", {OkAnswer(R"({"workers": []})")});
  std::atomic<int> page{0};
  server.Handle("tasks.get_all", [&page](const HttpRequest&) {
    const std::string id = "t" + std::to_string(page++);
    return OkAnswer(R"({"tasks": [{"id": ")" + id + R"(", "status": "queued", "execution": {"queue": "qp"}}],)"
                    R"( "scroll_id": "S"})");
  });
  SlowGuardedServer slow(&server, &clock, &guard, 40 * kSecond);
  sync::ApiClient api(&slow, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  std::string error;
  auto journal = sync::Journal::Open(state.journal(), &error);
  ASSERT_TRUE(journal) << error;
  sync::CycleSettings settings;
  settings.state_dir = state.state();
  settings.read_guard = &guard;
  settings.clock = &clock;
  const WallTimer timer;
  const sync::CycleResult result = sync::RunCycle(api, *journal, settings);
  EXPECT_LT(timer.Seconds(), 5.0);
  EXPECT_EQ(result.status, sync::CycleResult::Status::kUnreachable) << result.error;
  EXPECT_NE(result.error.find("longer than 300 s (--read-timeout)"), std::string::npos) << result.error;
  // Cut at the first call past 300 s: 7 answered calls of 40 s, not 1 000 pages.
  EXPECT_LE(page.load(), 7);
  EXPECT_GE(result.micros, 300 * kSecond);  // the cycle's own time, on the same clock
  EXPECT_LE(result.micros, 340 * kSecond);
  for (const std::string& endpoint : server.endpoints()) {
    EXPECT_TRUE(endpoint.ends_with(".get_all") || endpoint == "auth.login") << endpoint << " called after the cut";
  }
}

}  // namespace
}  // namespace rescfg
