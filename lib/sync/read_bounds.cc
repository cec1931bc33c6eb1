#include "sync/read_bounds.h"

#include <cstdlib>
#include <string_view>

namespace rescfg::sync {
namespace {

std::string SecondsText(int64_t micros) { return std::to_string(micros / 1'000'000); }

bool ParseCount(std::string_view text, uint64_t* out) {
  if (text.empty() || text.size() > 18) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return v > 0;
}

}  // namespace

void ApplyTestReadBounds(ReadBounds* bounds) {
  const char* text = std::getenv("RESCFG_TEST_READ_BOUNDS");
  if (text == nullptr) return;
  const std::string_view all(text);
  const size_t comma = all.find(',');
  if (comma == std::string_view::npos) return;
  uint64_t calls = 0, bytes = 0;
  if (ParseCount(all.substr(0, comma), &calls) && ParseCount(all.substr(comma + 1), &bytes)) {
    bounds->cycle_calls = calls;
    bounds->cycle_bytes = bytes;
  }
}

void ReadGuard::Arm() {
  std::lock_guard<std::mutex> hold(mutex_);
  armed_ = true;
  started_ = clock_.MonotonicMicros();
  bytes_ = calls_ = 0;
}

void ReadGuard::Disarm() {
  std::lock_guard<std::mutex> hold(mutex_);
  armed_ = false;
}

bool ReadGuard::Over(uint64_t extra_bytes, int64_t now_micros, std::string* why) const {
  if (!armed_) return false;
  if (stop_ != nullptr && stop_->load()) {
    *why = "stopped by a signal while reading the server";
    return true;
  }
  if (now_micros - started_ > bounds_.cycle_micros) {
    *why = "reading the server took longer than " + SecondsText(bounds_.cycle_micros) +
           " s (--read-timeout); a slow or endless answer";
    return true;
  }
  if (bytes_ + extra_bytes > bounds_.cycle_bytes) {
    *why = "the server's answers in this cycle passed " + std::to_string(bounds_.cycle_bytes) + " bytes";
    return true;
  }
  return false;
}

bool ReadGuard::BeforeCall(std::string* why) {
  std::lock_guard<std::mutex> hold(mutex_);
  if (!armed_) return true;
  if (Over(0, clock_.MonotonicMicros(), why)) return false;
  if (++calls_ > bounds_.cycle_calls) {
    *why = "more than " + std::to_string(bounds_.cycle_calls) +
           " calls to read the server in one cycle (a scroll without end?)";
    return false;
  }
  return true;
}

bool ReadGuard::WhileReceiving(uint64_t received, std::string* why) {
  std::lock_guard<std::mutex> hold(mutex_);
  return !Over(received, clock_.MonotonicMicros(), why);
}

void ReadGuard::AfterCall(uint64_t bytes) {
  std::lock_guard<std::mutex> hold(mutex_);
  if (armed_) bytes_ += bytes;
}

}  // namespace rescfg::sync
