#include "jobs/json_quick_check.h"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "util/quote_search.h"

namespace rescfg::json {

namespace {

constexpr int kQuickDepth = 32;

bool Blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Past the closing quote of the string opening at `p`; null at an escape or
/// at `end`.
const char* StringEnd(const char* p, const char* end) {
  p = QuoteOrBackslash(p + 1, end);
  return p < end && *p == '"' ? p + 1 : nullptr;
}

/// Past a scalar (number, true, false, null) at `p` that ends where a
/// blank or a bracket or comma follows; null when not one.
const char* ScalarEnd(const char* p, const char* end) {
  const char* q = p;
  while (q < end && !Blank(*q) && *q != ',' && *q != '}' && *q != ']' && *q != ':') ++q;
  const std::string_view token(p, static_cast<size_t>(q - p));
  if (token == "true" || token == "false" || token == "null" || IsJsonNumber(token)) return q;
  return nullptr;
}

}  // namespace

const char* QuickCheckedEnd(const char* p, const char* end, int depth) {
  char closers[kQuickDepth];
  int open = 0;
  auto blanks = [&] {
    while (p < end && Blank(*p)) ++p;
  };
  // A member's key and colon, and the blanks after them.
  auto key = [&] {
    if (p >= end || *p != '"' || (p = StringEnd(p, end)) == nullptr) return false;
    blanks();
    if (p >= end || *p != ':') return false;
    ++p;
    blanks();
    return true;
  };
  // After each value: a comma and the next member or item, or the closer.
  for (;;) {
    // A value at p.
    if (p >= end) return nullptr;
    const char c = *p;
    if (c == '{' || c == '[') {
      if (open == kQuickDepth || depth + open + 1 > kMaxDepth) return nullptr;
      closers[open++] = c == '{' ? '}' : ']';
      ++p;
      blanks();
      if (p < end && *p == closers[open - 1]) {
        ++p;
        --open;
      } else if (c == '{') {
        if (!key()) return nullptr;  // the first member's
        continue;
      } else {
        continue;
      }
    } else if (c == '"') {
      if ((p = StringEnd(p, end)) == nullptr) return nullptr;
    } else if ((p = ScalarEnd(p, end)) == nullptr) {
      return nullptr;
    }
    // What follows a value inside its containers.
    for (;;) {
      if (open == 0) return p;
      blanks();
      if (p >= end) return nullptr;
      if (*p == closers[open - 1]) {
        ++p;
        --open;
        continue;
      }
      if (*p != ',') return nullptr;
      ++p;
      blanks();
      if (closers[open - 1] == '}' && !key()) return nullptr;
      break;
    }
  }
}

error_code SkipQuick(od::value value, const char* end, int depth) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::object || type == od::json_type::array) {
    const char* at = value.raw_json_token().data();
    if (depth <= kMaxDepth && at != nullptr && at < end && QuickCheckedEnd(at, end, depth) != nullptr) {
      return simdjson::SUCCESS;
    }
  }
  return Skip(value, depth);
}

}  // namespace rescfg::json
