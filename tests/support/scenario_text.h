#pragma once
/// Building scheduling inputs from short YAML texts in tests.

#include <string>
#include <vector>

#include "config/model.h"
#include "decide/report.h"
#include "jobs/job.h"

namespace rescfg::testing {

/// Parses a configuration and applies defaults; fails the test on errors.
Config ConfigFromYaml(const std::string& yaml);

/// The brief's worked example: two 8-GPU pools, Dev and Research each
/// reserved 8 with limit 16 on 4xGPU (Bare Metal first, then H100).
extern const char* const kWorkedExampleYaml;

/// A copy of `text` that lives until the tests end, for JobEntry fields.
TextRef Keep(const std::string& text);

/// A queued job entry: id, policy, profile and optionally a runtime.gpus value.
JobEntry Queued(const std::string& id, const std::string& policy, const std::string& profile,
                const std::string& gpus = "");
JobEntry Running(const std::string& id, const std::string& policy, const std::string& profile,
                 const std::string& pool, const std::string& resources = "");

/// "id:status:pool-or-reason" per job, in input order, for compact assertions.
std::vector<std::string> Summarise(const ScheduleReport& report);

}  // namespace rescfg::testing
