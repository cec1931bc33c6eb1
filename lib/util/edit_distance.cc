#include "util/edit_distance.h"

#include <algorithm>
#include <cctype>

namespace rescfg {

int EditDistance(std::string_view a, std::string_view b, int max_distance) {
  // Every insertion or deletion costs one: no need to compare further.
  size_t length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap > static_cast<size_t>(max_distance)) return max_distance + 1;
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    int best = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      int above = row[j];
      int substitute = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
      best = std::min(best, row[j]);
    }
    if (best > max_distance) return max_distance + 1;
  }
  return row[b.size()];
}

std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  // Nobody misspells a 100-character name; skipping keeps this cheap on
  // hostile input (the distance is quadratic in the lengths).
  if (word.size() > 100) return "";
  int limit = std::max<int>(1, static_cast<int>(word.size()) / 3);
  std::string best;
  int best_distance = limit + 1;
  for (const auto& c : candidates) {
    int d = EditDistance(word, c, limit);
    if (d < best_distance) { best_distance = d; best = c; }
  }
  return best;
}

}  // namespace rescfg
