#include "sync/move_output.h"

#include "util/flat_record.h"
#include "util/text_table.h"

namespace rescfg::sync {

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
  field("task", m.task);
  field("name", m.name, true);
  field("policy", m.policy);
  field("profile", m.profile);
  field("pool", m.pool);
  field("from", m.from);
  field("to", m.to);
  field("result", MoveResultName(r.result));
  if (r.result == MoveResult::kSkipped || r.result == MoveResult::kFailed) field("detail", r.detail);
  return out + "}\n";
}

std::string MoveJsonLines(const std::vector<MoveReport>& moves, int64_t cycle) {
  std::string out;
  for (const MoveReport& r : moves) out += MoveJsonLine(r, cycle);
  return out;
}

std::string MoveTable(const std::vector<MoveReport>& moves, int64_t cycle) {
  if (moves.empty()) return "";
  TextTable table({"CYCLE", "TIME", "TASK", "NAME", "POLICY", "PROFILE", "POOL", "FROM", "TO", "RESULT", "DETAIL"});
  table.SetAlign(0, TextTable::Align::kRight);
  for (const MoveReport& r : moves) {
    const MoveIntent& m = r.intent;
    table.AddRow({std::to_string(cycle), r.time, m.task, m.name, m.policy, m.profile, m.pool, m.from, m.to, MoveResultName(r.result),
                  r.detail});
  }
  return table.Render();
}

}  // namespace rescfg::sync
