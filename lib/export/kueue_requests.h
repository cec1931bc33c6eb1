#pragma once
/// What the pods of a job request in Kueue, and what of a profile's
/// allotment that loses.
///
/// Kueue charges each workload what its pods request, and counts extended
/// resources in whole units. So a whole allotment n is n of
/// kubernetes.gpuResource; a fraction below 1 is one unit of the MIG
/// resource its pool's gpuFractions maps it to; anything else cannot be
/// requested. The quota is counted in whole GPUs, or, with
/// kubernetes.ticksResource, in ticks (1 GPU = 9 009 000 000), into which
/// Kueue's resource transformations turn every request exactly.
///
/// Findings (codes): kueue-fixed-allotment (Kueue cannot make every job of
/// a profile count as its allotment), kueue-fraction (an allotment the pods
/// cannot request, or, counted in GPUs, MIG units counted apart from whole
/// GPUs), kueue-transformation (one MIG resource mapped to two fractions:
/// one transformation cannot turn it into both).

#include <cstdint>
#include <string>
#include <vector>

#include "config/model.h"
#include "export/export_result.h"

namespace rescfg {

/// How amounts become Kueue quota.
struct KueueUnits {
  bool ticks = false;     ///< quota in kubernetes.ticksResource rather than GPUs
  std::string resource;   ///< the quota resource: gpuResource or ticksResource
  int64_t per_gpu = 1;    ///< quota units per GPU: 1, or 9 009 000 000 ticks
};

/// A MIG resource that a pool's flavor offers as quota of its own (GPU
/// accounting only), or that a transformation turns into ticks.
struct KueueMigResource {
  std::string resource;
  Quantity fraction;
  int64_t units = 0;  ///< its quota: as many as the pool's GPUs hold
};

/// Kueue's resource transformation of one requested resource into ticks.
struct KueueTransformation {
  std::string input;
  int64_t ticks = 0;  ///< per unit requested
};

struct KueueRequests {
  KueueUnits units;
  /// Per pool: the resources its flavor carries quota for, the quota
  /// resource first (GPU accounting: then the MIG resources that the
  /// fixed fractional profiles linked to it request).
  std::vector<std::vector<std::string>> pool_resources;
  /// Per pool, GPU accounting: its MIG resources with quota of their own.
  std::vector<std::vector<KueueMigResource>> pool_mig;
  /// With ticks: the transformations Kueue's Configuration needs.
  std::vector<KueueTransformation> transformations;
};

/// Works out the requests of every profile's jobs in every linked pool and
/// appends a finding for each point Kueue cannot count as rescfg does.
KueueRequests DescribeRequests(const Config& config, std::vector<ExportFinding>* findings);

}  // namespace rescfg
