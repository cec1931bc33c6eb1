// The session token of `rescfg sync` is renewed once per refused token,
// however many connections find it refused at once (rescfg(1), "rescfg
// sync": single flight), and the first login is made once too.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_transport.h"
#include "sync/api_client.h"

namespace rescfg {
namespace {

using testing::FakeTransport;
using testing::OkAnswer;
using testing::RefusedAnswer;

TEST(SyncTokenTest, ARefusedTokenIsRenewedOnceForAllConnections) {
  FakeTransport server;
  std::atomic<int> logins{0};
  server.Handle("auth.login", [&](const sync::HttpRequest&) {
    const int n = ++logins;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a slow login: the others arrive meanwhile
    return OkAnswer("{\"token\": \"T" + std::to_string(n) + "\"}");
  });
  server.Handle("queues.get_all", [](const sync::HttpRequest& request) {
    return request.authorization == "Bearer T1" ? RefusedAnswer(401, 30) : OkAnswer(R"({"queues": []})");
  });
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  std::atomic<int> ok{0};
  {
    std::vector<std::jthread> connections;
    for (int i = 0; i < 4; ++i) {
      connections.emplace_back([&] { ok += api.Call("queues.get_all", "{}").ok(); });
    }
  }
  EXPECT_EQ(ok.load(), 4);
  EXPECT_EQ(logins.load(), 2) << "one first login, one renewal of the refused token";
}

}  // namespace
}  // namespace rescfg
