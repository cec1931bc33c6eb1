#pragma once
/// Files a sync trusts with its secrets or its server's identity (the
/// credentials file, a CA bundle): a regular file that only its owner, who
/// is the user running the sync or root, can change (rescfg(1), "rescfg
/// sync"). A file others can write lets them swap the secret or the CA.

#include <string>

namespace rescfg::sync {

/// "" when `path` (shown as `shown`, called `what` in the message) can be
/// trusted, else why not.
std::string UntrustedFileReason(const std::string& path, const std::string& shown, const std::string& what);

}  // namespace rescfg::sync
