#include "sync/failed_call.h"

namespace rescfg::sync {

std::string FailedCall(std::string_view endpoint, const ApiAnswer& answer) {
  if (!answer.at_login) return std::string(endpoint) + ": " + answer.Describe();
  ApiAnswer login = answer;
  login.at_login = false;
  return "auth.login (the login " + std::string(endpoint) + " needed): " + login.Describe();
}

}  // namespace rescfg::sync
