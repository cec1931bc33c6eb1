#pragma once
/// Where `rescfg sync` gets its server and credentials: never from the
/// command line (it shows in /proc/PID/cmdline and in `ps`).

#include <optional>
#include <string>

#include "sync/api_client.h"

namespace rescfg::sync {

/// CLEARML_API_ACCESS_KEY and CLEARML_API_SECRET_KEY, the names the ClearML
/// SDK and agent read; nullopt unless both are set and not empty.
std::optional<Credentials> CredentialsFromEnvironment();

/// A file of two lines, the access key then the secret. Refused when group
/// or others may read it (chmod 600, or defaultMode 0400 for a Kubernetes
/// Secret), or when a line is missing or empty. nullopt with `error` set
/// (which never holds the file's content).
std::optional<Credentials> ReadCredentialsFile(const std::string& path, std::string* error);

/// The server's address as calls use it (no trailing slash): http(s)://HOST[:PORT][/PATH].
/// Plain http is refused unless HOST is a loopback address (localhost,
/// 127.0.0.0/8, ::1) or `insecure_http` is set: the token and the
/// credentials would travel in clear text. nullopt with `error` set.
std::optional<std::string> CheckServerAddress(const std::string& url, bool insecure_http, std::string* error);

}  // namespace rescfg::sync
