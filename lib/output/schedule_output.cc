#include "output/schedule_output.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>
#include <thread>

#include "config/human_amount.h"
#include "output/preemption_output.h"
#include "util/document_writer.h"
#include "util/flat_record.h"
#include "util/joined_thread.h"
#include "util/text_table.h"

namespace rescfg {
namespace {

void SummaryRecord(FlatRecord& rec, const ScheduleReport& r) {
  rec.Add("jobs", uint64_t(r.jobs.size()))
      .Add("assigned", uint64_t(r.assignments.size()))
      .Add("pending", uint64_t(r.pending.size()))
      .Add("running", uint64_t(r.running_count))
      .Add("rejected", uint64_t(r.rejected.size()))
      .Add("policiesOverLimit", uint64_t(r.policies_over_limit))
      .Add("runningWithoutPolicy", uint64_t(r.running_without_policy));
}

void PoolRecord(FlatRecord& rec, const PoolSummary& p) {
  rec.Add("name", p.name).Add("queue", p.queue).Add("size", p.size).Add("inUse", p.in_use).Add("free", p.free)
      .Bool("paused", p.paused);
  if (!p.nodes) return;
  // v3: a pool made of machines, after the v2 fields.
  rec.Nested("nodes", [&](FlatRecord& n) {
    n.Add("count", uint64_t(p.nodes->count)).Add("gpus", uint64_t(p.nodes->gpus));
  });
  rec.Add("largestFree", p.largest_free);
  std::string free = "[";
  for (size_t m = 0; m < p.machine_free.size(); ++m) {
    if (m > 0) free += ", ";
    AppendQuantity(&free, p.machine_free[m]);
  }
  rec.Raw("machineFree", free + "]");
}

void PolicyRecord(FlatRecord& rec, const PolicySummary& p) {
  rec.Add("name", p.name).Add("reserved", p.reserved).Add("limit", p.limit).Add("used", p.used)
      .Add("running", p.running).Bool("overLimit", p.over_limit).Bool("paused", p.paused);
}

/// A ClearML task's name, after the fields rescfg(5), SCHEDULE OUTPUT lists; nothing for other jobs.
void NameField(FlatRecord& rec, const JobOutcome& j) {
  if (j.name) rec.Add("name", j.name);
}

/// v3: the machine of an assigned or running job in a pool with nodes (its
/// node's name, or "#N" for the machine the accounting chose).
void NodeField(FlatRecord& rec, const JobOutcome& j) {
  if (j.node) rec.Add("node", j.node);
}

/// The message, with its place when it has one (a rejection's line).
void AddMessage(FlatRecord& rec, const JobOutcome& j) {
  if (MessageIsText(j)) {
    rec.Add("message", j.message_text);
  } else {
    rec.Add("message", MessageOf(j));
  }
}

void AssignmentRecord(FlatRecord& rec, const JobOutcome& j) {
  rec.Add("job", j.id).Add("policy", j.policy).Add("profile", j.profile).Add("pool", j.pool).Add("queue", j.queue)
      .Add("link", j.link).Add("resources", j.resources).Add("needSource", j.need_source);
  if (HasMessage(j)) AddMessage(rec, j);
  NameField(rec, j);
  NodeField(rec, j);
}

void RunningRecord(FlatRecord& rec, const JobOutcome& j) {
  rec.Add("job", j.id).Add("policy", j.policy).Add("profile", j.profile).Add("pool", j.pool).Add("queue", j.queue)
      .Add("resources", j.resources);
  AddMessage(rec, j);
  NameField(rec, j);
  NodeField(rec, j);
}

/// Whether a jsonl record carries `needSource` (rescfg(5), SCHEDULE OUTPUT: assigned and pending jobs).
bool HasNeedSource(const JobOutcome& j) { return j.status == JobStatus::kAssigned || j.status == JobStatus::kPending; }

void PendingRecord(FlatRecord& rec, const JobOutcome& j) {
  rec.Add("job", j.id).Add("policy", j.policy).Add("profile", j.profile).Add("resources", j.resources)
      .Add("needSource", j.need_source).Add("reason", j.reason);
  AddMessage(rec, j);
  NameField(rec, j);
}

void RejectedRecord(FlatRecord& rec, const JobOutcome& j) {
  rec.Add("job", j.id);
  if (!j.id) rec.Add("entry", uint64_t(j.entry));
  rec.Add("policy", j.policy).Add("profile", j.profile).Add("reason", j.reason);
  AddMessage(rec, j);
  NameField(rec, j);
}

/// The JSONL object of rescfg(5), SCHEDULE OUTPUT, one per input entry.
void JobLine(FlatRecord& rec, const JobOutcome& j) {
  rec.Add("job", j.id);
  if (!j.id) rec.Add("entry", uint64_t(j.entry));
  rec.Add("status", JobStatusName(j.status)).Add("policy", j.policy).Add("profile", j.profile)
      .Add("pool", j.pool).Add("queue", j.queue).Add("resources", j.resources).Add("reason", j.reason);
  AddMessage(rec, j);
  // v2 fields, after those of rescfg(5), SCHEDULE OUTPUT.
  if (HasNeedSource(j)) rec.Add("needSource", j.need_source);
  if (j.resources) {
    rec.Raw("resourcesNumber", j.resources->ToDecimal());
  } else {
    rec.Null("resourcesNumber");
  }
  NameField(rec, j);
  NodeField(rec, j);
}

std::string RenderDocument(const ScheduleReport& r, RecordStyle style) {
  DocumentWriter doc(style);
  doc.String("apiVersion", "rescfg/v1");
  doc.String("kind", "Schedule");
  doc.Scalar("enabled", r.enabled ? "true" : "false");
  doc.Record("summary", [&](FlatRecord& rec) { SummaryRecord(rec, r); });
  doc.List("pools", r.pools, PoolRecord);
  doc.List("policies", r.policies, PolicyRecord);
  auto job = [&](auto make) {
    return [&r, make](FlatRecord& rec, size_t i) {
      JobOutcome scratch;
      make(rec, r.jobs.At(i, &scratch));
    };
  };
  doc.List("assignments", r.assignments, job(AssignmentRecord));
  doc.List("pending", r.pending, job(PendingRecord));
  doc.List("rejected", r.rejected, job(RejectedRecord));
  doc.List("running", r.running, job(RunningRecord));
  if (r.preemption) {
    doc.List("preemptions", r.preemptions,
             [&](FlatRecord& rec, const PreemptionOutcome& p) { PreemptionRecord(rec, r, p, style); });
  }
  return doc.Finish();
}

/// Writes JobLine's bytes for common jobs straight into a local buffer, so
/// a line costs one append instead of dozens.
class JobLineWriter {
 public:
  /// False when the job's text might not fit; use JobLine then.
  bool Fits(const JobOutcome& j) const {
    size_t text = j.id->size() + j.policy->size() + j.profile->size() + j.pool->size() + j.queue->size() +
                  j.reason->size() + j.message_text->size() + j.name->size() + j.node->size();
    return 6 * text + 512 <= sizeof(buffer_);
  }
  /// Appends the line (with its newline) to `out`.
  void Write(const JobOutcome& j, std::string* out) {
    p_ = buffer_;
    Raw("{\"job\": ");
    Text(j.id);
    if (!j.id) {
      Raw(", \"entry\": ");
      p_ = std::to_chars(p_, buffer_ + sizeof(buffer_), j.entry).ptr;
    }
    Raw(", \"status\": \"");
    Raw(JobStatusName(j.status));
    Raw("\", \"policy\": ");
    Text(j.policy);
    Raw(", \"profile\": ");
    Text(j.profile);
    Raw(", \"pool\": ");
    Text(j.pool);
    Raw(", \"queue\": ");
    Text(j.queue);
    Raw(", \"resources\": ");
    if (j.resources) {
      Raw(QuantityJson(*j.resources));
    } else {
      Raw("null");
    }
    Raw(", \"reason\": ");
    Text(j.reason);
    Raw(", \"message\": ");
    if (MessageIsText(j)) {
      Text(j.message_text);
    } else {
      placed_ = MessageOf(j);
      Text(TextRef(placed_));
    }
    if (HasNeedSource(j)) {
      Raw(", \"needSource\": \"");
      Raw(j.need_source);
      Raw("\"");
    }
    Raw(", \"resourcesNumber\": ");
    if (j.resources) {
      Raw(DecimalJson(*j.resources));
    } else {
      Raw("null");
    }
    if (j.name) {
      Raw(", \"name\": ");
      Text(j.name);
    }
    if (j.node) {
      Raw(", \"node\": ");
      Text(j.node);
    }
    Raw("}\n");
    out->append(buffer_, static_cast<size_t>(p_ - buffer_));
  }

