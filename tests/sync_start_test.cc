// What `rescfg sync` says when it cannot start (rescfg(1), sync): a refused
// or failed login is the login's failure, not that of the call that needed
// it; a server address libcurl would refuse on every call is refused at start.

#include <gtest/gtest.h>

#include "support/fake_transport.h"
#include "sync/api_client.h"
#include "sync/credentials.h"
#include "sync/server_snapshot.h"

namespace rescfg {
namespace {

using testing::FakeTransport;
using testing::RefusedAnswer;
using testing::TransportFailure;

sync::FetchOutcome FetchWithLogin(sync::HttpResponse login) {
  FakeTransport server;
  server.Handle("auth.login", [login](const sync::HttpRequest&) { return login; });
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  sync::ServerSnapshot snapshot;
  return sync::FetchServerSnapshot(api, sync::TaskFields({}), 100, &snapshot);
}

TEST(SyncStartTest, ARefusedLoginIsTheLogins) {
  const sync::FetchOutcome outcome = FetchWithLogin(RefusedAnswer(401, 0, "Unauthorized"));
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.failure.kind, sync::ApiAnswer::Kind::kUnauthorized);
  EXPECT_TRUE(outcome.error.starts_with("auth.login (the login queues.get_all needed): HTTP 401")) << outcome.error;
}

TEST(SyncStartTest, ATlsFailureAtLoginIsTheLogins) {
  const sync::FetchOutcome outcome = FetchWithLogin(TransportFailure(sync::HttpResponse::Outcome::kFailed));
  EXPECT_FALSE(outcome.ok);
  EXPECT_TRUE(outcome.error.starts_with("auth.login (the login queues.get_all needed): ")) << outcome.error;
}

TEST(SyncStartTest, AMalformedServerAddressIsRefusedAtStart) {
  std::string error;
  for (const char* bad : {"http://127.0.0.1:99999", "http://[::1]evil.com", "https://exa mple.com",
                          "https://example.com:port"}) {
    error.clear();
    EXPECT_FALSE(sync::CheckServerAddress(bad, false, &error)) << bad;
    EXPECT_NE(error.find("is not a valid URL"), std::string::npos) << bad << ": " << error;
  }
  for (const char* good : {"http://127.0.0.1:8008", "http://[::1]:8008/", "https://api.clear.ml",
                           "https://clearml.example.com:8443/api", "http://localhost:8008"}) {
    EXPECT_TRUE(sync::CheckServerAddress(good, false, &error)) << good << ": " << error;
  }
}

}  // namespace
}  // namespace rescfg
