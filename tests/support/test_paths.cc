#include "support/test_paths.h"

namespace rescfg::test {
const char* SourceDir() { return RESCFG_TEST_SOURCE_DIR_VALUE; }
const char* BinaryPath() { return RESCFG_TEST_BINARY_VALUE; }
}  // namespace rescfg::test
