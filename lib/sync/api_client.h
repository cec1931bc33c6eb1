#pragma once
/// Calls to a ClearML API server: the `{"meta": ..., "data": ...}` envelope
/// told apart from everything else a server (or a proxy in front of it) may
/// answer, the session token (auth.login with the access key and secret,
/// renewed once after a 401), and the retries of transport failures.

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <string_view>

#include "sync/http_transport.h"
#include "sync/retry.h"
#include "util/clock.h"

namespace rescfg::sync {

/// The access key and secret. Never written anywhere (no log, output or
/// file); only sent, as HTTP Basic credentials, to auth.login.
struct Credentials {
  std::string access_key, secret_key;
};

struct ApiAnswer {
  enum class Kind {
    kOk,           ///< result_code 200; `body` is the whole answer
    kRefused,      ///< the server refused the call (HTTP 4xx other than 401): `subcode` says why
    kUnauthorized, ///< the credentials (or a renewed token) were refused
    kUnreachable,  ///< transport failures or HTTP 5xx, still after the retry bound
    kBadAnswer,    ///< an answer that is no API envelope (HTML, truncated, too large, wrong shape)
  };
  Kind kind = Kind::kBadAnswer;
  long http_status = 0;
  int subcode = 0;
  std::string message;  ///< the server's result_msg, or what went wrong
  std::string body;
  /// An earlier attempt ended in a way (a timeout, an HTTP 5xx) that may
  /// have left the call done on the server: the answer of a later attempt
  /// ("the task is not in that queue") may be the first one's doing.
  bool in_doubt = false;
  /// The login the call needed failed, not the call itself (sync/failed_call.h says so).
  bool at_login = false;

  bool ok() const { return kind == Kind::kOk; }
  /// "HTTP 400, result_subcode 703: invalid queue id or task not in queue".
  std::string Describe() const;
};

/// Reads an answer's envelope. Used by ApiClient; public for the tests and
/// the fuzzer.
ApiAnswer ClassifyAnswer(const HttpResponse& response);

class ApiClient {
 public:
  /// `server` is the address without a trailing slash ("https://api.clearml.example").
  /// `clock` measures the wait for the server and sleeps the backoff (not owned).
  ApiClient(HttpTransport* transport, std::string server, Credentials credentials, RetryPolicy retry,
            Clock& clock);

  /// auth.login: a new session token. kUnauthorized when the credentials
  /// are refused.
  ApiAnswer Login();
  /// POSTs `body` to `endpoint` ("tasks.get_all") with the session token
  /// (logging in first when there is none), renewing it once after a 401,
  /// and sending again after a transport failure or an HTTP 5xx, with
  /// backoff, up to the retry bound. Safe from several threads.
  ApiAnswer Call(std::string_view endpoint, const std::string& body);

  /// Wall-clock time during which at least one call was waiting for the
  /// server, since the last ResetCounters (calls at once count once).
  int64_t server_wait_micros() const;
  /// Calls that did not end well (each attempt), by endpoint, since the
  /// process started.
  std::map<std::string, uint64_t> errors_by_endpoint() const;
  void ResetWait();

 private:
  HttpResponse Send(std::string_view endpoint, const std::string& body, const std::string& authorization);
  ApiAnswer WithRetries(std::string_view endpoint, const std::string& body, const std::string& authorization);
  void CountError(std::string_view endpoint);

  HttpTransport* transport_;
  std::string server_;
  Credentials credentials_;
  RetryPolicy retry_;
  Clock& clock_;

  std::mutex login_mutex_;    ///< one login at a time: a refused token is renewed once, not once per caller
  mutable std::mutex mutex_;  ///< guards what follows
  std::string token_;
  uint64_t token_generation_ = 0;
  std::mt19937_64 random_{std::random_device{}()};
  std::map<std::string, uint64_t> errors_;
  int outstanding_ = 0;
  int64_t wait_started_ = 0;
  int64_t waited_ = 0;
};

/// Base64 of `text` (RFC 4648, with padding): HTTP Basic credentials.
std::string Base64(std::string_view text);

}  // namespace rescfg::sync
