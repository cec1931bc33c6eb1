#pragma once
/// Both exports after a rename (rescfg(5), RENAMES): the engines get the new
/// names, and one finding per queue a rename leaves behind, since the old
/// queue may still hold tasks until they drain.
///
/// Codes: renamed-queue (clearml-agent), kueue-renamed-queue (kueue).

#include <vector>

#include "config/model.h"
#include "export/export_result.h"

namespace rescfg {

enum class RenameEngine { kClearmlAgent, kKueue };

void RenamedQueueFindings(const Config& config, RenameEngine engine, std::vector<ExportFinding>* findings);

}  // namespace rescfg
