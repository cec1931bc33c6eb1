#include "jobs/params.h"

#include <algorithm>

#include "util/edit_distance.h"

namespace rescfg {

namespace {

constexpr std::string_view kValueKey = "value";

/// Splits a path into the nested keys it names, or returns false when it is
/// malformed (unknown root, an empty part).
bool NestedKeys(std::string_view path, std::vector<std::string>* keys) {
  size_t dot = path.find('.');
  if (dot == std::string_view::npos || dot + 1 == path.size()) return false;
  std::string_view root = path.substr(0, dot), rest = path.substr(dot + 1);
  if (root == "runtime" || root == "configuration") {
    *keys = {std::string(root), std::string(rest)};
    return true;
  }
  if (root == "hyperparams") {
    size_t split = rest.find('.');
    if (split == 0 || split == std::string_view::npos || split + 1 == rest.size()) return false;
    *keys = {std::string(root), std::string(rest.substr(0, split)),
             std::string(rest.substr(split + 1))};
    return true;
  }
  return false;
}

}  // namespace

ParamQuery::ParamQuery(const std::vector<std::string>& paths) : nodes_(1) {
  for (const std::string& path : paths) {
    if (std::any_of(paths_.begin(), paths_.end(), [&](const Path& p) { return p.text == path; })) {
      continue;
    }
    Path p{path};
    std::vector<std::string> keys;
    if (NestedKeys(path, &keys)) {
      int node = kParams, parent = kParams;
      for (const std::string& key : keys) {
        parent = node;
        node = AddChild(node, key);
      }
      AddChild(node, std::string(kValueKey));
      p.nested = node;
      p.flat = AddChild(kParams, path);
      AddChild(p.flat, std::string(kValueKey));
      nodes_[parent].last_keys.push_back(static_cast<int>(paths_.size()));
      nodes_[kParams].last_keys.push_back(static_cast<int>(paths_.size()));
    }
    paths_.push_back(std::move(p));
  }
}

int ParamQuery::AddChild(int node, const std::string& key) {
  if (int existing = Child(node, key); existing >= 0) return existing;
  int child = static_cast<int>(nodes_.size());
  nodes_[node].children.emplace_back(key, child);
  nodes_.emplace_back();
  nodes_.back().key = key;
  nodes_.back().path = node == kParams ? key : nodes_[node].path + "." + key;
  return child;
}

int ParamQuery::NearMiss(int node, std::string_view key) const {
  for (int i : nodes_[node].last_keys) {
    const Path& p = paths_[i];
    // At the top the flat dotted key; below, the path's last nested key.
    const std::string& name = node == kParams ? p.text : nodes_[p.nested].key;
    const size_t a = key.size(), b = name.size();
    if ((a > b ? a - b : b - a) > 2 || key == name) continue;
    if (EditDistance(key, name, 2) <= 2) return i;
  }
  return -1;
}

int ParamQuery::Child(int node, std::string_view key) const {
  for (const auto& [k, child] : nodes_[node].children) {
    if (k == key) return child;
  }
  return -1;
}

void ParamCapture::Reset() {
  for (int node : touched_) {
    kinds_[node] = Kind::kMissing;
    texts_[node].clear();
  }
  touched_.clear();
  for (int path : near_touched_) near_[path].clear();
  near_touched_.clear();
}

void ParamCapture::NoteNearMiss(int path, int node, std::string_view key) {
  if (near_.empty()) near_.resize(query_.paths_.size());
  if (!near_[path].empty()) return;
  near_touched_.push_back(path);
  const std::string& prefix = query_.nodes_[node].path;
  near_[path] = prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
}

bool ParamCapture::Set(int node, Kind kind, std::string_view text) {
  if (kinds_[node] != Kind::kMissing) return false;
  // A null still marks the key as seen, for duplicate detection.
  kinds_[node] = kind;
  texts_[node].assign(text);
  touched_.push_back(node);
  return true;
}

int ParamCapture::Resolve(int node, std::string_view* text) const {
  if (node < 0) return 0;
  switch (kinds_[node]) {
    case Kind::kMissing:
    case Kind::kNull:
      return 0;
    case Kind::kScalar:
      *text = texts_[node];
      return 1;
    case Kind::kList:
      return 2;
    case Kind::kMap:
      break;
  }
  int value = query_.Child(node, kValueKey);
  switch (kinds_[value]) {
    case Kind::kMissing:
      return 2;  // a mapping without `value`
    case Kind::kNull:
      return 0;
    case Kind::kScalar:
      *text = texts_[value];
      return 1;
    default:
      return 2;
  }
}

void ParamCapture::Collect(std::vector<ParamValue>* out, TextArena* arena) {
  const bool near = !near_touched_.empty();
  if (touched_.empty() && !near) return;
  if (paths_arena_ != arena) {  // the paths are copied once per arena
    path_texts_.clear();
    for (const auto& path : query_.paths_) path_texts_.push_back(arena->Keep(path.text));
    paths_arena_ = arena;
  }
  for (size_t i = 0; i < query_.paths_.size(); ++i) {
    const auto& path = query_.paths_[i];
    std::string_view text;
    int found = Resolve(path.nested, &text);
    if (found == 0) found = Resolve(path.flat, &text);
    if (found == 1) out->push_back({path_texts_[i], arena->Keep(text)});
    if (found == 2) out->push_back({path_texts_[i], std::nullopt});
    if (found == 0 && near && !near_[i].empty()) out->push_back({path_texts_[i], arena->Keep(near_[i]), true});
  }
}

}  // namespace rescfg
