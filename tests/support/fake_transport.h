#pragma once
/// A ClearML server for unit tests of `rescfg sync`, without a network:
/// each endpoint answers from a script (a list of answers, the last one
/// repeated), or from a function; every request is recorded.

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "sync/http_transport.h"

namespace rescfg::testing {

/// `{"meta": {...}, "data": DATA}` with HTTP 200.
sync::HttpResponse OkAnswer(const std::string& data);
/// HTTP `status` with `result_subcode` and a message.
sync::HttpResponse RefusedAnswer(long status, int subcode, const std::string& message = "refused");
/// A transport failure.
sync::HttpResponse TransportFailure(sync::HttpResponse::Outcome outcome);
/// Any HTTP answer.
sync::HttpResponse RawAnswer(long status, const std::string& body);

class FakeTransport : public sync::HttpTransport {
 public:
  using Handler = std::function<sync::HttpResponse(const sync::HttpRequest&)>;

  /// Answers for `endpoint` in turn; the last one is repeated.
  void Script(const std::string& endpoint, std::vector<sync::HttpResponse> answers);
  void Handle(const std::string& endpoint, Handler handler);

  sync::HttpResponse Post(const sync::HttpRequest& request) override;

  std::vector<sync::HttpRequest> requests() const;
  /// The endpoints called, in order ("tasks.enqueue", ...).
  std::vector<std::string> endpoints() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::deque<sync::HttpResponse>> scripts_;
  std::map<std::string, Handler> handlers_;
  std::vector<sync::HttpRequest> requests_;
};

}  // namespace rescfg::testing
