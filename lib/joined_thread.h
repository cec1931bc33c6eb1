#pragma once
/// A thread for one piece of work beside the caller's: joined when it goes
/// out of scope (so an early return or an exception never leaves it
/// running), and whose exception Join() rethrows on the caller's thread.

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

}  // namespace rescfg
