#pragma once
/// An optional view of text kept elsewhere (the loaded jobs file, a report's
/// arena). Absent is a null pointer, so it is the size of a string_view,
/// smaller than std::optional<std::string_view> and far smaller than
/// std::optional<std::string>: a million jobs carry several of them.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace rescfg {

class TextRef {
 public:
  constexpr TextRef() = default;
  constexpr TextRef(std::nullopt_t) {}  // NOLINT: reads like std::optional
  constexpr TextRef(std::string_view text)  // NOLINT: a view converts implicitly
      : data_(text.data() ? text.data() : ""), size_(text.size()) {}
  constexpr TextRef(const char* text) : TextRef(std::string_view(text)) {}  // NOLINT
  /// Views `text`: the string must outlive the reference.
  TextRef(const std::string& text) : TextRef(std::string_view(text)) {}  // NOLINT
  TextRef(std::string&&) = delete;  // would dangle at once

  constexpr bool has_value() const { return data_ != nullptr; }
  constexpr explicit operator bool() const { return data_ != nullptr; }
  /// The text; empty when absent.
  constexpr std::string_view operator*() const { return {data_ ? data_ : "", size_}; }
  constexpr std::string_view value() const { return **this; }
  std::string value_or(std::string_view fallback) const { return std::string(data_ ? **this : fallback); }
  constexpr void reset() { data_ = nullptr; size_ = 0; }

  /// For `ref->size()` and the like.
  struct Arrow {
    std::string_view text;
    constexpr const std::string_view* operator->() const { return &text; }
  };
  constexpr Arrow operator->() const { return {**this}; }

  friend constexpr bool operator==(TextRef a, TextRef b) {
    return a.has_value() == b.has_value() && *a == *b;
  }
  friend constexpr bool operator==(TextRef a, std::string_view b) { return a.has_value() && *a == b; }
  friend constexpr bool operator==(TextRef a, const char* b) { return a.has_value() && *a == b; }
  friend bool operator==(TextRef a, const std::string& b) { return a.has_value() && *a == b; }
  friend constexpr bool operator==(TextRef a, std::nullopt_t) { return !a.has_value(); }
  friend std::ostream& operator<<(std::ostream& os, TextRef t) {
    return t ? os << '"' << *t << '"' : os << "(none)";
  }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace rescfg
