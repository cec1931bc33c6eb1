#pragma once
/// Preemption decisions in the outputs of `schedule` (rescfg(1), SCHEDULE OUTPUT): the
/// `preemptions` section of YAML and JSON, the jsonl fields and the table section.

#include <string>

#include "util/flat_record.h"
#include "decide/report.h"

namespace rescfg {

/// One item of `preemptions`: {job, policy, profile, pool, resources, victims: [...], awaiting: [...]}.
void PreemptionRecord(FlatRecord& rec, const ScheduleReport& r, const PreemptionOutcome& p, RecordStyle style);
/// Whether entry `job` is a victim or a preemptor (its jsonl record carries more fields).
bool HasPreemptionFields(const ScheduleReport& r, size_t job);
/// A victim's `preemptedFor`, a preemptor's `victims`.
void PreemptionFields(FlatRecord& rec, const ScheduleReport& r, size_t job);
/// The table's preemptions section ("" when nothing is preempted).
std::string PreemptionTable(const ScheduleReport& r);

}  // namespace rescfg
