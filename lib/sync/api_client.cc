#include "sync/api_client.h"

#include <simdjson.h>

#include "util/text_table.h"

namespace rescfg::sync {
namespace {

/// The start of an answer that is not what it should be, safe to log.
std::string Excerpt(std::string_view body) {
  constexpr size_t kShown = 60;
  std::string shown = VisibleText(body.substr(0, kShown));
  if (body.size() > kShown) shown += "...";
  return "'" + shown + "'";
}

}  // namespace

std::string Base64(std::string_view text) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((text.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < text.size(); i += 3) {
    const uint32_t v = uint32_t(uint8_t(text[i])) << 16 | uint32_t(uint8_t(text[i + 1])) << 8 | uint8_t(text[i + 2]);
    for (int shift : {18, 12, 6, 0}) out.push_back(kDigits[(v >> shift) & 63]);
  }
  if (i < text.size()) {
    uint32_t v = uint32_t(uint8_t(text[i])) << 16;
    if (i + 1 < text.size()) v |= uint32_t(uint8_t(text[i + 1])) << 8;
    out.push_back(kDigits[(v >> 18) & 63]);
    out.push_back(kDigits[(v >> 12) & 63]);
    out.push_back(i + 1 < text.size() ? kDigits[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::string ApiAnswer::Describe() const {
  std::string text;
  if (http_status != 0) text = "HTTP " + std::to_string(http_status);
  if (subcode != 0) text += (text.empty() ? "" : ", ") + std::string("result_subcode ") + std::to_string(subcode);
  if (!message.empty()) text += (text.empty() ? "" : ": ") + message;
  if (text.empty()) text = "no answer";
  return at_login ? "at login (auth.login): " + text : text;
}

ApiAnswer ClassifyAnswer(const HttpResponse& response) {
  ApiAnswer answer;
  answer.http_status = response.status;
  switch (response.outcome) {
    case HttpResponse::Outcome::kAnswered:
      break;
    case HttpResponse::Outcome::kTooLarge:
      answer.kind = ApiAnswer::Kind::kBadAnswer;
      answer.message = response.error;
      return answer;
    default:
      answer.kind = ApiAnswer::Kind::kUnreachable;
      answer.message = response.error;
      return answer;
  }
  if (response.status >= 500) {
    answer.kind = ApiAnswer::Kind::kUnreachable;
    answer.message = "server error";
    return answer;
  }
  // The envelope, when there is one: its meta says why a call failed.
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const bool json = parser.parse(response.body).get(root) == simdjson::SUCCESS && root.is_object();
  int64_t code = 0, subcode = 0;
  std::string_view message;
  simdjson::dom::object meta;
  bool bad_meta = false;
  const bool has_meta = json && root["meta"].get(meta) == simdjson::SUCCESS;
  if (has_meta) {
    // Each is optional, but when given it has its type: a result_code "200"
    // is no answer of the API.
    auto field = [&](const char* key, auto* value) {
      simdjson::dom::element e;
      return meta[key].get(e) != simdjson::SUCCESS || e.is_null() || e.get(*value) == simdjson::SUCCESS;
    };
    bad_meta = !field("result_code", &code) || !field("result_subcode", &subcode) || !field("result_msg", &message);
  }
  answer.subcode = static_cast<int>(subcode);
  answer.message = VisibleText(message.substr(0, 500));
  if (response.status == 401) {
    answer.kind = ApiAnswer::Kind::kUnauthorized;
    if (answer.message.empty()) answer.message = "unauthorized";
    return answer;
  }
  if (response.status >= 400) {
    answer.kind = ApiAnswer::Kind::kRefused;
    if (!json) answer.message = "the answer is not JSON: " + Excerpt(response.body);
    return answer;
  }
  if (response.status < 200 || response.status >= 300) {
    answer.kind = ApiAnswer::Kind::kBadAnswer;
    answer.message = "unexpected HTTP status (redirections are not followed)";
    return answer;
  }
  if (!json) {
    answer.kind = ApiAnswer::Kind::kBadAnswer;
    answer.message = "the answer is not a JSON object: " + Excerpt(response.body);
    return answer;
  }
  simdjson::dom::object data;
  if (!has_meta || bad_meta || root["data"].get(data) != simdjson::SUCCESS) {
    answer.kind = ApiAnswer::Kind::kBadAnswer;
    answer.message = "the answer is not an API envelope (no \"meta\" and \"data\" objects)";
    return answer;
  }
  if (code != 0 && code != 200) {
    answer.kind = code == 401 ? ApiAnswer::Kind::kUnauthorized : ApiAnswer::Kind::kRefused;
    return answer;
  }
  answer.kind = ApiAnswer::Kind::kOk;
  answer.body = response.body;
  return answer;
}

ApiClient::ApiClient(HttpTransport* transport, std::string server, Credentials credentials, RetryPolicy retry,
                     Clock& clock)
    : transport_(transport),
      server_(std::move(server)),
      credentials_(std::move(credentials)),
      retry_(retry),
      clock_(clock) {}

HttpResponse ApiClient::Send(std::string_view endpoint, const std::string& body, const std::string& authorization) {
  {
    std::lock_guard<std::mutex> hold(mutex_);
    if (outstanding_++ == 0) wait_started_ = clock_.MonotonicMicros();
  }
  HttpResponse response = transport_->Post({server_ + "/" + std::string(endpoint), body, authorization});
  {
    std::lock_guard<std::mutex> hold(mutex_);
    if (--outstanding_ == 0) waited_ += clock_.MonotonicMicros() - wait_started_;
  }
  return response;
}

void ApiClient::CountError(std::string_view endpoint) {
  std::lock_guard<std::mutex> hold(mutex_);
  ++errors_[std::string(endpoint)];
}

ApiAnswer ApiClient::WithRetries(std::string_view endpoint, const std::string& body, const std::string& authorization) {
  bool in_doubt = false;
  for (int attempt = 1;; ++attempt) {
    const HttpResponse response = Send(endpoint, body, authorization);
    ApiAnswer answer = ClassifyAnswer(response);
    answer.in_doubt = in_doubt;
    if (answer.ok()) return answer;
    CountError(endpoint);
    if (answer.kind != ApiAnswer::Kind::kUnreachable || attempt >= retry_.attempts) return answer;
    if (response.outcome == HttpResponse::Outcome::kAborted) return answer;  // the cycle's read bounds: no retry
    // A call that never reached the server cannot have been done there.
    if (response.outcome != HttpResponse::Outcome::kConnectFailed) in_doubt = true;
    uint64_t random = 0;
    {
      std::lock_guard<std::mutex> hold(mutex_);
      random = random_();
    }
    clock_.Sleep(BackoffMicros(retry_, attempt, random));
  }
}

ApiAnswer ApiClient::Login() {
  const std::string basic = "Basic " + Base64(credentials_.access_key + ":" + credentials_.secret_key);
  ApiAnswer answer = WithRetries("auth.login", "{}", basic);
  if (!answer.ok()) return answer;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  std::string_view token;
  if (parser.parse(answer.body).get(root) != simdjson::SUCCESS ||
      root["data"]["token"].get(token) != simdjson::SUCCESS || token.empty()) {
    answer.kind = ApiAnswer::Kind::kBadAnswer;
    answer.message = "auth.login answered without a token";
    return answer;
  }
  std::lock_guard<std::mutex> hold(mutex_);
  token_ = std::string(token);
  ++token_generation_;
  answer.body.clear();  // holds the token
  return answer;
}

ApiAnswer ApiClient::Call(std::string_view endpoint, const std::string& body) {
  bool renewed = false;
  for (;;) {
    std::string token;
    uint64_t generation = 0;
    {
      std::lock_guard<std::mutex> hold(mutex_);
      token = token_;
      generation = token_generation_;
    }
    if (token.empty()) {
      // Single flight: the callers that find no token wait for one login.
      std::lock_guard<std::mutex> one(login_mutex_);
      {
        std::lock_guard<std::mutex> hold(mutex_);
        if (!token_.empty()) continue;  // another caller logged in meanwhile
      }
      ApiAnswer login = Login();
      if (!login.ok()) {
        login.at_login = true;
        return login;
      }
      continue;
    }
    ApiAnswer answer = WithRetries(endpoint, body, "Bearer " + token);
    if (answer.kind != ApiAnswer::Kind::kUnauthorized || renewed) return answer;
    // An expired or revoked token: renewed once (by whichever caller sees it first).
    renewed = true;
    std::lock_guard<std::mutex> hold(mutex_);
    if (token_generation_ == generation) token_.clear();
  }
}

int64_t ApiClient::server_wait_micros() const {
  std::lock_guard<std::mutex> hold(mutex_);
  return waited_ + (outstanding_ > 0 ? clock_.MonotonicMicros() - wait_started_ : 0);
}

std::map<std::string, uint64_t> ApiClient::errors_by_endpoint() const {
  std::lock_guard<std::mutex> hold(mutex_);
  return errors_;
}

void ApiClient::ResetWait() {
  std::lock_guard<std::mutex> hold(mutex_);
  waited_ = 0;
  if (outstanding_ > 0) wait_started_ = clock_.MonotonicMicros();
}

}  // namespace rescfg::sync
