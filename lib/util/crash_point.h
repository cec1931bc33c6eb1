#pragma once
/// Deterministic fault injection for the fault tests of the state directory.
///
/// When the environment variable RESCFG_TEST_CRASH_POINT is N (1, 2, ...),
/// the process ends with _exit(kCrashExitCode) at the N-th crash point it
/// reaches, as if killed at that moment. When RESCFG_TEST_FAIL_WRITE is N,
/// the N-th write step (a state file's content, a history line, a command's
/// report on standard output) fails as if the disk were full. Unset
/// (always, outside tests), the points do nothing.

namespace rescfg {

constexpr int kCrashExitCode = 86;

/// True when this point is the one to crash at. Callers that want to leave
/// a half-done write behind do it and then call CrashNow().
bool AtCrashPoint();

/// Ends the process at once, without flushing or unwinding.
[[noreturn]] void CrashNow();

/// AtCrashPoint() then CrashNow().
inline void CrashPoint() {
  if (AtCrashPoint()) CrashNow();
}

/// True (with errno set to ENOSPC) when this write step is the one to fail.
bool AtWriteFault();

}  // namespace rescfg
