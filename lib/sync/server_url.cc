#include "sync/server_url.h"

#include <curl/curl.h>

#include <memory>

namespace rescfg::sync {

namespace {

struct UrlFree {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};
struct TextFree {
  void operator()(char* p) const { curl_free(p); }
};

/// One part of a parsed URL, or "" when it has none.
std::string Part(CURLU* url, CURLUPart part) {
  char* raw = nullptr;
  if (curl_url_get(url, part, &raw, 0) != CURLUE_OK || raw == nullptr) return "";
  std::unique_ptr<char, TextFree> text(raw);
  return text.get();
}

}  // namespace

std::string ServerUrlProblem(const std::string& url, std::string_view host) {
  std::unique_ptr<CURLU, UrlFree> parsed(curl_url());
  if (!parsed) return "cannot read the server address: out of memory";
  const CURLUcode code = curl_url_set(parsed.get(), CURLUPART_URL, url.c_str(), 0);
  if (code != CURLUE_OK) {
    return "the server address '" + url + "' is not a valid URL: " + curl_url_strerror(code);
  }
  std::string read_host = Part(parsed.get(), CURLUPART_HOST);
  if (read_host.size() > 2 && read_host.front() != '[' && read_host.find(':') != std::string::npos) {
    read_host = "[" + read_host + "]";
  }
  if (read_host != host) {
    return "the server address '" + url + "' is not a valid URL: its host reads as '" + read_host + "', not '" +
           std::string(host) + "'";
  }
  return "";
}

}  // namespace rescfg::sync
