#pragma once
/// The renames each revision made (rescfg(5), RENAMES): a revision records a
/// rename by its renamedFrom, whose old name the revision before it
/// provisioned; `rescfg history` shows them.

#include <string>
#include <vector>

#include "state/history.h"
#include "state/state_store.h"

namespace rescfg {

/// "policy Dev -> Platform" for each rename of `after` against `before`
/// (pools, profiles, then policies).
std::vector<std::string> RenamesBetween(const Config& before, const Config& after);

/// The renames of each revision of the store's history, in its order.
std::vector<std::vector<std::string>> RenamesOfHistory(const StateStore& store);

}  // namespace rescfg
