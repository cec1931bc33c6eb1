#include "state/crash_point.h"

#include <cstdlib>
#include <unistd.h>

namespace rescfg {

bool AtCrashPoint() {
  static const long target = [] {
    const char* text = std::getenv("RESCFG_TEST_CRASH_POINT");
    return text ? std::strtol(text, nullptr, 10) : 0L;
  }();
  static long reached = 0;
  if (target <= 0) return false;
  return ++reached == target;
}

void CrashNow() { ::_exit(kCrashExitCode); }

}  // namespace rescfg
