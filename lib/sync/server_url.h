#pragma once

/// A ClearML server address checked once, at start (rescfg(1), sync): read
/// by libcurl's own URL parser, so that an address libcurl would refuse on
/// every call (a port beyond 65535, text after an IPv6 address's bracket)
/// is an error before the first cycle.

#include <string>
#include <string_view>

namespace rescfg::sync {

/// "" when libcurl reads `url` as a URL whose host is `host` (as the
/// address writes it, brackets included for IPv6); else why not.
std::string ServerUrlProblem(const std::string& url, std::string_view host);

}  // namespace rescfg::sync
