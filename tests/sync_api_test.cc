// The ClearML API layer of `rescfg sync` against a fake transport: the
// envelope, the token, the retries and the paged reading of tasks.

#include <gtest/gtest.h>

#include "support/fake_transport.h"
#include "sync/api_client.h"
#include "sync/server_snapshot.h"

namespace rescfg {
namespace {

using sync::ApiAnswer;
using sync::HttpResponse;
using testing::FakeTransport;
using testing::OkAnswer;
using testing::RawAnswer;
using testing::RefusedAnswer;
using testing::TransportFailure;

/// A test clock that also keeps each wait it was asked for.
class RecordingClock final : public ManualClock {
 public:
  void Sleep(int64_t micros) override {
    waits.push_back(micros);
    ManualClock::Sleep(micros);
  }
  std::vector<int64_t> waits;
};

TEST(SyncApiTest, Base64OfCredentials) {
  EXPECT_EQ(sync::Base64(""), "");
  EXPECT_EQ(sync::Base64("f"), "Zg==");
  EXPECT_EQ(sync::Base64("fo"), "Zm8=");
  EXPECT_EQ(sync::Base64("foo"), "Zm9v");
  EXPECT_EQ(sync::Base64("key:secret"), "a2V5OnNlY3JldA==");
}

TEST(SyncApiTest, AnswersAreClassified) {
  struct Case {
    HttpResponse response;
    ApiAnswer::Kind kind;
    int subcode;
  };
  const std::vector<Case> cases = {
      {OkAnswer("{}"), ApiAnswer::Kind::kOk, 0},
      {RefusedAnswer(400, 703), ApiAnswer::Kind::kRefused, 703},
      {RefusedAnswer(401, 30), ApiAnswer::Kind::kUnauthorized, 30},
      {RefusedAnswer(500, 0), ApiAnswer::Kind::kUnreachable, 0},
      {RawAnswer(502, "<html>Bad gateway</html>"), ApiAnswer::Kind::kUnreachable, 0},
      {RawAnswer(200, "<html><body>login</body></html>"), ApiAnswer::Kind::kBadAnswer, 0},
      {RawAnswer(200, R"({"meta": {"result_code": 200}, "data": {"tasks": [)"), ApiAnswer::Kind::kBadAnswer, 0},
      {RawAnswer(200, R"([1, 2])"), ApiAnswer::Kind::kBadAnswer, 0},
      {RawAnswer(200, R"({"data": {}})"), ApiAnswer::Kind::kBadAnswer, 0},
      {RawAnswer(200, R"({"meta": {"result_code": "200"}, "data": {}})"), ApiAnswer::Kind::kBadAnswer, 0},
      {RawAnswer(200, R"({"meta": {"result_code": 200}, "data": null})"), ApiAnswer::Kind::kBadAnswer, 0},
      {RawAnswer(302, ""), ApiAnswer::Kind::kBadAnswer, 0},
      {RawAnswer(404, "<html>not found</html>"), ApiAnswer::Kind::kRefused, 0},
      {TransportFailure(HttpResponse::Outcome::kConnectFailed), ApiAnswer::Kind::kUnreachable, 0},
      {TransportFailure(HttpResponse::Outcome::kTimeout), ApiAnswer::Kind::kUnreachable, 0},
      {TransportFailure(HttpResponse::Outcome::kTooLarge), ApiAnswer::Kind::kBadAnswer, 0},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const ApiAnswer answer = sync::ClassifyAnswer(cases[i].response);
    EXPECT_EQ(answer.kind, cases[i].kind) << "case " << i << ": " << answer.Describe();
    EXPECT_EQ(answer.subcode, cases[i].subcode) << "case " << i;
  }
}

TEST(SyncApiTest, LogsInOnceAndSendsTheToken) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T1"})")});
  server.Script("queues.get_all", {OkAnswer(R"({"queues": []})")});
  RecordingClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  ASSERT_TRUE(api.Call("queues.get_all", "{}").ok());
  ASSERT_TRUE(api.Call("queues.get_all", "{}").ok());
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].url, "http://127.0.0.1:1/auth.login");
  EXPECT_EQ(requests[0].authorization, "Basic a2V5OnNlY3JldA==");
  EXPECT_EQ(requests[1].authorization, "Bearer T1");
  EXPECT_EQ(requests[2].authorization, "Bearer T1");
}

