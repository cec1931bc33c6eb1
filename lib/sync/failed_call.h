#pragma once

/// How a failed server call is named in the log (rescfg(1), sync): a failed
/// login is the login's failure, not that of the call that needed it.

#include <string>
#include <string_view>

#include "sync/api_client.h"

namespace rescfg::sync {

/// "ENDPOINT: WHY"; for a login that failed before the call,
/// "auth.login (the login ENDPOINT needed): WHY".
std::string FailedCall(std::string_view endpoint, const ApiAnswer& answer);

}  // namespace rescfg::sync
