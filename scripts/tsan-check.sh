#!/bin/sh
# The suite under ThreadSanitizer: one clang build (default build-tsan/) of
# the binary and the suite, then every test but the documents'. What it is
# for: the two threads that read a large input together (the work they share
# a batch at a time, the outcome store's writers, the companions read
# ahead). Part of scripts/deep-check; slower to build than CI can afford on
# every submission.
set -eu
cd "$(dirname "$0")/.."
BUILD=${TSAN_BUILD_DIR:-build-tsan}
sh scripts/clang-build.sh "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS=-fsanitize=thread \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DRESCFG_BUILD_BENCHMARKS=OFF
# A race found makes the test that found it fail (ThreadSanitizer's exit code).
TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1} RESCFG_TEST_QUICK=1 \
  ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" -LE documents
