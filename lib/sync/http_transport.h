#pragma once
/// The HTTP POSTs of `rescfg sync`, behind an interface so that the API
/// layer and the move protocol are tested without a network (a fake
/// transport answers from a table).

#include <cstdint>
#include <memory>
#include <string>

#include "util/clock.h"

namespace rescfg::sync {

class ReadGuard;

struct HttpRequest {
  std::string url;            ///< the server's address and the endpoint: https://host/tasks.get_all
  std::string body;           ///< JSON
  std::string authorization;  ///< the whole header value: "Basic ..." or "Bearer ..."
};

struct HttpResponse {
  enum class Outcome {
    kAnswered,       ///< `status` and `body` hold the server's answer
    kConnectFailed,  ///< nothing was sent: safe to send again
    kTimeout,        ///< sent, no (whole) answer in time: it may have been acted on
    kTooLarge,       ///< the answer was longer than the transport accepts
    kFailed,         ///< any other transport error (TLS, a broken connection)
    kAborted,        ///< ended by the cycle's read bounds or a signal (sync/read_bounds.h): not sent again
  };
  Outcome outcome = Outcome::kFailed;
  long status = 0;
  std::string body;
  std::string error;      ///< what went wrong, for kAnswered empty
  int64_t micros = 0;     ///< how long the call took
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  /// Safe to call from several threads at once.
  virtual HttpResponse Post(const HttpRequest& request) = 0;
};

struct CurlOptions {
  std::string ca_cert;                     ///< --ca-cert FILE: the CA bundle to verify the server with
  int64_t connect_timeout_ms = 10'000;
  int64_t total_timeout_ms = 60'000;       ///< a whole call, answer included
  uint64_t max_body_bytes = uint64_t(512) << 20;
  /// An answer slower than this many bytes a second for `low_speed_seconds` ends the call (kTimeout).
  int64_t low_speed_bytes = 1024;
  int64_t low_speed_seconds = 30;
  ReadGuard* guard = nullptr;              ///< the cycle's read bounds and the signal (not owned)
  /// Times each call (HttpResponse::micros); nullptr: the system's. The
  /// timeouts above are libcurl's own, on the machine's monotonic clock.
  const Clock* clock = nullptr;
};

/// libcurl: TLS verified (peer and host name) always; proxies from the
/// usual environment variables (https_proxy, no_proxy, ...), as libcurl
/// reads them; keep-alive connections reused across calls, one per thread
/// that calls at once. nullptr with `error` set when libcurl cannot start.
std::unique_ptr<HttpTransport> MakeCurlTransport(const CurlOptions& options, std::string* error);

}  // namespace rescfg::sync
