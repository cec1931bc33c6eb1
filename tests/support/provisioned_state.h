#pragma once
/// A state directory with one provisioned revision, for tests of the sync
/// (which reads its configuration from the state, as `rescfg sync` does).

#include <string>

namespace rescfg::testing {

/// Commits CANONICAL (a canonical configuration text) as revision 1 of the
/// state at STATE_DIR; a failure is a test failure.
void ProvisionState(const std::string& state_dir, const std::string& canonical, const std::string& message);

}  // namespace rescfg::testing
