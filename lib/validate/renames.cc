/// `renamedFrom` within one file (rescfg(5), RENAMES): an old name must not name
/// another object of the same kind (rename-clash), renames do not chain
/// (rename-chain) or loop (rename-loop), and two objects cannot both be the
/// one provisioned under an old name (duplicate-rename).

#include <map>

#include "validate/checks.h"

namespace rescfg {
namespace {

template <typename T>
void CheckKind(CheckContext& context, const std::vector<T>& items, const char* what,
               std::string (*path)(const T&), const T* (CheckContext::*find)(std::string_view) const) {
  std::map<std::string_view, const T*> claimed;
  for (const auto& item : items) {
    if (!item.renamed_from || context.First(item) != &item) continue;
    const std::string& old = *item.renamed_from;
    const std::string at = path(item) + ".renamedFrom";
    const std::string subject = std::string(what) + " '" + item.name + "'";
    if (old == item.name) {
      context.Error("rename-loop", item.renamed_from_mark, at, subject + " is renamed from itself",
                    "remove renamedFrom: the name did not change");
      continue;
    }
    if (auto [it, fresh] = claimed.emplace(old, &item); !fresh) {
      context.Error("duplicate-rename", item.renamed_from_mark, at,
                    subject + " and " + what + " '" + it->second->name + "' are both renamed from '" + old + "'",
                    "one object only can keep the identity of '" + old + "'");
      continue;
    }
    const T* other = (context.*find)(old);
    if (!other) continue;
    if (!other->renamed_from) {
      context.Error("rename-clash", item.renamed_from_mark, at,
                    subject + " is renamed from '" + old + "', but the file still has a " + what + " '" + old + "'",
                    "remove renamedFrom, or remove or rename the other " + std::string(what));
      continue;
    }
    // Follow the old names within the file: back to this object is a loop.
    std::string chain = item.name + " <- " + old;
    const T* at_item = other;
    bool loop = false;
    for (size_t steps = 0; at_item && at_item->renamed_from && steps < items.size(); ++steps) {
      chain += " <- " + *at_item->renamed_from;
      if (*at_item->renamed_from == item.name) { loop = true; break; }
      at_item = (context.*find)(*at_item->renamed_from);
    }
    if (loop) {
      context.Error("rename-loop", item.renamed_from_mark, at, std::string(what) + " renames loop: " + chain,
                    "objects cannot trade names in one provision: rename one, provision, then the other");
    } else {
      context.Error("rename-chain", item.renamed_from_mark, at, std::string(what) + " renames chain: " + chain,
                    "give each object the name it is provisioned under now: renamedFrom: '" +
                        (at_item && at_item->renamed_from ? *at_item->renamed_from : old) + "'");
    }
  }
}

}  // namespace

void CheckRenames(CheckContext& context) {
  const Config& config = context.config();
  CheckKind(context, config.pools, "pool", &PoolPath, &CheckContext::FindPool);
  CheckKind(context, config.profiles, "profile", &ProfilePath, &CheckContext::FindProfile);
  CheckKind(context, config.policies, "policy", &PolicyPath, &CheckContext::FindPolicy);
}

}  // namespace rescfg
