#include "sync/http_transport.h"

#include <curl/curl.h>

#include <mutex>
#include <vector>

#include "sync/read_bounds.h"

namespace rescfg::sync {
namespace {

struct Received {
  std::string* body;
  uint64_t limit;
  bool too_large = false;
};

struct Progress {
  ReadGuard* guard;
  std::string why;  ///< set when the guard ended the call
};

/// libcurl's progress callback (at least once a second, and as bytes come
/// in): nonzero ends the transfer (CURLE_ABORTED_BY_CALLBACK).
int OnProgress(void* user, curl_off_t, curl_off_t received, curl_off_t, curl_off_t) {
  auto* progress = static_cast<Progress*>(user);
  const uint64_t bytes = received > 0 ? static_cast<uint64_t>(received) : 0;
  return progress->guard->WhileReceiving(bytes, &progress->why) ? 0 : 1;
}

size_t Collect(char* data, size_t size, size_t count, void* user) {
  auto* received = static_cast<Received*>(user);
  const size_t n = size * count;
  if (received->body->size() + n > received->limit) {
    received->too_large = true;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  }
  received->body->append(data, n);
  return n;
}

class CurlTransport : public HttpTransport {
 public:
  explicit CurlTransport(CurlOptions options)
      : options_(std::move(options)), clock_(options_.clock != nullptr ? *options_.clock : SystemClock()) {}
  ~CurlTransport() override {
    for (CURL* handle : idle_) curl_easy_cleanup(handle);
  }

  HttpResponse Post(const HttpRequest& request) override {
    CURL* handle = Take();
    HttpResponse response;
    const int64_t start = clock_.MonotonicMicros();
    if (handle == nullptr) {
      response.error = "libcurl could not make a handle";
      return response;
    }
    Received received{&response.body, options_.max_body_bytes};
    Progress progress{options_.guard, ""};
    if (progress.guard != nullptr && !progress.guard->BeforeCall(&progress.why)) {
      Give(handle);
      response.outcome = HttpResponse::Outcome::kAborted;
      response.error = progress.why;
      return response;
    }
    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:");
    const std::string auth = "Authorization: " + request.authorization;
    if (!request.authorization.empty()) headers = curl_slist_append(headers, auth.c_str());
    char error_text[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(handle, CURLOPT_POST, 1L);
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, Collect);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &received);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_text);
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.total_timeout_ms));
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, static_cast<long>(options_.low_speed_bytes));
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options_.low_speed_seconds));
    if (progress.guard != nullptr) {
      curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, OnProgress);
      curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &progress);
      curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    }
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: several threads call at once
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!options_.ca_cert.empty()) curl_easy_setopt(handle, CURLOPT_CAINFO, options_.ca_cert.c_str());
    // Never follow a redirection: an answer to another address is not the server's.
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    // A loopback server is never reached through a proxy (http_proxy,
    // ALL_PROXY): plain http:// to it would hand the Basic credentials over.
    curl_easy_setopt(handle, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1");
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");  // any encoding libcurl can undo
    const CURLcode code = curl_easy_perform(handle);
    curl_slist_free_all(headers);
    // The handle keeps the header list's address: cleared before it is reused.
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, nullptr);
    if (progress.guard != nullptr) progress.guard->AfterCall(response.body.size());
    response.micros = clock_.MonotonicMicros() - start;
    if (code == CURLE_OK) {
      response.outcome = HttpResponse::Outcome::kAnswered;
      curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response.status);
    } else {
      response.body.clear();
      response.error = error_text[0] ? error_text : curl_easy_strerror(code);
      if (received.too_large) {
        response.outcome = HttpResponse::Outcome::kTooLarge;
        response.error = "the answer is longer than " + std::to_string(options_.max_body_bytes) + " bytes";
      } else if (code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
                 code == CURLE_COULDNT_RESOLVE_PROXY) {
        response.outcome = HttpResponse::Outcome::kConnectFailed;
      } else if (code == CURLE_ABORTED_BY_CALLBACK && !progress.why.empty()) {
        response.outcome = HttpResponse::Outcome::kAborted;
        response.error = progress.why;
      } else if (code == CURLE_OPERATION_TIMEDOUT) {
        response.outcome = HttpResponse::Outcome::kTimeout;
      }
    }
    Give(handle);
    return response;
  }

 private:
  CURL* Take() {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      if (!idle_.empty()) {
        CURL* handle = idle_.back();
        idle_.pop_back();
        return handle;
      }
    }
    return curl_easy_init();
  }
  void Give(CURL* handle) {
    std::lock_guard<std::mutex> hold(mutex_);
    idle_.push_back(handle);
  }

  CurlOptions options_;
  const Clock& clock_;
  std::mutex mutex_;
  std::vector<CURL*> idle_;  ///< handles keep their connections open for the next call
};

}  // namespace

std::unique_ptr<HttpTransport> MakeCurlTransport(const CurlOptions& options, std::string* error) {
  static const CURLcode global = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (global != CURLE_OK) {
    *error = std::string("libcurl cannot start: ") + curl_easy_strerror(global);
    return nullptr;
  }
  return std::make_unique<CurlTransport>(options);
}

}  // namespace rescfg::sync
