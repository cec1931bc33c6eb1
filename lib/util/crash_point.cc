#include "util/crash_point.h"

#include <cerrno>
#include <cstdlib>
#include <unistd.h>

namespace rescfg {
namespace {

long Target(const char* variable) {
  const char* text = std::getenv(variable);
  return text ? std::strtol(text, nullptr, 10) : 0L;
}

}  // namespace

bool AtCrashPoint() {
  static const long target = Target("RESCFG_TEST_CRASH_POINT");
  static long reached = 0;
  if (target <= 0) return false;
  return ++reached == target;
}

void CrashNow() { ::_exit(kCrashExitCode); }

bool AtWriteFault() {
  static const long target = Target("RESCFG_TEST_FAIL_WRITE");
  static long reached = 0;
  if (target <= 0 || ++reached != target) return false;
  errno = ENOSPC;
  return true;
}

}  // namespace rescfg
