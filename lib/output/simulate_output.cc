#include "output/simulate_output.h"

#include "config/human_amount.h"
#include "util/document_writer.h"
#include "util/flat_record.h"
#include "util/text_table.h"

namespace rescfg {
namespace {

constexpr size_t kPiece = size_t(1) << 20;

void Time(FlatRecord& rec, std::string_view key, const std::optional<Micros>& t) {
  if (t) {
    rec.Add(key, FormatSimTime(*t));
  } else {
    rec.Null(key);
  }
}

void Seconds(FlatRecord& rec, std::string_view key, const std::optional<Micros>& d) {
  if (d) {
    rec.Number(key, FormatSeconds(*d));
  } else {
    rec.Null(key);
  }
}

/// The keys of rescfg-scheduling(7), THE SIMULATION CLOCK, in its order (`entry` only for an entry without a usable id);
/// with preemption, `preempted` last.
void EntryRecord(FlatRecord& rec, const SimEntry& e, bool preemption) {
  const JobOutcome& j = e.outcome;
  rec.Add("job", j.id);
  if (!j.id) rec.Add("entry", uint64_t(j.entry));
  rec.Add("status", SimStatusName(e.status)).Add("policy", j.policy).Add("profile", j.profile).Add("pool", j.pool)
      .Add("queue", j.queue);
  rec.Add("resources", j.resources);
  Time(rec, "submitted", e.submitted);
  Time(rec, "started", e.started);
  Time(rec, "finished", e.finished);
  Seconds(rec, "wait", e.wait);
  rec.Add("reason", j.reason);
  if (preemption) rec.Add("preempted", uint64_t(e.preempted));
}

void PolicyRecord(FlatRecord& rec, const PolicyStats& p, bool preemption) {
  rec.Add("name", p.name).Add("jobs", p.jobs).Add("started", p.started).Add("neverStarted", p.never_started);
  if (p.wait) {
    const WaitSummary& w = *p.wait;
    rec.Nested("wait", [&](FlatRecord& wait) {
      wait.Number("mean", FormatSeconds(w.mean)).Number("p50", FormatSeconds(w.p50)).Number("p90", FormatSeconds(w.p90))
          .Number("p99", FormatSeconds(w.p99)).Number("max", FormatSeconds(w.max));
    });
  } else {
    rec.Null("wait");
  }
  rec.Number("gpuHours", p.GpuHours());
  if (preemption) rec.Add("jobsPreempted", p.jobs_preempted).Number("gpuHoursLost", p.GpuHoursLost());
}

void PoolRecord(FlatRecord& rec, const PoolStats& p) {
  rec.Add("name", p.name).Add("size", p.size).Number("gpuHours", p.GpuHours()).Add("peakInUse", p.peak_in_use);
  if (p.utilisation) {
    rec.Number("utilisation", *p.utilisation);
  } else {
    rec.Null("utilisation");
  }
}

std::string OptionalTime(const std::optional<Micros>& t) { return t ? FormatSimTime(*t) : "-"; }

bool RenderDocument(const SimulationReport& r, RecordStyle style, const std::function<bool(std::string_view)>& sink) {
  DocumentWriter doc(style);
  doc.String("apiVersion", "rescfg/v1");
  doc.String("kind", "Simulation");
  doc.Scalar("enabled", r.enabled ? "true" : "false");
  auto time = [&](std::string_view key, const std::optional<Micros>& t) {
    if (t) {
      doc.String(key, FormatSimTime(*t));
    } else {
      doc.Scalar(key, "null");
    }
  };
  time("start", r.start);
  time("end", r.end);
  doc.Record("summary", [&](FlatRecord& rec) {
    rec.Add("entries", uint64_t(r.entries.size())).Add("finished", r.finished).Add("running", r.running)
        .Add("pending", r.pending).Add("rejected", r.rejected).Add("events", r.events);
    if (r.preemption) rec.Add("preemptions", r.preemptions);
  });
  doc.List("policies", r.policies, [&](FlatRecord& rec, const PolicyStats& p) { PolicyRecord(rec, p, r.preemption); });
  doc.List("pools", r.pools, PoolRecord);
  doc.List("jobs", r.entries, [&](FlatRecord& rec, const SimEntry& e) {
    EntryRecord(rec, e, r.preemption);
    if (MessageIsText(e.outcome)) {
      rec.Add("message", e.outcome.message_text);
    } else {
      rec.Add("message", MessageOf(e.outcome));
    }
  });
  return sink(doc.Finish());
}

bool RenderJsonLines(const SimulationReport& r, const std::function<bool(std::string_view)>& sink) {
  std::string out;
  out.reserve(kPiece + 64 * 1024);
  for (const SimEntry& e : r.entries) {
    {
      FlatRecord rec(&out, RecordStyle::kJson);
      EntryRecord(rec, e, r.preemption);
    }
    out.push_back('\n');
    if (out.size() >= kPiece) {
      if (!sink(out)) return false;
      out.clear();
    }
  }
  return out.empty() || sink(out);
}

/// Summaries for people: the clock, each policy's waits, each pool's use.
std::string RenderTable(const SimulationReport& r) {
  std::string out = "simulated " + OptionalTime(r.start) + " to " + OptionalTime(r.end) + ", " +
                    std::to_string(r.events) + " events: " + std::to_string(r.finished) + " finished, " +
                    std::to_string(r.running) + " running, " + std::to_string(r.pending) + " pending, " +
                    std::to_string(r.rejected) + " rejected" +
                    (r.preemption ? ", " + std::to_string(r.preemptions) + " preemptions" : std::string()) + "\n\n";
  std::vector<std::string> header = {"POLICY", "JOBS", "STARTED", "NEVER", "WAIT MEAN", "P50", "P90", "P99", "MAX", "GPU-HOURS"};
  if (r.preemption) header.insert(header.end(), {"PREEMPTED", "GPU-HOURS LOST"});
  TextTable policies(header);
  for (size_t c = 1; c < header.size(); ++c) policies.SetAlign(c, TextTable::Align::kRight);
  for (const PolicyStats& p : r.policies) {
    std::vector<std::string> row = {p.name, std::to_string(p.jobs), std::to_string(p.started),
                                    std::to_string(p.never_started)};
    for (Micros WaitSummary::*field : {&WaitSummary::mean, &WaitSummary::p50, &WaitSummary::p90, &WaitSummary::p99,
                                       &WaitSummary::max}) {
      row.push_back(p.wait ? FormatDuration((*p.wait).*field) : "-");
    }
    row.push_back(p.GpuHours());
    if (r.preemption) row.insert(row.end(), {std::to_string(p.jobs_preempted), p.GpuHoursLost()});
    policies.AddRow(std::move(row));
  }
  TextTable pools({"POOL", "SIZE", "GPU-HOURS", "PEAK IN USE", "UTILISATION"});
  for (size_t c = 1; c < 5; ++c) pools.SetAlign(c, TextTable::Align::kRight);
  for (const PoolStats& p : r.pools) {
    pools.AddRow({p.name, HumanAmount(p.size), p.GpuHours(), HumanAmount(p.peak_in_use), p.utilisation.value_or("-")});
  }
  return out + policies.Render() + "\n" + pools.Render();
}

}  // namespace

bool RenderSimulation(const SimulationReport& report, SimulateFormat format,
                      const std::function<bool(std::string_view)>& sink) {
  switch (format) {
    case SimulateFormat::kJsonLines: return RenderJsonLines(report, sink);
    case SimulateFormat::kTable: return sink(RenderTable(report));
    case SimulateFormat::kJson: return RenderDocument(report, RecordStyle::kJson, sink);
    case SimulateFormat::kYaml: break;
  }
  return RenderDocument(report, RecordStyle::kYaml, sink);
}

std::string RenderSimulation(const SimulationReport& report, SimulateFormat format) {
  std::string out;
  RenderSimulation(report, format, [&](std::string_view piece) {
    out.append(piece);
    return true;
  });
  return out;
}

}  // namespace rescfg
