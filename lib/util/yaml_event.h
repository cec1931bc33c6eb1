#pragma once
/// The parse events the YAML jobs reader is built on. Two producers emit
/// them: yaml-cpp's event parser (any YAML) and the fast scanner (a plain
/// subset); both must give the same stream for the same text, so the jobs
/// built from it cannot tell them apart.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "util/finding.h"

namespace rescfg {

/// A parse event, after alias expansion (kOpaque and kBadAlias stand for an
/// alias that was not expanded).
enum class Ev : uint8_t { kNull, kScalar, kSeqStart, kSeqEnd, kMapStart, kMapEnd, kAlias, kOpaque, kBadAlias };

inline bool IsStart(Ev t) { return t == Ev::kSeqStart || t == Ev::kMapStart; }
inline bool IsEnd(Ev t) { return t == Ev::kSeqEnd || t == Ev::kMapEnd; }

struct Event {
  explicit Event(Ev t, Mark m = {}, size_t a = 0, std::string_view s = {})
      : type(t), mark(m), anchor(a), text(s) {}
  Ev type;
  Mark mark;              ///< 1-based, where yaml-cpp puts it
  size_t anchor;          ///< kAlias: the anchor it refers to
  std::string_view text;  ///< kScalar: the value; kBadAlias: why (valid during Handle only)
  bool quoted = false;    ///< kScalar: written quoted (or with a tag), so a string, never a number
};

/// Receives events in document order.
class YamlEventSink {
 public:
  virtual void Handle(const Event& ev) = 0;

 protected:
  ~YamlEventSink() = default;
};

}  // namespace rescfg
