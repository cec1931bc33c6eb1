#include "sync/credentials.h"

#include "sync/file_trust.h"
#include "sync/server_url.h"

#include <sys/stat.h>

#include <cstdlib>

#include "util/file_io.h"

namespace rescfg::sync {
namespace {

std::string Trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return std::string(text);
}

bool IsLoopback(std::string_view host) {
  if (host == "localhost" || host == "[::1]") return true;
  if (!host.starts_with("127.")) return false;
  int dots = 0;
  for (char c : host) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

}  // namespace

std::optional<Credentials> CredentialsFromEnvironment() {
  const char* key = std::getenv("CLEARML_API_ACCESS_KEY");
  const char* secret = std::getenv("CLEARML_API_SECRET_KEY");
  if (key == nullptr || secret == nullptr || *key == '\0' || *secret == '\0') return std::nullopt;
  return Credentials{key, secret};
}

std::optional<Credentials> ReadCredentialsFile(const std::string& path, std::string* error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = DisplayName(path) + ": the credentials file is missing or not a regular file";
    return std::nullopt;
  }
  if (const std::string untrusted = UntrustedFileReason(path, DisplayName(path), "credentials file"); !untrusted.empty()) {
    *error = untrusted;
    return std::nullopt;
  }
  if ((st.st_mode & (S_IRGRP | S_IROTH)) != 0) {
    *error = DisplayName(path) + ": the credentials file may be read by group or others; make it readable by its owner "
             "only (chmod 600)";
    return std::nullopt;
  }
  std::string read_error;
  auto text = ReadWholeFile(path, &read_error, 64 * 1024);
  if (!text) {
    *error = DisplayName(path) + ": cannot read the credentials file";
    return std::nullopt;
  }
  const size_t end = text->find('\n');
  Credentials credentials;
  credentials.access_key = Trimmed(std::string_view(*text).substr(0, end));
  if (end != std::string::npos) {
    std::string_view rest = std::string_view(*text).substr(end + 1);
    credentials.secret_key = Trimmed(rest.substr(0, rest.find('\n')));
  }
  if (credentials.access_key.empty() || credentials.secret_key.empty()) {
    *error = DisplayName(path) + ": the credentials file must hold two lines, the access key then the secret key";
    return std::nullopt;
  }
  return credentials;
}

std::optional<std::string> CheckServerAddress(const std::string& url, bool insecure_http, std::string* error) {
  const bool https = url.starts_with("https://");
  const bool http = url.starts_with("http://");
  if (!https && !http) {
    *error = "the server address must start with https:// (or http:// for a loopback address): '" + url + "'";
    return std::nullopt;
  }
  std::string address = url;
  while (address.ends_with('/')) address.pop_back();
  const size_t host_start = https ? 8 : 7;
  std::string_view authority = std::string_view(address).substr(host_start);
  authority = authority.substr(0, authority.find('/'));
  if (authority.find('@') != std::string_view::npos) {
    *error = "the server address must not hold credentials; use CLEARML_API_ACCESS_KEY and CLEARML_API_SECRET_KEY";
    return std::nullopt;
  }
  std::string_view host = authority;
  if (host.starts_with('[')) {
    host = host.substr(0, host.find(']') + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  if (host.empty()) {
    *error = "the server address has no host: '" + url + "'";
    return std::nullopt;
  }
  if (std::string problem = ServerUrlProblem(address, host); !problem.empty()) {
    *error = problem;
    return std::nullopt;
  }
  if (http && !insecure_http && !IsLoopback(host)) {
    *error = "plain http:// to " + std::string(host) +
             " would send the credentials in clear text; use https://, or --insecure-http on a network you trust";
    return std::nullopt;
  }
  return address;
}

}  // namespace rescfg::sync
