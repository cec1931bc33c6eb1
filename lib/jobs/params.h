#pragma once
/// Dynamic-parameter lookup in a job's `params` (rescfg(5), JOBS FILE).
///
/// The paths a configuration asks for are compiled once into a small trie of
/// the keys that matter, so a loader walks only those keys of each job and
/// skips everything else (jobs exported from other systems carry large,
/// irrelevant parameter sections). The loaders report what they find at the
/// trie's nodes into a ParamCapture, which applies the precedence rules.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jobs/job.h"

namespace rescfg {

class ParamQuery {
 public:
  /// `paths` as written in the configuration: runtime.KEY,
  /// hyperparams.SECTION.NAME (split after the section only) or
  /// configuration.NAME. Each is looked up nested and as one flat dotted
  /// key. A path with another root or an empty part is never found.
  explicit ParamQuery(const std::vector<std::string>& paths);

  /// The node of the `params` mapping itself.
  static constexpr int kParams = 0;

  /// The node reached by `key` inside the mapping found at `node`; -1 when
  /// that key does not matter.
  int Child(int node, std::string_view key) const;
  /// For a key that does not matter (Child gave -1): the path whose last key
  /// at `node` is within two edits of it, a likely typo; -1 when none is.
  int NearMiss(int node, std::string_view key) const;
  /// Whether a mapping found at `node` has any key that matters.
  bool HasChildren(int node) const { return !nodes_[node].children.empty(); }
  /// Whether any path is asked for at all.
  bool empty() const { return paths_.empty(); }
  size_t node_count() const { return nodes_.size(); }

 private:
  friend class ParamCapture;
  struct Node {
    std::vector<std::pair<std::string, int>> children;
    std::string key;  ///< the key leading here, for messages
    std::string path;  ///< the dotted keys from params to here
    std::vector<int> last_keys;  ///< paths whose last key is a child of this node
  };
  struct Path {
    std::string text;
    int nested = -1;  ///< node of the nested form, -1 when the path is malformed
    int flat = -1;    ///< node of the flat dotted key
  };
  int AddChild(int node, const std::string& key);

  std::vector<Node> nodes_;
  std::vector<Path> paths_;
};

/// What one job's `params` hold at the nodes of a ParamQuery.
class ParamCapture {
 public:
  enum class Kind : uint8_t { kMissing, kNull, kScalar, kList, kMap };

  explicit ParamCapture(const ParamQuery& query)
      : query_(query), kinds_(query.node_count()), texts_(query.node_count()) {}

  /// Forgets the previous job.
  void Reset();
  /// Records the value found at `node`. Returns false when the node was
  /// already seen in this job: the key appears twice in its mapping.
  bool Set(int node, Kind kind, std::string_view text = {});
  /// The key of `node`, for messages.
  std::string_view KeyOf(int node) const { return query_.nodes_[node].key; }
  /// Notes that `key` at `node` nearly names path `path` (from NearMiss).
  void NoteNearMiss(int path, int node, std::string_view key);
  /// Appends one ParamValue per path present, in the order the paths were
  /// given: the nested form wins over the flat key; a null counts as
  /// absent (so a nested null falls through to the flat key); a mapping
  /// `{value: X}` stands for X; a list, or a mapping without `value`, is
  /// present but not a scalar.
  /// Texts are copied into `arena`.
  void Collect(std::vector<ParamValue>* out, TextArena* arena);

 private:
  /// 0: absent, 1: scalar (text in *text), 2: present but not a scalar.
  int Resolve(int node, std::string_view* text) const;

  const ParamQuery& query_;
  std::vector<Kind> kinds_;
  std::vector<std::string> texts_;
  std::vector<int> touched_;
  std::vector<std::string> near_;  ///< per path: the key that nearly named it, "" if none
  std::vector<int> near_touched_;  ///< the paths with a near miss in this job
  const TextArena* paths_arena_ = nullptr;  ///< where path_texts_ were copied
  std::vector<std::string_view> path_texts_;
};

}  // namespace rescfg
