#include "support/provisioned_state.h"

#include <gtest/gtest.h>

#include "state/state_store.h"

namespace rescfg::testing {

void ProvisionState(const std::string& state_dir, const std::string& canonical, const std::string& message) {
  std::string error;
  auto store = StateStore::Open(state_dir, StateStore::Access::kWrite, 1, &error);
  EXPECT_TRUE(store) << error;
  if (!store) return;
  EXPECT_EQ(store->Commit({canonical, canonical, message, 1}, &error), StateStore::CommitResult::kCommitted) << error;
}

}  // namespace rescfg::testing
