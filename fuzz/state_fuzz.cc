/// The readers of the state directory on arbitrary bytes: history.jsonl
/// (the whole file and one line), plan files and stored revisions. No
/// crash, no exception; whatever is accepted reads back as itself; and any
/// configuration a revision can hold passes the round-trip guard, so no
/// accepted configuration can be refused once stored.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "config/canonical.h"
#include "state/history.h"
#include "state/plan.h"
#include "state/revision_check.h"

namespace {

bool SameEntry(const rescfg::HistoryEntry& a, const rescfg::HistoryEntry& b) {
  return a.revision == b.revision && a.sha256 == b.sha256 && a.time == b.time && a.user == b.user &&
         a.message == b.message && a.changes == b.changes && a.source_sha256 == b.source_sha256;
}

void CheckHistory(std::string_view text) {
  rescfg::ParsedHistory parsed = rescfg::ParseHistory(text);
  if (parsed.complete_bytes > text.size()) std::abort();
  for (size_t i = 0; i < parsed.entries.size(); ++i) {
    const auto& entry = parsed.entries[i];
    if (entry.revision != static_cast<long>(i) + 1) std::abort();
    auto again = rescfg::ParseHistoryLine(rescfg::HistoryLine(entry));
    if (!again || !SameEntry(*again, entry)) std::abort();
  }
  if ((parsed.tail == rescfg::ParsedHistory::Tail::kUnterminated) != parsed.tail_entry.has_value()) std::abort();
  if (parsed.tail_entry && parsed.tail_entry->revision != static_cast<long>(parsed.entries.size()) + 1) std::abort();
  if (parsed.error.empty() && parsed.tail == rescfg::ParsedHistory::Tail::kNone && parsed.complete_bytes != text.size()) {
    std::abort();
  }
}

/// The plan key the corpus's plans are signed with (a state's plan-key file
/// holding 64 zeros); any edit of a plan must fail its signature.
constexpr std::string_view kPlanKey = "0000000000000000000000000000000000000000000000000000000000000000";

void CheckPlan(std::string_view text) {
  std::string error;
  auto plan = rescfg::ParsePlan(text, kPlanKey, &error);
  if (!plan) {
    if (error.empty()) std::abort();  // a refusal says why
    return;
  }
  auto again = rescfg::ParsePlan(rescfg::RenderPlan(*plan, kPlanKey), kPlanKey, &error);
  if (!again || again->source != plan->source || again->canonical != plan->canonical ||
      again->base_revision != plan->base_revision || again->base_sha256 != plan->base_sha256 ||
      again->revision != plan->revision || again->message != plan->message) {
    std::abort();
  }
}

void CheckRevision(std::string_view text) {
  std::string error;
  auto config = rescfg::LoadStoredConfig(text, "fuzz.yaml", /*validate=*/true, &error);
  if (!config) return;
  const std::string canonical = rescfg::WriteCanonical(*config);
  if (!rescfg::RoundTripProblem(canonical).empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckHistory(text);
  if (auto entry = rescfg::ParseHistoryLine(text)) {
    auto again = rescfg::ParseHistoryLine(rescfg::HistoryLine(*entry));
    if (!again || !SameEntry(*again, *entry)) std::abort();
  }
  CheckPlan(text);
  CheckRevision(text);
  return 0;
}
