#include "support/fake_transport.h"

namespace rescfg::testing {

sync::HttpResponse RawAnswer(long status, const std::string& body) {
  sync::HttpResponse response;
  response.outcome = sync::HttpResponse::Outcome::kAnswered;
  response.status = status;
  response.body = body;
  return response;
}

sync::HttpResponse OkAnswer(const std::string& data) {
  return RawAnswer(200, R"({"meta": {"id": "x", "result_code": 200, "result_subcode": 0, "result_msg": "OK"}, "data": )" +
                            data + "}");
}

sync::HttpResponse RefusedAnswer(long status, int subcode, const std::string& message) {
  return RawAnswer(status, R"({"meta": {"id": "x", "result_code": )" + std::to_string(status) +
                               R"(, "result_subcode": )" + std::to_string(subcode) + R"(, "result_msg": ")" + message +
                               R"("}, "data": {}})");
}

sync::HttpResponse TransportFailure(sync::HttpResponse::Outcome outcome) {
  sync::HttpResponse response;
  response.outcome = outcome;
  response.error = "fake transport failure";
  return response;
}

void FakeTransport::Script(const std::string& endpoint, std::vector<sync::HttpResponse> answers) {
  std::lock_guard<std::mutex> hold(mutex_);
  scripts_[endpoint] = std::deque<sync::HttpResponse>(answers.begin(), answers.end());
}

void FakeTransport::Handle(const std::string& endpoint, Handler handler) {
  std::lock_guard<std::mutex> hold(mutex_);
  handlers_[endpoint] = std::move(handler);
}

sync::HttpResponse FakeTransport::Post(const sync::HttpRequest& request) {
  Handler handler;
  {
    std::lock_guard<std::mutex> hold(mutex_);
    requests_.push_back(request);
    const std::string endpoint = request.url.substr(request.url.rfind('/') + 1);
    if (auto it = handlers_.find(endpoint); it != handlers_.end()) {
      handler = it->second;
    } else if (auto script = scripts_.find(endpoint); script != scripts_.end() && !script->second.empty()) {
      sync::HttpResponse answer = script->second.front();
      if (script->second.size() > 1) script->second.pop_front();
      return answer;
    } else {
      return RawAnswer(404, "<html>no such endpoint</html>");
    }
  }
  return handler(request);
}

std::vector<sync::HttpRequest> FakeTransport::requests() const {
  std::lock_guard<std::mutex> hold(mutex_);
  return requests_;
}

std::vector<std::string> FakeTransport::endpoints() const {
  std::lock_guard<std::mutex> hold(mutex_);
  std::vector<std::string> names;
  for (const auto& request : requests_) names.push_back(request.url.substr(request.url.rfind('/') + 1));
  return names;
}

}  // namespace rescfg::testing
