#include "export/renamed_queues.h"

#include "config/renames.h"

namespace rescfg {

void RenamedQueueFindings(const Config& config, RenameEngine engine, std::vector<ExportFinding>* findings) {
  for (const LeftQueue& left : QueuesLeftByRenames(config)) {
    ExportFinding f;
    f.path = left.path;
    f.mark = left.mark;
    if (engine == RenameEngine::kClearmlAgent) {
      f.code = "renamed-queue";
      f.message = left.rename + ": the export names queue '" + left.queue + "'; the old queue '" + left.old_queue +
                  "' may still hold tasks until they drain";
      f.hint = "keep the old queue until it is empty (rescfg sync moves the tasks of an old policy queue; an agent "
               "must still serve an old pool queue), then delete it";
    } else {
      f.code = "kueue-renamed-queue";
      f.message = left.rename + ": the export names the objects of queue '" + left.queue +
                  "'; those of the old queue '" + left.old_queue + "' may still hold workloads until they drain";
      f.hint = "apply without pruning, and delete the old objects once their workloads are done";
    }
    findings->push_back(std::move(f));
  }
}

}  // namespace rescfg
