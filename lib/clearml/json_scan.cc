#include "clearml/json_scan.h"

#include <cstdint>
#include <cstring>

namespace rescfg::clearml {

void JsonScanner::SkipSpace() {
  while (p_ < end_) {
    const char c = *p_;
    if (c == '\n') {
      ++line_;
      line_start_ = p_ + 1;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      return;
    }
    ++p_;
  }
}

bool JsonScanner::Consume(char c) {
  if (p_ == end_ || *p_ != c) return false;
  ++p_;
  return true;
}

void JsonScanner::MoveTo(const char* to) {
  if (to <= p_) return;
  for (const char* nl = p_; (nl = static_cast<const char*>(std::memchr(nl, '\n', to - nl))) != nullptr; ++nl) {
    ++line_;
    line_start_ = nl + 1;
  }
  p_ = to;
}

bool JsonScanner::Fail(const char* at, std::string message) {
  MoveTo(at < end_ ? at : end_);  // so that Here() names the problem
  error_ = std::move(message);
  return false;
}

const char* JsonScanner::StringEnd(const char* p) const {
  ++p;  // the opening quote
  for (;;) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // Eight bytes at a time: the first quote or backslash is the lowest byte
    // whose high bit the zero-byte test sets (false hits only lie above it).
    constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
    while (end_ - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      const uint64_t quote = w ^ (kOnes * '"'), backslash = w ^ (kOnes * '\\');
      const uint64_t hit = (((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash)) & kHigh;
      if (hit != 0) {
        p += __builtin_ctzll(hit) / 8;
        break;
      }
      p += 8;
    }
#endif
    while (p < end_ && *p != '"' && *p != '\\') ++p;
    if (p >= end_) return nullptr;
    if (*p == '"') return p + 1;
    p += 2;  // an escape: the next byte is never the closing quote
    if (p > end_) return nullptr;
  }
}

bool JsonScanner::ReadString(std::string_view* raw) {
  if (p_ == end_ || *p_ != '"') return Fail(p_, "expected a string");
  const char* e = StringEnd(p_);
  if (e == nullptr) return Fail(p_, "a string is not closed");
  *raw = std::string_view(p_, static_cast<size_t>(e - p_));
  p_ = e;
  return true;
}

bool JsonScanner::SkipValue(std::string_view* value) {
  const char* start = p_;
  if (p_ == end_) return Fail(p_, "expected a value, found the end of the file");
  const char c = *p_;
  if (c == '"') {
    std::string_view raw;
    if (!ReadString(&raw)) return false;
    *value = raw;
    return true;
  }
  if (c == '{' || c == '[') {
    std::string closers(1, c == '{' ? '}' : ']');
    const char* p = p_ + 1;
    while (p < end_) {
      switch (*p) {
        case '"': {
          const char* e = StringEnd(p);
          if (e == nullptr) return Fail(p, "a string is not closed");
          p = e;
          continue;
        }
        case '{': closers.push_back('}'); break;
        case '[': closers.push_back(']'); break;
        case '}':
        case ']':
          if (closers.back() != *p) {
            return Fail(p, std::string("'") + *p + "' does not close the '" + (closers.back() == '}' ? "{" : "[") +
                               "' before it");
          }
          closers.pop_back();
          if (closers.empty()) {
            MoveTo(p + 1);
            *value = std::string_view(start, static_cast<size_t>(p_ - start));
            return true;
          }
          break;
        default: break;
      }
      ++p;
    }
    return Fail(start, std::string("the '") + c + "' here is never closed");
  }
  if (c == '}' || c == ']' || c == ',' || c == ':') return Fail(p_, std::string("expected a value, found '") + c + "'");
  while (p_ < end_) {
    const char d = *p_;
    if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\t' || d == '\r' || d == '\n') break;
    ++p_;
  }
  *value = std::string_view(start, static_cast<size_t>(p_ - start));
  return true;
}

}  // namespace rescfg::clearml
