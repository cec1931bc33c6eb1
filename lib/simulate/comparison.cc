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

/// Whether the comparison shows preemption: it is on in either simulation.
bool Preempts(const SimulationReport& a, const SimulationReport& b) { return a.preemption || b.preemption; }

/// "1 stop", "3 stops", or "preemption off" for a simulation without it.
std::string Stops(const SimulationReport& r) {
  if (!r.preemption) return "preemption off";
  return std::to_string(r.preemptions) + (r.preemptions == 1 ? " stop" : " stops");
}

std::string Window(const SimulationReport& r, bool preempts) {
  std::string out = r.start ? FormatSimTime(*r.start) + " to " + FormatSimTime(*r.end) + ", " +
                                  std::to_string(r.events) + " events"
                            : std::string("nothing simulated");
  return preempts ? out + ", " + Stops(r) : out;
}

/// A policy's preemption figures (0 on a side without preemption): runs
/// stopped, jobs preempted.
uint64_t StopsOf(const PolicyStats* p) { return p ? p->stops : 0; }
uint64_t PreemptedOf(const PolicyStats* p) { return p ? p->jobs_preempted : 0; }

std::string CountCell(const PolicyStats* before, const PolicyStats* after, uint64_t (*of)(const PolicyStats*),
                      const char* arrow) {
  auto side = [&](const PolicyStats* p) { return p ? std::to_string(of(p)) : std::string("-"); };
  std::string cell = side(before) + arrow + side(after);
  if (before && after) cell += " (" + SignedCount(of(before), of(after)) + ")";
  return cell;
}

std::string LostCell(const PolicyStats* before, const PolicyStats* after, const char* arrow) {
  std::string cell = (before ? before->GpuHoursLost() : "-") + arrow + (after ? after->GpuHoursLost() : "-");
  if (before && after) cell += " (" + GpuHoursChange(before->lost, after->lost) + ")";
  return cell;
}

/// The preemption table's rows: per policy, runs stopped, jobs preempted, GPU-hours lost.
template <typename Table>
void AddPreemptionRows(const std::vector<Row>& rows, const char* arrow, bool markdown, Table& table) {
  for (const Row& row : rows) {
    table.AddRow({markdown ? MarkdownText(row.name) : row.name, CountCell(row.before, row.after, StopsOf, arrow),
                  CountCell(row.before, row.after, PreemptedOf, arrow), LostCell(row.before, row.after, arrow)});
  }
}

constexpr const char* kPreemptionNote =
    "runs stopped by preemption, jobs stopped at least once, and what the stopped runs held until their stop";

void WriteSide(const PolicyStats* p, bool preempts, JsonWriter& json) {
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
  json.Key("gpuHours").Number(p->GpuHours());
  if (preempts) {
    json.Key("stops").Int(static_cast<int64_t>(p->stops)).Key("jobsPreempted").Int(static_cast<int64_t>(p->jobs_preempted));
    json.Key("gpuHoursLost").Number(p->GpuHoursLost());
  }
  json.EndObject();
}

void WriteClock(const SimulationReport& r, bool preempts, JsonWriter& json) {
  json.BeginObject();
  json.Key("start");
  r.start ? json.String(FormatSimTime(*r.start)) : json.Null();
  json.Key("end");
  r.end ? json.String(FormatSimTime(*r.end)) : json.Null();
  json.Key("events").Int(static_cast<int64_t>(r.events));
  if (preempts) json.Key("preemption").Bool(r.preemption).Key("stops").Int(static_cast<int64_t>(r.preemptions));
  json.EndObject();
}

/// The change of a policy's preemption figures: stops, jobsPreempted, gpuHoursLost.
void WritePreemptionChange(const PolicyStats& before, const PolicyStats& after, JsonWriter& json) {
  auto delta = [](uint64_t a, uint64_t b) { return static_cast<int64_t>(b) - static_cast<int64_t>(a); };
  json.Key("stops").Int(delta(before.stops, after.stops));
  json.Key("jobsPreempted").Int(delta(before.jobs_preempted, after.jobs_preempted));
  std::string lost = GpuHoursChange(before.lost, after.lost);
  if (lost[0] == '+') lost.erase(0, 1);
  json.Key("gpuHoursLost").Number(lost);
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

std::string SignedCount(uint64_t old_value, uint64_t new_value) {
  if (new_value >= old_value) return (new_value > old_value ? "+" : "") + std::to_string(new_value - old_value);
  return "-" + std::to_string(old_value - new_value);
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
  const bool preempts = Preempts(old_report, new_report);
  std::string out = "old: " + Window(old_report, preempts) + "\nnew: " + Window(new_report, preempts) + "\n";
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
  out += table.Render() + "(STARTED: started/jobs; waits of the started jobs; change in brackets)\n";
  if (!preempts) return out;
  TextTable preemption({"POLICY", "STOPS", "PREEMPTED", "GPU-HOURS LOST"});
  for (size_t c = 1; c < 4; ++c) preemption.SetAlign(c, TextTable::Align::kRight);
  AddPreemptionRows(Rows(old_report, new_report), " -> ", false, preemption);
  return out + "\nPreemption: " + Stops(old_report) + " -> " + Stops(new_report) + "\n" + preemption.Render() + "(" +
         kPreemptionNote + ")\n";
}

void RenderSimulationComparisonMarkdown(const SimulationReport& old_report, const SimulationReport& new_report,
                                        MarkdownDocument& doc) {
  const bool preempts = Preempts(old_report, new_report);
  doc.Add("Old: " + MarkdownText(Window(old_report, preempts)) + "  \nNew: " +
          MarkdownText(Window(new_report, preempts)));
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
  if (!preempts) return;
  doc.Add("Preemption: " + Stops(old_report) + " → " + Stops(new_report));
  MarkdownTable preemption({"Policy", "Stops", "Preempted", "GPU-hours lost"});
  for (size_t c = 1; c < 4; ++c) preemption.SetRight(c);
  AddPreemptionRows(Rows(old_report, new_report), " → ", true, preemption);
  doc.Add(preemption, "policies");
  doc.Add(std::string("*Stops, preempted, GPU-hours lost: ") + kPreemptionNote + ".*");
}

void WriteSimulationComparisonJson(const SimulationReport& old_report, const SimulationReport& new_report,
                                   JsonWriter& json) {
  const bool preempts = Preempts(old_report, new_report);
  json.BeginObject();
  json.Key("old");
  WriteClock(old_report, preempts, json);
  json.Key("new");
  WriteClock(new_report, preempts, json);
  json.Key("policies").BeginArray();
  for (const Row& row : Rows(old_report, new_report)) {
    json.BeginObject().Field("name", row.name);
    json.Key("old");
    WriteSide(row.before, preempts, json);
    json.Key("new");
    WriteSide(row.after, preempts, json);
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
      json.Key("gpuHours").Number(hours);
      if (preempts) WritePreemptionChange(*row.before, *row.after, json);
      json.EndObject();
    } else {
      json.Null();
    }
    json.EndObject();
  }
  json.EndArray().EndObject();
}

}  // namespace rescfg
