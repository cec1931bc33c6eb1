#pragma once
/// Ceilings on what rescfg reads, each enforced with a clear error. The
/// defaults suit any real configuration and snapshot and keep a hostile file
/// within about a second and bounded memory; each can be changed through an
/// environment variable (see rescfg(1), ENVIRONMENT).

#include <cstdint>
#include <string>

namespace rescfg {

struct Limits {
  /// Bytes of one configuration file. yaml-cpp needs several hundred bytes
  /// per node and parses a few MB per second.        RESCFG_MAX_CONFIG_BYTES
  uint64_t config_bytes = uint64_t(1) << 20;
  /// YAML nodes of one configuration: a thousand pools, profiles and
  /// policies need well under half of it.              RESCFG_MAX_CONFIG_NODES
  uint64_t config_nodes = 100'000;
  /// Bytes of one jobs file (it is read whole).        RESCFG_MAX_JOBS_BYTES
  uint64_t jobs_bytes = uint64_t(4) << 30;
  /// Bytes of a ClearML queues file: it lists queues and their waiting
  /// tasks' ids, a small part of the tasks.            RESCFG_MAX_QUEUES_BYTES
  uint64_t queues_bytes = uint64_t(1) << 30;
  /// Bytes of a ClearML workers file: one object per agent, and there are
  /// rarely more than thousands.                       RESCFG_MAX_WORKERS_BYTES
  uint64_t workers_bytes = uint64_t(256) << 20;
  /// Entries of one jobs file.                         RESCFG_MAX_JOBS
  uint64_t jobs_entries = 50'000'000;
  /// Bytes of a pool, profile, policy, link or queue name. RESCFG_MAX_NAME_LENGTH
  uint64_t name_length = 1024;
};

/// The hint of a read that failed with `code` (file_io.h): how to raise
/// the limit named by `variable` when it was too large, else "".
std::string LimitHint(const char* code, const char* variable);

/// The limits in force (the defaults unless changed).
Limits& CurrentLimits();

/// Applies RESCFG_MAX_* environment overrides to CurrentLimits(). Returns
/// "" or a message naming a variable whose value is not a positive integer.
std::string ApplyLimitsFromEnvironment();

}  // namespace rescfg
