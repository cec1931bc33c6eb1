#include "simulate/comparison.h"

#include <map>

#include "util/text_table.h"

namespace rescfg {
namespace {

struct Row {
  std::string name;
  const PolicyStats* before = nullptr;
  const PolicyStats* after = nullptr;
};

std::vector<Row> Rows(const SimulationReport& old_report, const SimulationReport& new_report) {
  std::vector<Row> rows;
  std::map<std::string, size_t> index;
  for (const PolicyStats& p : old_report.policies) {
    index.emplace(p.name, rows.size());
    rows.push_back({p.name, &p, nullptr});
  }
  for (const PolicyStats& p : new_report.policies) {
    auto [it, added] = index.emplace(p.name, rows.size());
    if (added) rows.push_back({p.name, nullptr, nullptr});
    rows[it->second].after = &p;
  }
  return rows;
}

using WaitField = Micros WaitSummary::*;
constexpr WaitField kWaitFields[] = {&WaitSummary::mean, &WaitSummary::p50, &WaitSummary::p90, &WaitSummary::p99,
                                     &WaitSummary::max};
constexpr const char* kWaitNames[] = {"mean", "p50", "p90", "p99", "max"};

std::optional<Micros> Wait(const PolicyStats* p, WaitField field) {
  if (!p || !p->wait) return std::nullopt;
  return (*p->wait).*field;
}

std::string Side(const std::optional<Micros>& v) { return v ? FormatDuration(*v) : "-"; }

std::string Cell(const std::optional<Micros>& before, const std::optional<Micros>& after) {
  std::string cell = Side(before) + " -> " + Side(after);
  if (before && after) cell += " (" + SignedDuration(*before, *after) + ")";
  return cell;
}

std::string Window(const SimulationReport& r) {
  if (!r.start) return "nothing simulated";
  return FormatSimTime(*r.start) + " to " + FormatSimTime(*r.end) + ", " + std::to_string(r.events) + " events";
}

void WriteSide(const PolicyStats* p, JsonWriter& json) {
  if (!p) {
    json.Null();
    return;
  }
  json.BeginObject().Key("jobs").Int(static_cast<int64_t>(p->jobs)).Key("started").Int(static_cast<int64_t>(p->started));
  json.Key("wait");
  if (p->wait) {
    json.BeginObject();
    for (size_t i = 0; i < 5; ++i) json.Key(kWaitNames[i]).Number(FormatSeconds((*p->wait).*kWaitFields[i]));
    json.EndObject();
  } else {
    json.Null();
  }
  json.Key("gpuHours").Number(p->GpuHours()).EndObject();
}

void WriteClock(const SimulationReport& r, JsonWriter& json) {
  json.BeginObject();
  json.Key("start");
  r.start ? json.String(FormatSimTime(*r.start)) : json.Null();
  json.Key("end");
  r.end ? json.String(FormatSimTime(*r.end)) : json.Null();
  json.Key("events").Int(static_cast<int64_t>(r.events)).EndObject();
}

}  // namespace

std::string SignedSeconds(Micros old_value, Micros new_value) {
  const Micros d = new_value - old_value;
  return (d > 0 ? "+" : "") + FormatSeconds(d);
}

std::string SignedDuration(Micros old_value, Micros new_value) {
  const Micros d = new_value - old_value;
  return (d > 0 ? "+" : "") + FormatDuration(d);
}

std::string GpuHoursChange(const U256& old_usage, const U256& new_usage) {
  const bool down = new_usage < old_usage;
  U256 magnitude = down ? old_usage : new_usage;
  magnitude -= down ? new_usage : old_usage;
  const std::string text = GpuHoursText(magnitude);
  if (text == "0") return text;
  return (down ? "-" : "+") + text;
}

std::string RenderSimulationComparisonText(const SimulationReport& old_report, const SimulationReport& new_report) {
  std::string out = "old: " + Window(old_report) + "\nnew: " + Window(new_report) + "\n";
  TextTable table({"POLICY", "STARTED", "WAIT MEAN", "P50", "P90", "P99", "MAX", "GPU-HOURS"});
  for (size_t c = 1; c < 8; ++c) table.SetAlign(c, TextTable::Align::kRight);
  for (const Row& row : Rows(old_report, new_report)) {
    auto count = [](const PolicyStats* p) { return p ? std::to_string(p->started) + "/" + std::to_string(p->jobs) : "-"; };
    std::vector<std::string> cells = {row.name, count(row.before) + " -> " + count(row.after)};
    for (WaitField field : kWaitFields) cells.push_back(Cell(Wait(row.before, field), Wait(row.after, field)));
    std::string hours = (row.before ? row.before->GpuHours() : "-") + " -> " + (row.after ? row.after->GpuHours() : "-");
    if (row.before && row.after) hours += " (" + GpuHoursChange(row.before->usage, row.after->usage) + ")";
    cells.push_back(hours);
    table.AddRow(std::move(cells));
  }
  return out + table.Render() + "(STARTED: started/jobs; waits of the started jobs; change in brackets)\n";
}

void RenderSimulationComparisonMarkdown(const SimulationReport& old_report, const SimulationReport& new_report,
                                        MarkdownDocument& doc) {
  doc.Add("Old: " + MarkdownText(Window(old_report)) + "  \nNew: " + MarkdownText(Window(new_report)));
  MarkdownTable table({"Policy", "Started", "Wait mean", "p50", "p90", "p99", "max", "GPU-hours"});
  for (size_t c = 1; c < 8; ++c) table.SetRight(c);
  auto arrow = [](const std::string& cell) {  // the text table's " -> " reads better as an arrow
    std::string out = cell;
    if (size_t at = out.find(" -> "); at != std::string::npos) out.replace(at, 4, " → ");
    return out;
  };
  for (const Row& row : Rows(old_report, new_report)) {
    auto count = [](const PolicyStats* p) { return p ? std::to_string(p->started) + "/" + std::to_string(p->jobs) : "-"; };
    std::vector<std::string> cells = {MarkdownText(row.name), count(row.before) + " → " + count(row.after)};
    for (WaitField field : kWaitFields) cells.push_back(arrow(Cell(Wait(row.before, field), Wait(row.after, field))));
    std::string hours = (row.before ? row.before->GpuHours() : "-") + " → " + (row.after ? row.after->GpuHours() : "-");
    if (row.before && row.after) hours += " (" + GpuHoursChange(row.before->usage, row.after->usage) + ")";
    cells.push_back(hours);
    table.AddRow(std::move(cells));
  }
  doc.Add(table, "policies");
  doc.Add("*Started: started/jobs. Waits of the started jobs; the change in brackets.*");
}

void WriteSimulationComparisonJson(const SimulationReport& old_report, const SimulationReport& new_report,
                                   JsonWriter& json) {
  json.BeginObject();
  json.Key("old");
  WriteClock(old_report, json);
  json.Key("new");
  WriteClock(new_report, json);
  json.Key("policies").BeginArray();
  for (const Row& row : Rows(old_report, new_report)) {
    json.BeginObject().Field("name", row.name);
    json.Key("old");
    WriteSide(row.before, json);
    json.Key("new");
    WriteSide(row.after, json);
    json.Key("change");
    if (row.before && row.after) {
      json.BeginObject().Key("started").Int(static_cast<int64_t>(row.after->started) -
                                           static_cast<int64_t>(row.before->started));
      json.Key("wait");
      if (row.before->wait && row.after->wait) {
        json.BeginObject();
        for (size_t i = 0; i < 5; ++i) {
          json.Key(kWaitNames[i])
              .Number(FormatSeconds((*row.after->wait).*kWaitFields[i] - (*row.before->wait).*kWaitFields[i]));
        }
        json.EndObject();
      } else {
        json.Null();
      }
      std::string hours = GpuHoursChange(row.before->usage, row.after->usage);
      if (hours[0] == '+') hours.erase(0, 1);
      json.Key("gpuHours").Number(hours).EndObject();
    } else {
      json.Null();
    }
    json.EndObject();
  }
  json.EndArray().EndObject();
}

}  // namespace rescfg
