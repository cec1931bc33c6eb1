#pragma once
/// A thread for one piece of work beside the caller's: joined when it goes
/// out of scope (so an early return or an exception never leaves it
/// running), and whose exception Join() rethrows on the caller's thread.

#include <cstddef>
#include <exception>
#include <thread>
#include <utility>

namespace rescfg {

class JoinedThread {
 public:
  template <typename Work>
  explicit JoinedThread(Work work)
      : thread_([this, work = std::move(work)]() mutable {
          try {
            work();
          } catch (...) {
            failure_ = std::current_exception();
          }
        }) {}
  JoinedThread(const JoinedThread&) = delete;
  JoinedThread& operator=(const JoinedThread&) = delete;
  ~JoinedThread() {
    if (thread_.joinable()) thread_.join();
  }

  /// Waits for the work; rethrows what it threw. Idempotent.
  void Join() {
    if (thread_.joinable()) thread_.join();
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  std::exception_ptr failure_;  ///< before thread_: set up before the work starts
  std::thread thread_;
};

/// Runs `work(half, from, to)` over the two halves of [0, n), the second on
/// a thread of its own, when n is at least `parallel_from` and there is a
/// second core; else `work(0, 0, n)` on this thread alone. The halves must
/// be independent: `half` (0 or 1) tells each what it may write to.
/// Returns whether it split.
template <typename Work>
bool SplitAcrossCores(size_t n, size_t parallel_from, Work work) {
  if (n < parallel_from || n < 2 || std::thread::hardware_concurrency() < 2) {
    work(size_t(0), size_t(0), n);
    return false;
  }
  const size_t middle = n / 2;
  JoinedThread second([&] { work(size_t(1), middle, n); });
  work(size_t(0), size_t(0), middle);
  second.Join();
  return true;
}

}  // namespace rescfg
