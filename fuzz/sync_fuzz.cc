/// What `rescfg sync` reads from a ClearML server, on arbitrary bytes: an
/// answer's envelope (ClassifyAnswer, for each HTTP status class), a page of
/// tasks.get_all (ReadTasksPage) and, for the same bytes, the answers of a
/// whole reading through a fake server (FetchServerSnapshot). No crash, no
/// exception; a page is read whole or refused with a reason, and the tasks
/// it keeps form a JSON array.

#include <simdjson.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sync/api_client.h"
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
  rescfg::sync::ApiClient api(&server, "http://127.0.0.1:1", {"k", "s"}, {1, 0, 0}, [](int64_t) {});
  rescfg::sync::ServerSnapshot snapshot;
  const auto outcome = rescfg::sync::FetchServerSnapshot(api, rescfg::sync::TaskFields({"runtime.gpus"}), 10, &snapshot);
  if (!outcome.ok && outcome.error.empty()) std::abort();
  return 0;
}
