#!/bin/sh
# A clang build directory, configured once (after the Debian packages) and
# built: the sanitizers' builds share it (scripts/sanitized-build.sh,
# scripts/tsan-check.sh).
#   scripts/clang-build.sh DIR [CMAKE_OPTIONS...]
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
build=$1
shift
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja "$@" >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
