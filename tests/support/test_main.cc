/// Test entry point: every rapidcheck property runs 1000 generated cases
/// unless RC_PARAMS says otherwise (e.g. RC_PARAMS="max_success=30000").

#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("RC_PARAMS", "max_success=1000", /*overwrite=*/0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