TEST(SyncApiTest, RenewsAnExpiredTokenOnce) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T1"})"), OkAnswer(R"({"token": "T2"})")});
  server.Handle("queues.get_all", [](const sync::HttpRequest& request) {
    return request.authorization == "Bearer T2" ? OkAnswer(R"({"queues": []})") : RefusedAnswer(401, 30);
  });
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  EXPECT_TRUE(api.Call("queues.get_all", "{}").ok());
  EXPECT_EQ(server.endpoints(),
            (std::vector<std::string>{"auth.login", "queues.get_all", "auth.login", "queues.get_all"}));
}

TEST(SyncApiTest, RefusedCredentialsAreNotTriedAgainAndAgain) {
  FakeTransport server;
  server.Script("auth.login", {RefusedAnswer(401, 22, "unknown credentials")});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  const ApiAnswer answer = api.Call("queues.get_all", "{}");
  EXPECT_EQ(answer.kind, ApiAnswer::Kind::kUnauthorized);
  EXPECT_EQ(server.endpoints(), (std::vector<std::string>{"auth.login"}));
  EXPECT_EQ(answer.Describe().find("secret"), std::string::npos);
}

TEST(SyncApiTest, TransportFailuresAreRetriedWithBoundedBackoff) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("workers.get_all", {TransportFailure(HttpResponse::Outcome::kConnectFailed)});
  RecordingClock sleep;
  sync::RetryPolicy policy{5, 100, 300};
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, policy, sleep);
  const ApiAnswer answer = api.Call("workers.get_all", "{}");
  EXPECT_EQ(answer.kind, ApiAnswer::Kind::kUnreachable);
  EXPECT_FALSE(answer.in_doubt);  // never connected: never done
  ASSERT_EQ(sleep.waits.size(), 4u);
  const int64_t bounds[] = {100'000, 200'000, 300'000, 300'000};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_GE(sleep.waits[i], bounds[i] / 2) << i;
    EXPECT_LE(sleep.waits[i], bounds[i]) << i;
  }
  EXPECT_EQ(api.errors_by_endpoint().at("workers.get_all"), 5u);
  EXPECT_EQ(sync::MaxTotalBackoffMicros(policy), 900'000);
}

TEST(SyncApiTest, ATimeoutThenAnAnswerIsInDoubt) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.remove_task",
                {RawAnswer(503, "busy"), TransportFailure(HttpResponse::Outcome::kTimeout), RefusedAnswer(400, 703)});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  const ApiAnswer answer = api.Call("queues.remove_task", "{}");
  EXPECT_EQ(answer.kind, ApiAnswer::Kind::kRefused);
  EXPECT_EQ(answer.subcode, 703);
  EXPECT_TRUE(answer.in_doubt);
}

TEST(SyncApiTest, BackoffStaysWithinItsBounds) {
  sync::RetryPolicy policy{8, 100, 2000};
  for (uint64_t random : {uint64_t(0), uint64_t(1), uint64_t(12345), ~uint64_t(0)}) {
    for (int failures = 1; failures < 8; ++failures) {
      int64_t full = std::min<int64_t>(100 << (failures - 1), 2000) * 1000;
      int64_t wait = sync::BackoffMicros(policy, failures, random);
      EXPECT_GE(wait, full / 2);
      EXPECT_LE(wait, full);
    }
  }
}

std::string TasksPage(const std::vector<std::string>& ids, const std::string& scroll) {
  std::string tasks;
  for (const auto& id : ids) {
    if (!tasks.empty()) tasks += ", ";
    tasks += R"({"id": ")" + id + R"(", "status": "queued", "execution": {"queue": "q1"}})";
  }
  return R"({"tasks": [)" + tasks + R"(], "scroll_id": ")" + scroll + R"("})";
}

