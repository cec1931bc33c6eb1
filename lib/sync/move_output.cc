#include "sync/move_output.h"

#include "util/flat_record.h"
#include "util/text_table.h"

namespace rescfg::sync {

std::string RecordFrom(const MoveIntent& m) {
  switch (m.kind) {
    case ActionKind::kMove: return m.from;
    case ActionKind::kStop: return m.to;
    case ActionKind::kRequeue: return "";
    case ActionKind::kRemove: return m.to;
  }
  return "";
}

std::string RecordTo(const MoveIntent& m) {
  switch (m.kind) {
    case ActionKind::kMove: return m.to;
    case ActionKind::kStop: return "";
    case ActionKind::kRequeue: return m.from;
    case ActionKind::kRemove: return "";
  }
  return "";
}

bool HasDetail(const MoveReport& r) {
  return r.result == MoveResult::kSkipped || r.result == MoveResult::kFailed || r.result == MoveResult::kStuck ||
         ((r.result == MoveResult::kRequeued || r.intent.kind == ActionKind::kRemove) && !r.detail.empty());
}

std::string MoveJsonLine(const MoveReport& r, int64_t cycle) {
  const MoveIntent& m = r.intent;
  std::string out = "{\"cycle\": " + std::to_string(cycle) + ", \"time\": ";
  AppendJsonString(&out, r.time);
  auto field = [&](const char* key, const std::string& value, bool null_when_empty = false) {
    out.append(", \"").append(key).append("\": ");
    if (null_when_empty && value.empty()) {
      out.append("null");
    } else {
      AppendJsonString(&out, value);
    }
  };
  field("action", ActionKindName(m.kind));
  field("task", m.task);
  field("name", m.name, true);
  const bool remove = m.kind == ActionKind::kRemove;  // of a task the sync knows no policy of
  field("policy", m.policy, remove);
  field("profile", m.profile, remove);
  field("pool", m.pool);
  field("from", RecordFrom(m), m.kind != ActionKind::kMove);
  field("to", RecordTo(m), m.kind != ActionKind::kMove);
  if (m.kind == ActionKind::kStop || m.kind == ActionKind::kRequeue) field("for", m.preemptor);
  field("result", MoveResultName(r.result));
  if (HasDetail(r)) field("detail", r.detail);
  return out + "}\n";
}

std::string MoveJsonLines(const std::vector<MoveReport>& moves, int64_t cycle) {
  std::string out;
  for (const MoveReport& r : moves) out += MoveJsonLine(r, cycle);
  return out;
}

std::string MoveTable(const std::vector<MoveReport>& moves, int64_t cycle) {
  if (moves.empty()) return "";
  TextTable table({"CYCLE", "TIME", "ACTION", "TASK", "NAME", "POLICY", "PROFILE", "POOL", "FROM", "TO", "RESULT", "DETAIL"});
  table.SetAlign(0, TextTable::Align::kRight);
  for (const MoveReport& r : moves) {
    const MoveIntent& m = r.intent;
    const std::string detail = m.kind == ActionKind::kMove || m.preemptor.empty() ? r.detail
                               : "for " + m.preemptor + (r.detail.empty() ? "" : "; " + r.detail);
    table.AddRow({std::to_string(cycle), r.time, ActionKindName(m.kind), m.task, m.name, m.policy, m.profile, m.pool,
                  RecordFrom(m), RecordTo(m), MoveResultName(r.result), detail});
  }
  return table.Render();
}

}  // namespace rescfg::sync
