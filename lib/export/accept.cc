#include "export/accept.h"

#include <algorithm>

#include "util/edit_distance.h"

namespace rescfg {

const std::vector<std::string_view>& ExportFindingCodes(std::string_view target) {
  // Kept in step with the findings of lib/export/ (each file's header lists
  // its codes); tests/export_accept_test.cc checks that every finding a
  // target reports in its tests is listed here.
  static const std::vector<std::string_view> kAgent = {
      "dynamic-queue", "fractional-pool-size", "inexpressible-fraction",
      "mixed-queue",   "multi-machine-allotment", "one-agent-many-gpus", "open-chart", "option-like-queue",
      "renamed-queue", "unused-pool"};
  static const std::vector<std::string_view> kKueue = {
      "kueue-execution-priority", "kueue-fixed-allotment", "kueue-fraction",      "kueue-paused-pool",
      "kueue-policy-priority",    "kueue-rounded",         "kueue-split-limit",   "kueue-split-reservation",
      "kueue-starved-queue",      "kueue-transformation",
      // With `preemption` (export/kueue_preemption.h).
      "kueue-min-runtime", "kueue-not-preemptible", "kueue-preemption-delay", "kueue-victim-order",
      // After a rename (export/renamed_queues.h).
      "kueue-renamed-queue"};
  static const std::vector<std::string_view> kNone;
  return target == "clearml-agent" ? kAgent : target == "kueue" ? kKueue : kNone;
}

bool ParseAcceptedCodes(const std::vector<std::string>& values, std::string_view target, std::set<std::string>* codes,
                        std::string* error) {
  const std::vector<std::string_view>& known = ExportFindingCodes(target);
  for (const std::string& value : values) {
    size_t start = 0;
    while (start <= value.size()) {
      size_t end = value.find(',', start);
      if (end == std::string::npos) end = value.size();
      std::string code = value.substr(start, end - start);
      code.erase(0, code.find_first_not_of(" \t"));
      code.erase(code.find_last_not_of(" \t") + 1);
      start = end + 1;
      if (code.empty()) continue;
      if (std::find(known.begin(), known.end(), code) == known.end()) {
        std::vector<std::string> names(known.begin(), known.end());
        const std::string close = ClosestMatch(code, names);
        *error = "--accept: export " + std::string(target) + " reports no finding '" + code + "'" +
                 (close.empty() ? "" : " (did you mean '" + close + "'?)") + "; its codes are listed in rescfg(1)";
        return false;
      }
      codes->insert(code);
    }
  }
  return true;
}

}  // namespace rescfg