TEST(SyncApiTest, TasksAreScrolledUntilAnEmptyPage) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.get_all", {OkAnswer(R"({"queues": [{"id": "q1", "name": "dev", "entries": []}]})")});
  server.Script("workers.get_all", {OkAnswer(R"({"workers": []})")});
  // A short page is not the end: the server may cap the page size.
  server.Script("tasks.get_all", {OkAnswer(TasksPage({"a", "b"}, "S")), OkAnswer(TasksPage({"c"}, "S")),
                                  OkAnswer(TasksPage({"d", "e"}, "S")), OkAnswer(TasksPage({}, "S"))});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  sync::ServerSnapshot snapshot;
  const auto outcome = sync::FetchServerSnapshot(api, sync::TaskFields({}), 2, &snapshot);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(snapshot.tasks, 5u);
  EXPECT_EQ(snapshot.pages, 4u);
  const auto requests = server.requests();
  std::vector<std::string> pages;
  for (const auto& request : requests) {
    if (request.url.ends_with("tasks.get_all")) pages.push_back(request.body);
  }
  ASSERT_EQ(pages.size(), 4u);
  EXPECT_NE(pages[0].find(R"("scroll_id": null)"), std::string::npos) << pages[0];
  EXPECT_NE(pages[1].find(R"("scroll_id": "S")"), std::string::npos) << pages[1];
  EXPECT_NE(pages[0].find(R"("status": ["queued", "in_progress"])"), std::string::npos);
  EXPECT_EQ(snapshot.tasks_json.front(), '[');
  EXPECT_EQ(snapshot.status.at("e"), "queued");
}

TEST(SyncApiTest, AnExpiredScrollStartsTheReadingAgain) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.get_all", {OkAnswer(R"({"queues": []})")});
  server.Script("workers.get_all", {OkAnswer(R"({"workers": []})")});
  // The second page comes under a new scroll id: the server started again
  // from the beginning; the reading starts again too.
  server.Script("tasks.get_all", {OkAnswer(TasksPage({"a"}, "S1")), OkAnswer(TasksPage({"a"}, "S2")),
                                  OkAnswer(TasksPage({"a"}, "S3")), OkAnswer(TasksPage({"b"}, "S3")),
                                  OkAnswer(TasksPage({}, "S3"))});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  sync::ServerSnapshot snapshot;
  ASSERT_TRUE(sync::FetchServerSnapshot(api, sync::TaskFields({}), 1, &snapshot).ok);
  EXPECT_EQ(snapshot.tasks, 2u);
}

TEST(SyncApiTest, WrongShapesMakeTheReadingUnusable) {
  const std::vector<std::pair<std::string, HttpResponse>> cases = {
      {"queues.get_all", RawAnswer(200, "<!DOCTYPE html><html></html>")},
      {"queues.get_all", OkAnswer(R"({"queues": {"id": "q"}})")},
      {"tasks.get_all", OkAnswer(R"({"tasks": [1]})")},
      {"tasks.get_all", OkAnswer(R"({"tasks": [{"name": "x"}], "scroll_id": "S"})")},
      {"tasks.get_all", OkAnswer(R"({"tasks": [{"id": "a", "status": 3}], "scroll_id": "S"})")},
      {"tasks.get_all", OkAnswer(R"({"tasks": [{"id": "a"}]})")},
      {"tasks.get_all", OkAnswer(R"({"total": 3})")},
      {"workers.get_all", OkAnswer(R"({"workers": [[]]})")},
  };
  for (const auto& [endpoint, answer] : cases) {
    FakeTransport server;
    server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
    server.Script("queues.get_all", {OkAnswer(R"({"queues": []})")});
    server.Script("workers.get_all", {OkAnswer(R"({"workers": []})")});
    server.Script("tasks.get_all", {OkAnswer(TasksPage({}, "S"))});
    server.Script(endpoint, {answer});
    ManualClock clock;
    sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
    sync::ServerSnapshot snapshot;
    const auto outcome = sync::FetchServerSnapshot(api, sync::TaskFields({}), 10, &snapshot);
    EXPECT_FALSE(outcome.ok) << endpoint << " " << answer.body;
    EXPECT_EQ(outcome.failure.kind, ApiAnswer::Kind::kBadAnswer) << outcome.error;
  }
}

TEST(SyncApiTest, OnlyTheSectionsTheProfilesNameAreAskedFor) {
  EXPECT_EQ(sync::TaskFields({"hyperparams.Args.cost", "runtime.gpus_request", "configuration.test"}),
            (std::vector<std::string>{"id", "name", "status", "status_changed", "status_message",
                                      "status_reason", "started", "execution.queue", "configuration.test", "hyperparams.Args", "runtime"}));
}

}  // namespace
}  // namespace rescfg