 private:
  void Raw(std::string_view s) {
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  void Text(TextRef t) {
    if (!t) return Raw("null");
    std::string_view s = *t;
    if (JsonPlainPrefix(s) == s.size()) {
      *p_++ = '"';
      Raw(s);
      *p_++ = '"';
      return;
    }
    escaped_.clear();
    AppendJsonString(&escaped_, s);
    Raw(escaped_);
  }
  char buffer_[16384];
  char* p_ = buffer_;
  std::string escaped_;
  std::string placed_;  ///< a message with its place
};

/// Appends the lines of jobs [from, to) to `out`.
void RenderJobLines(const ScheduleReport& r, size_t from, size_t to, JobLineWriter* writer, std::string* out) {
  JobOutcome scratch;
  for (size_t i = from; i < to; ++i) {
    const JobOutcome& j = r.jobs.At(i, &scratch);
    if (!HasPreemptionFields(r, i) && writer->Fits(j)) {
      writer->Write(j, out);
    } else {
      {
        FlatRecord rec(out, RecordStyle::kJson);
        JobLine(rec, j);
        PreemptionFields(rec, r, i);
      }
      out->push_back('\n');
    }
  }
}

/// Renders the lines into `out`; with a sink, passes them on in pieces of
/// about a megabyte (and `out` ends empty). Lines are independent, so for
/// many jobs a second thread renders every other piece while the first is
/// rendered and passed on; pieces are passed on in order, by this thread.
bool RenderJsonLines(const ScheduleReport& r, std::string* out,
                     const std::function<bool(std::string_view)>* sink) {
  const size_t n = r.jobs.size();
  auto writer = std::make_unique<JobLineWriter>();
  if (!sink) {
    // Room for every line up front: growing a buffer of hundreds of MB
    // copies it and briefly holds both. Capacity never written costs no memory.
    auto size = [](TextRef s) { return s->size(); };
    size_t estimate = 0;
    for (const JobOutcome& j : r.jobs) {
      estimate += 192 + size(j.id) + size(j.policy) + size(j.profile) + size(j.pool) + size(j.queue) +
                  size(j.reason) + size(j.message_text) + 32 + size(j.name);
    }
    out->reserve(estimate);
    RenderJobLines(r, 0, n, writer.get(), out);
    return true;
  }
  constexpr size_t kPieceJobs = 8192;  // about a megabyte of lines
  auto pass_on = [&](std::string* piece) {
    const bool ok = piece->empty() || (*sink)(*piece);
    piece->clear();
    return ok;
  };
  if (n < 4 * kPieceJobs || std::thread::hardware_concurrency() < 2) {
    for (size_t from = 0; from < n; from += kPieceJobs) {
      RenderJobLines(r, from, std::min(n, from + kPieceJobs), writer.get(), out);
      if (!pass_on(out)) return false;
    }
    return true;
  }
  auto second_writer = std::make_unique<JobLineWriter>();
  std::string second_piece;
  for (size_t from = 0; from < n; from += 2 * kPieceJobs) {
    const size_t middle = std::min(n, from + kPieceJobs), to = std::min(n, from + 2 * kPieceJobs);
    JoinedThread second([&] { RenderJobLines(r, middle, to, second_writer.get(), &second_piece); });
    RenderJobLines(r, from, middle, writer.get(), out);
    const bool ok = pass_on(out);
    second.Join();
    if (!ok || !pass_on(&second_piece)) return false;
  }
  return true;
}

std::string RenderJsonLines(const ScheduleReport& r) {
  std::string out;
  RenderJsonLines(r, &out, nullptr);
  return out;
}

/// Plain columns for people: every job (with its queue and why it waits),
/// then the pools, then a summary line.
std::string RenderTable(const ScheduleReport& r) {
  auto text = [](TextRef s) { return s ? VisibleText(*s) : std::string("-"); };
  constexpr size_t kColumns = 9;
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"JOB", "STATUS", "POLICY", "PROFILE", "POOL", "QUEUE", "RESOURCES", "REASON", "MESSAGE"});
  auto add_job = [&](const JobOutcome& j) {
    rows.push_back({j.id ? text(j.id) : "#" + std::to_string(j.entry), JobStatusName(j.status), text(j.policy),
                    text(j.profile), text(j.pool), text(j.queue), j.resources ? HumanAmount(*j.resources) : "-",
                    text(j.reason), HasMessage(j) ? VisibleText(MessageOf(j)) : std::string("-")});
  };
  JobOutcome scratch;
  for (size_t i : r.running) add_job(r.jobs.At(i, &scratch));
  for (size_t i : r.assignments) add_job(r.jobs.At(i, &scratch));
  for (size_t i : r.pending) add_job(r.jobs.At(i, &scratch));
  for (size_t i : r.rejected) add_job(r.jobs.At(i, &scratch));
  size_t job_rows = rows.size();
  rows.push_back({});
  rows.push_back({"POOL", "QUEUE", "IN USE", "SIZE", "FREE", ""});
  for (const PoolSummary& p : r.pools) {
    rows.push_back({p.name, p.queue, HumanAmount(p.in_use, p.size, p.gpu_fractions), HumanAmount(p.size),
                    HumanAmount(p.free, p.size, p.gpu_fractions), p.paused ? "paused" : ""});
  }
  auto widths = [&](size_t from, size_t to) {
    std::vector<size_t> w(kColumns, 0);
    for (size_t i = from; i < to; ++i) {
      for (size_t c = 0; c < rows[i].size(); ++c) w[c] = std::max(w[c], rows[i][c].size());
    }
    return w;
  };
  std::vector<size_t> job_widths = widths(0, job_rows), pool_widths = widths(job_rows + 1, rows.size());
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& w = i < job_rows ? job_widths : pool_widths;
    std::string line;
    for (size_t c = 0; c < rows[i].size(); ++c) {
      line += rows[i][c];
      if (c + 1 < rows[i].size()) line += std::string(w[c] - rows[i][c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  if (!r.preemptions.empty()) out += "\n" + PreemptionTable(r) + "\n";
  out += std::to_string(r.assignments.size()) + " assigned, " + std::to_string(r.pending.size()) + " pending, " +
         std::to_string(r.running_count) + " running, " + std::to_string(r.rejected.size()) + " rejected";
  if (r.policies_over_limit > 0) {
    out += "; " + std::to_string(r.policies_over_limit) + (r.policies_over_limit == 1 ? " policy" : " policies") +
           " above its limit";
  }
  if (r.running_without_policy > 0) {
    out += "; " + std::to_string(r.running_without_policy) + " running without a policy";
  }
  return out + "\n";
}

}  // namespace

std::string RenderSchedule(const ScheduleReport& report, ScheduleFormat format) {
  switch (format) {
    case ScheduleFormat::kJson: return RenderDocument(report, RecordStyle::kJson);
    case ScheduleFormat::kJsonLines: return RenderJsonLines(report);
    case ScheduleFormat::kTable: return RenderTable(report);
    case ScheduleFormat::kYaml: break;
  }
  return RenderDocument(report, RecordStyle::kYaml);
}

bool RenderSchedule(const ScheduleReport& report, ScheduleFormat format,
                    const std::function<bool(std::string_view)>& sink) {
  if (format == ScheduleFormat::kJsonLines) {
    std::string piece;
    return RenderJsonLines(report, &piece, &sink);
  }
  return sink(RenderSchedule(report, format));
}

}  // namespace rescfg
