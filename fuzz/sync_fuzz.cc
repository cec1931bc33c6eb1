/// What `rescfg sync` reads from a ClearML server, on arbitrary bytes: an
/// answer's envelope (ClassifyAnswer, for each HTTP status class), a page of
/// tasks.get_all (ReadTasksPage) and, for the same bytes, the answers of a
/// whole reading through a fake server (FetchServerSnapshot), and the
/// answers to a move (MoveTask: queues.remove_task, tasks.enqueue and the
/// looks between them), split at 0xff bytes, each after a byte choosing its
/// HTTP status (200, 302, 400, 401, 500): HTML with 200, a redirection,
/// "data": null, truncated JSON. No crash, no exception; a page is read
/// whole or refused with a reason, and the tasks it keeps form a JSON
/// array; a move after any answer to a changing call that was neither a
/// clean success nor a clean refusal is moved or left open, never closed.

#include <simdjson.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unordered_map>

#include <vector>

#include "sync/api_client.h"
#include "sync/move.h"
#include "sync/server_snapshot.h"

namespace {

using rescfg::sync::HttpRequest;
using rescfg::sync::HttpResponse;

/// Answers every call with the fuzzer's bytes (auth.login with a token).
class BytesServer : public rescfg::sync::HttpTransport {
 public:
  explicit BytesServer(std::string body) : body_(std::move(body)) {}
  HttpResponse Post(const HttpRequest& request) override {
    HttpResponse response;
    response.outcome = HttpResponse::Outcome::kAnswered;
    response.status = 200;
    if (request.url.ends_with("/auth.login")) {
      response.body = R"({"meta": {"result_code": 200}, "data": {"token": "T"}})";
    } else if (++calls_ > 8) {
      response.body = R"({"meta": {"result_code": 200}, "data": {"tasks": [], "queues": [], "workers": []}})";
    } else {
      response.body = body_;
    }
    return response;
  }

 private:
  std::string body_;
  int calls_ = 0;
};

/// Answers the calls of a move, in turn, with the fuzzer's answers; records
/// whether a changing call got an answer that is neither a clean success
/// nor a clean refusal.
class ScriptedServer : public rescfg::sync::HttpTransport {
 public:
  explicit ScriptedServer(std::string_view bytes) {
    constexpr long kStatuses[] = {200, 302, 400, 401, 500};
    while (!bytes.empty() && answers_.size() < 12) {
      HttpResponse response;
      response.outcome = HttpResponse::Outcome::kAnswered;
      response.status = kStatuses[static_cast<unsigned char>(bytes[0]) % 5];
      bytes.remove_prefix(1);
      const size_t end = bytes.find('\xff');
      response.body = std::string(bytes.substr(0, end));
      bytes.remove_prefix(end == std::string_view::npos ? bytes.size() : end + 1);
      answers_.push_back(std::move(response));
    }
  }
  HttpResponse Post(const HttpRequest& request) override {
    if (request.url.ends_with("/auth.login")) {
      HttpResponse login;
      login.outcome = HttpResponse::Outcome::kAnswered;
      login.status = 200;
      login.body = R"({"meta": {"result_code": 200}, "data": {"token": "T"}})";
      return login;
    }
    HttpResponse response;
    response.outcome = HttpResponse::Outcome::kConnectFailed;  // past the script: nothing was sent
    if (next_ < answers_.size()) response = answers_[next_++];
    const bool changing = request.url.ends_with("/queues.remove_task") || request.url.ends_with("/tasks.enqueue") ||
                          request.url.ends_with("/queues.add_task");
    if (changing && response.outcome == HttpResponse::Outcome::kAnswered) {
      const auto kind = rescfg::sync::ClassifyAnswer(response).kind;
      using Kind = rescfg::sync::ApiAnswer::Kind;
      if (kind != Kind::kOk && kind != Kind::kRefused && kind != Kind::kUnauthorized) garbled_ = true;
    }
    return response;
  }
  bool garbled() const { return garbled_; }

 private:
  std::vector<HttpResponse> answers_;
  size_t next_ = 0;
  bool garbled_ = false;
};

void FuzzMove(std::string_view bytes) {
  ScriptedServer server(bytes);
  rescfg::ManualClock clock;
  rescfg::sync::ApiClient api(&server, "http://127.0.0.1:1", {"k", "s"}, {1, 0, 0}, clock);
  rescfg::sync::MoveIntent m;
  m.task = "t1";
  m.name = "train";
  m.policy = "Dev";
  m.profile = "2xGPU";
  m.pool = "Metal";
  m.from = "dev-2gpu";
  m.from_id = "q-dev";
  m.to = "metal-2gpu";
  m.to_id = "q-metal";
  const rescfg::sync::MoveReport report = rescfg::sync::MoveTask(api, m, clock);
  using rescfg::sync::MoveResult;
  if (report.result == MoveResult::kPlanned) std::abort();
  if (server.garbled() && !report.open && report.result != MoveResult::kMoved) std::abort();
  if ((report.result == MoveResult::kSkipped || report.result == MoveResult::kFailed) && report.detail.empty()) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  for (long status : {200L, 400L, 401L, 503L}) {
    HttpResponse response;
    response.outcome = HttpResponse::Outcome::kAnswered;
    response.status = status;
    response.body = body;
    const auto answer = rescfg::sync::ClassifyAnswer(response);
    if (answer.ok() && status != 200) std::abort();
    (void)answer.Describe();
  }
  rescfg::sync::TasksPage page;
  std::string out = "[";
  std::unordered_map<std::string, std::string> status;
  std::string error;
  if (rescfg::sync::ReadTasksPage(body, &page, &out, &status, &error)) {
    out += "]";
    simdjson::dom::parser parser;
    simdjson::dom::element kept;
    if (parser.parse(out).get(kept) != simdjson::SUCCESS || !kept.is_array()) std::abort();
    if (status.size() > page.tasks) std::abort();
  } else if (error.empty()) {
    std::abort();
  }
  BytesServer server(body);
  rescfg::ManualClock clock;
  rescfg::sync::ApiClient api(&server, "http://127.0.0.1:1", {"k", "s"}, {1, 0, 0}, clock);
  rescfg::sync::ServerSnapshot snapshot;
  const auto outcome = rescfg::sync::FetchServerSnapshot(api, rescfg::sync::TaskFields({"runtime.gpus"}), 10, &snapshot);
  if (!outcome.ok && outcome.error.empty()) std::abort();
  FuzzMove(body);
  return 0;
}
