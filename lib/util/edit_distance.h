#pragma once
/// "Did you mean" suggestions for misspelt keys and names.

#include <string>
#include <string_view>
#include <vector>

namespace rescfg {

/// Levenshtein distance, case-insensitive; stops early past `max_distance`.
int EditDistance(std::string_view a, std::string_view b, int max_distance);

/// The candidate closest to `word` when it is close enough to be a likely
/// typo (distance at most a third of its length, at least 1), else "".
std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace rescfg
