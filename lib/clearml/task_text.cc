#include "clearml/task_text.h"

#include <simdjson.h>

#include "jobs/json_quick_check.h"
#include "jobs/json_values.h"
#include "util/byte_classes.h"
#include "util/quote_search.h"

namespace rescfg::clearml {

TaskKey TaskKeyOf(std::string_view key) {
  switch (key.size()) {
    case 2: if (key == "id") return TaskKey::kId; break;
    case 4: if (key == "name") return TaskKey::kName; break;
    case 6: if (key == "status") return TaskKey::kStatus; break;
    case 7:
      if (key == "runtime") return TaskKey::kParamRoot;
      if (key == "started") return TaskKey::kStarted;
      break;
    case 9: if (key == "execution") return TaskKey::kExecution; break;
    case 11: if (key == "hyperparams") return TaskKey::kParamRoot; break;
    case 13: if (key == "configuration") return TaskKey::kParamRoot; break;
    case 14:
      if (key == "status_changed") return TaskKey::kStatusChanged;
      if (key == "status_message") return TaskKey::kStatusMessage;
      break;
    default: break;
  }
  return TaskKey::kOther;
}

namespace {

/// Walks a text that has no control character (so its only blanks are
/// spaces) and gives up at the first thing it is not sure of.
class TextWalk {
 public:
  TextWalk(std::string_view text, const ParamQuery& query, ParamCapture& capture)
      : p_(text.data()), end_(text.data() + text.size()), query_(query), capture_(capture) {}

  bool Task(TaskText* out) {
    uint32_t seen = 0;
    return Object([&](std::string_view key) {
      const TaskKey kind = TaskKeyOf(key);
      if (kind == TaskKey::kOther) return Skip(1);
      if (kind == TaskKey::kParamRoot) {
        const int node = query_.Child(ParamQuery::kParams, key);
        return node < 0 ? Skip(1) : Param(node, 1);
      }
      const uint32_t bit = 1u << static_cast<unsigned>(kind);
      if (seen & bit) return false;  // the parser reports it
      seen |= bit;
      if (Null()) return true;  // counts as absent
      switch (kind) {
        case TaskKey::kId: return String(out, TaskText::kId);
        case TaskKey::kName: return String(out, TaskText::kName);
        case TaskKey::kStatus: return String(out, TaskText::kStatus);
        case TaskKey::kStatusChanged: return String(out, TaskText::kStatusChanged);
        case TaskKey::kStarted: return String(out, TaskText::kStarted);
        case TaskKey::kStatusMessage: return String(out, TaskText::kStatusMessage);
        case TaskKey::kExecution: return Execution(out);
        default: return false;
      }
    }) && Rest();
  }

 private:
  void Spaces() {
    while (p_ < end_ && *p_ == ' ') ++p_;
  }
  bool At(char c) {
    Spaces();
    return p_ < end_ && *p_ == c;
  }
  /// Nothing but spaces to the end.
  bool Rest() {
    Spaces();
    return p_ == end_;
  }
  /// A string without escapes; its text.
  bool Plain(std::string_view* text) {
    if (!At('"')) return false;
    const char* close = QuoteOrBackslash(p_ + 1, end_);
    if (close == end_ || *close != '"') return false;
    *text = std::string_view(p_ + 1, static_cast<size_t>(close - p_ - 1));
    p_ = close + 1;
    return true;
  }
  bool String(TaskText* out, TaskText::Field field) {
    std::string_view text;
    if (!Plain(&text)) return false;
    out->Set(field, text);
    return true;
  }
  /// A null, stepped over; false (nothing taken) at anything else.
  bool Null() {
    if (!At('n')) return false;
    const char* end = json::QuickCheckedEnd(p_, end_, 1);
    if (end == nullptr || end - p_ != 4) return false;
    p_ = end;
    return true;
  }
  /// A value at `depth` the quick check is sure of, stepped over.
  bool Skip(int depth) {
    Spaces();
    if (depth > json::kMaxDepth || p_ == end_) return false;
    const char* end = json::QuickCheckedEnd(p_, end_, depth);
    if (end == nullptr) return false;
    p_ = end;
    return true;
  }
  /// An object; `member(key)` reads each member's value.
  template <class Member>
  bool Object(Member&& member) {
    if (!At('{')) return false;
    ++p_;
    if (At('}')) {
      ++p_;
      return true;
    }
    for (;;) {
      std::string_view key;
      if (!Plain(&key) || !At(':')) return false;
      ++p_;
      Spaces();
      if (!member(key)) return false;
      if (At(',')) {
        ++p_;
        continue;
      }
      if (!At('}')) return false;
      ++p_;
      return true;
    }
  }
  bool Execution(TaskText* out) {
    bool queue_seen = false;
    return Object([&](std::string_view key) {
      if (key != "queue") return Skip(2);
      if (queue_seen) return false;
      queue_seen = true;
      return Null() || String(out, TaskText::kQueue);  // an {id, name} object: the parser's
    });
  }
  /// The value at `node` of the query, as ReadParam reads it.
  bool Param(int node, int depth) {
    Spaces();
    if (depth > json::kMaxDepth || p_ == end_) return false;
    using Kind = ParamCapture::Kind;
    switch (*p_) {
      case '{':
        if (!capture_.Set(node, Kind::kMap)) return false;
        if (!query_.HasChildren(node)) return Skip(depth);
        return Object([&](std::string_view key) {
          const int child = query_.Child(node, key);
          if (child >= 0) return Param(child, depth + 1);
          if (int near = query_.NearMiss(node, key); near >= 0) capture_.NoteNearMiss(near, node, key);
          return Skip(depth + 1);
        });
      case '[':
        return capture_.Set(node, Kind::kList) && Skip(depth);
      case '"': {
        std::string_view text;
        return Plain(&text) && capture_.Set(node, Kind::kScalar, text);
      }
      default: {
        const char* start = p_;
        if (!Skip(depth)) return false;
        const std::string_view token(start, static_cast<size_t>(p_ - start));
        if (token == "null") return capture_.Set(node, Kind::kNull);
        return capture_.Set(node, Kind::kScalar, token);  // a number, true or false
      }
    }
  }

  const char* p_;
  const char* const end_;
  const ParamQuery& query_;
  ParamCapture& capture_;
};

}  // namespace

bool ReadTaskText(std::string_view text, const ParamQuery& query, ParamCapture& capture, TaskText* out) {
  const ByteClasses bytes = ClassifyBytes(text);
  if (bytes.control) return false;
  if (bytes.high && !simdjson::validate_utf8(text.data(), text.size())) return false;
  return TextWalk(text, query, capture).Task(out);
}

}  // namespace rescfg::clearml
