#!/bin/sh
# One clang build (default build-san/) of the library, the binary, the suite
# and the libFuzzer targets, all under AddressSanitizer and
# UndefinedBehaviorSanitizer: the sanitized suite and the fuzzers share it
# instead of compiling the code twice.
set -eu
cd "$(dirname "$0")/.."
BUILD=${FUZZ_BUILD_DIR:-build-san}
sh scripts/clang-build.sh "$BUILD" -DCMAKE_BUILD_TYPE=Sanitize -DRESCFG_SANITIZE=ON -DRESCFG_FUZZ=ON \
  -DRESCFG_BUILD_BENCHMARKS=OFF
cmake --build "$BUILD" -j "$(nproc)" --target fuzz
