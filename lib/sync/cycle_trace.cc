#include "sync/cycle_trace.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "sync/move.h"
#include "util/atomic_file.h"
#include "util/flat_record.h"

namespace rescfg::sync {
namespace {

void AppendIds(std::string* out, std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  out->push_back('[');
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out->append(", ");
    AppendJsonString(out, ids[i]);
  }
  out->push_back(']');
}

}  // namespace

void TraceCycle(const ServerSnapshot& snapshot, const clearml::Handovers& handovers, const ScheduleReport& report,
                const std::vector<MoveIntent>& moves, int64_t utc_micros) {
  const char* path = std::getenv("RESCFG_TEST_TRACE");
  if (path == nullptr || *path == '\0') return;
  std::string line = "{\"time\": ";
  AppendJsonString(&line, UtcMicrosText(utc_micros));
  line += ", \"pid\": " + std::to_string(::getpid()) + ", \"read\": ";
  std::vector<std::string> ids;
  for (const auto& [id, status] : snapshot.status) ids.push_back(id + " " + status);
  AppendIds(&line, std::move(ids));
  line += ", \"handovers\": ";
  ids.clear();
  for (const auto& [id, h] : handovers) ids.push_back(id + " " + h.pool);
  AppendIds(&line, std::move(ids));
  // Per pool: what its running (and popped, and handed-over waiting) tasks hold, and why they are there.
  std::map<std::string, std::string> pools;
  std::map<std::string, std::string> totals;
  for (const JobOutcome& job : report.jobs) {
    if (job.status != JobStatus::kRunning || !job.pool || !job.id) continue;
    std::string& text = pools[std::string(*job.pool)];
    text += text.empty() ? "[" : ", ";
    text += "{\"task\": ";
    AppendJsonString(&text, *job.id);
    text += ", \"holds\": ";
    AppendJsonString(&text, job.resources ? job.resources->ToString() : "?");
    text += ", \"why\": ";
    AppendJsonString(&text, HasMessage(job) ? MessageOf(job) : "its worker or its pool queue");
    text += "}";
  }
  for (const PoolSummary& pool : report.pools) totals[pool.name] = pool.in_use.ToString();
  line += ", \"pools\": {";
  bool first = true;
  for (const auto& [name, in_use] : totals) {
    if (!first) line += ", ";
    first = false;
    AppendJsonString(&line, name);
    line += ": {\"in_use\": ";
    AppendJsonString(&line, in_use);
    auto it = pools.find(name);
    line += ", \"running\": " + (it == pools.end() ? std::string("[]") : it->second + "]") + "}";
  }
  line += "}, \"moves\": ";
  ids.clear();
  for (const MoveIntent& m : moves) ids.push_back(m.task + " -> " + m.to);
  AppendIds(&line, std::move(ids));
  line += "}\n";
  std::string error;
  AppendDurably(path, line, &error);  // a trace that cannot be written is no reason to stop a cycle
}

}  // namespace rescfg::sync
