#pragma once
/// yaml-cpp's parse events turned into the events of yaml_event.h: anchored
/// nodes are recorded and aliases replayed into a sink, within budgets so
/// that an alias bomb cannot explode.

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/yaml_event.h"

namespace rescfg {

/// A sink that aliases are expanded into.
class AliasSink : public YamlEventSink {
 public:
  /// Whether the node being read is skipped (an alias there need not expand).
  virtual bool Skipping() const = 0;
  /// Entries begun so far: the per-entry budget starts again at each.
  virtual size_t entries_begun() const = 0;

 protected:
  ~AliasSink() = default;
};

/// How many events aliases may expand to.
struct AliasBudget {
  uint64_t per_entry = 0;  ///< within one entry of the sink
  uint64_t total = 0;      ///< in the whole document
};

/// The message of the kBadAlias event for an alias to a node that contains it.
inline constexpr std::string_view kCyclicAlias = "an alias refers to a node that contains it";

/// Receives yaml-cpp's events, records anchored nodes and expands aliases
/// into the builder, within budgets so that an alias bomb cannot explode.
class AliasExpander : public YAML::EventHandler {
 public:
  /// Expands aliases into `sink`, at most `budget.per_entry` events per entry of
  /// the sink and `budget.total` in all.
  AliasExpander(AliasSink* sink, AliasBudget budget);

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { Raw(Event(Ev::kNull, ToMark(m)), a); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override {
    Raw(Event(Ev::kAlias, ToMark(m), a), YAML::NullAnchor);
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a,
                const std::string& value) override {
    Event ev(Ev::kScalar, ToMark(m), 0, value);
    ev.quoted = tag != "?";  // yaml-cpp tags plain scalars "?", quoted ones "!"
    Raw(ev, a);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a,
                       YAML::EmitterStyle::value) override {
    Raw(Event(Ev::kSeqStart, ToMark(m)), a);
  }
  void OnSequenceEnd() override { Raw(Event(Ev::kSeqEnd), YAML::NullAnchor); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a,
                  YAML::EmitterStyle::value) override {
    Raw(Event(Ev::kMapStart, ToMark(m)), a);
  }
  void OnMapEnd() override { Raw(Event(Ev::kMapEnd), YAML::NullAnchor); }

 private:
  struct Logged {
    Ev type;
    Mark mark;
    size_t anchor;
    size_t text_begin, text_size;
    bool quoted;
  };
  struct Anchor {
    size_t begin = 0, end = 0;  ///< its events in log_
    int depth = 0;              ///< nesting depth where it starts
    bool done = false;
    uint64_t cost = 0;          ///< events it expands to, aliases included (saturating)
  };

  static Mark ToMark(const YAML::Mark& m) { return {m.line + 1, m.column + 1}; }

  void Raw(const Event& ev, YAML::anchor_t anchor);
  void Log(const Event& ev);
  void Expand(const Event& alias);
  /// Whether an alias (at log position `at`, or outside the log) may be replayed.
  bool Replayable(size_t anchor, size_t at) const {
    return anchor < anchors_.size() && anchors_[anchor].done && anchors_[anchor].end <= at;
  }

  AliasSink* builder_;
  AliasBudget budget_;
  std::string too_large_;  ///< the message of an alias over budget
  std::vector<Logged> log_;          ///< events of anchored nodes
  std::vector<uint64_t> cost_sum_ = {0};  ///< cost_sum_[i]: cost of log_[0, i)
  std::string texts_;
  std::vector<Anchor> anchors_;      ///< by yaml-cpp's anchor number
  std::vector<size_t> open_;         ///< anchors still being recorded
  int depth_ = 0;
  uint64_t total_cost_ = 0, entry_cost_ = 0;
  size_t cost_entry_ = 0;            ///< the entry entry_cost_ belongs to
};

/// Accepts the events of a document that should not be there.
class IgnoreEvents : public YAML::EventHandler {
 public:
  Mark start;
  void OnDocumentStart(const YAML::Mark& m) override { start = {m.line + 1, m.column + 1}; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};


}  // namespace rescfg
