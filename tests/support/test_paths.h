#pragma once
/// Where the suite finds the source tree and the built binary. The paths are
/// compiled into test_paths.cc alone, so that every other file of the suite
/// compiles the same in any clone and a shared compiler cache serves them.

namespace rescfg::test {
const char* SourceDir();
const char* BinaryPath();
}  // namespace rescfg::test

#define RESCFG_SOURCE_DIR (::rescfg::test::SourceDir())
#define RESCFG_BINARY (::rescfg::test::BinaryPath())
