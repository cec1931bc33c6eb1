#pragma once
/// Walks the structure of a large JSON document without parsing it whole:
/// a `tasks.get_all` response of a million tasks is one JSON value, and
/// simdjson would index all of it at once. The scanner finds the extent of
/// each value (following strings through their escapes and brackets through
/// their nesting) so that simdjson can parse the values one at a time, in
/// place. It validates nothing else: what it passes over is parsed by
/// simdjson afterwards, which reports every other syntax error.

#include <cstdint>
#include <string>
#include <string_view>

#include "util/finding.h"

namespace rescfg::clearml {

/// Where the object or array starting at a position ends, or why it does not.
struct BracketsEnd {
  enum Outcome : uint8_t { kClosed, kStringNotClosed, kMismatch, kNeverClosed };
  Outcome outcome = kNeverClosed;
  /// kClosed: the closing bracket; kStringNotClosed: the string's opening
  /// quote; kMismatch: the bracket that does not close; kNeverClosed: the start.
  const char* at = nullptr;
  char expected = 0;  ///< kMismatch: the bracket that would have closed
  bool operator==(const BracketsEnd&) const = default;
};

/// The end of the object or array at `start` (its '{' or '['), following
/// strings through their escapes and brackets through their nesting, a byte
/// at a time. The reference for BracketsEndFast, which the scanner uses.
BracketsEnd BracketsEndScalar(const char* start, const char* end);
/// The same, 16 bytes at a time where SSE2 is (x86-64): ordinary bytes are
/// passed over a block at a time, the quotes, backslashes and brackets of a
/// block taken in order from one mask. With `line_breaks`, it is also told
/// whether a line feed or carriage return may lie in the extent (never false
/// when one does), so that the scanner counts lines only where there are some.
/// It reads 64 bytes at a time with AVX-512 where the processor has it.
BracketsEnd BracketsEndFast(const char* start, const char* end, bool* line_breaks = nullptr);
/// BracketsEndFast with SSE2 alone (a byte at a time without it), and with
/// AVX-512, callable only where BracketsEndAvx512Usable(): each is checked
/// against the scalar scan.
BracketsEnd BracketsEndSse2(const char* start, const char* end, bool* line_breaks = nullptr);
BracketsEnd BracketsEndAvx512(const char* start, const char* end, bool* line_breaks = nullptr);
/// Whether this build has the AVX-512 scan (BracketsEndAvx512Built) and the
/// processor runs it.
bool BracketsEndAvx512Usable();
bool BracketsEndAvx512Built();

class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : p_(text.data()), end_(text.data() + text.size()),
                                                line_start_(text.data()) {}

  /// Skips blanks (space, tab, CR, LF), counting lines: a line feed, or a
  /// carriage return not followed by one, ends a line (CR-only files count
  /// their lines as LF files do, without being rewritten).
  void SkipSpace();
  bool AtEnd() const { return p_ == end_; }
  /// The byte at the position; '\0' at the end.
  char Peek() const { return p_ < end_ ? *p_ : '\0'; }
  /// Moves past one byte that is not a line break.
  void Advance() { ++p_; }
  /// Moves past `c` when it is next; false otherwise.
  bool Consume(char c);
  const char* position() const { return p_; }
  /// Where the position is (1-based line and byte column).
  Mark Here() const { return {line_, static_cast<int>(p_ - line_start_) + 1}; }

  /// The extent of the value at the position (string, object, array or a
  /// scalar's run of bytes), moving past it. False, with `error()` set and
  /// the position where the problem is, when a string or a bracket is not
  /// closed or a closing bracket does not match.
  bool SkipValue(std::string_view* value);
  /// The raw token of the string at the position (quotes included), moving
  /// past it. False when there is no string there or it is not closed.
  bool ReadString(std::string_view* raw);

  const std::string& error() const { return error_; }

 private:
  /// The end of the string starting at `p` (a quote), or nullptr.
  const char* StringEnd(const char* p) const;
  bool Fail(const char* at, std::string message);
  /// Moves forward to `to`, counting the lines passed.
  void MoveTo(const char* to);
  /// Counts a line ending at `p` (a line feed, or a carriage return not
  /// followed by one); false when the byte ends no line.
  bool LineEndsAt(const char* p) {
    if (*p != '\n' && (*p != '\r' || (p + 1 < end_ && p[1] == '\n'))) return false;
    ++line_;
    line_start_ = p + 1;
    return true;
  }

  const char* p_;
  const char* end_;
  const char* line_start_;
  int line_ = 1;
  std::string error_;
};

}  // namespace rescfg::clearml
