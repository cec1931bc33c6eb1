#include "schedule/bipartite_flow.h"

#include <algorithm>

namespace rescfg {

namespace {
constexpr Ticks kUncapped = Ticks(1) << 124;
}  // namespace

BipartiteFlow::Shape::Shape(int left, int right, const std::vector<std::vector<int>>& edges_of_left)
    : left_(left), right_(right) {
  left_begin_.push_back(0);
  std::vector<int> count(static_cast<size_t>(right) + 1, 0);
  for (int i = 0; i < left; ++i) {
    for (int j : edges_of_left[i]) {
      edge_left_.push_back(i);
      edge_right_.push_back(j);
      ++count[j + 1];
    }
    left_begin_.push_back(static_cast<int>(edge_right_.size()));
  }
  right_begin_.assign(count.begin(), count.end());
  for (int j = 0; j < right; ++j) right_begin_[j + 1] += right_begin_[j];
  right_edges_.resize(edge_right_.size());
  std::vector<int> at(right_begin_.begin(), right_begin_.end() - 1);
  for (int e = 0; e < static_cast<int>(edge_right_.size()); ++e) right_edges_[at[edge_right_[e]]++] = e;
}

BipartiteFlow::BipartiteFlow(std::shared_ptr<const Shape> shape, std::vector<Ticks> left_cap,
                             std::vector<Ticks> right_cap)
    : shape_(std::move(shape)), left_cap_(std::move(left_cap)), left_flow_(left_cap_.size(), 0),
      right_cap_(std::move(right_cap)), right_flow_(right_cap_.size(), 0),
      edge_cap_(shape_->edge_right_.size(), kUncapped), edge_flow_(shape_->edge_right_.size(), 0) {}

void BipartiteFlow::Cancel(int e, Ticks d) {
  if (d <= 0) return;
  edge_flow_[e] -= d;
  left_flow_[shape_->edge_left_[e]] -= d;
  right_flow_[shape_->edge_right_[e]] -= d;
  value_ -= d;
  NoteStart(shape_->edge_left_[e]);
  // A capped edge below its cap is a new way forward out of its node: once
  // that node is full again, a path may enter it backwards from a pool it
  // sends to and leave through this edge, starting at a node that is not a
  // start. (Uncapped edges always had room; SetEdgeCap leaves none.)
  if (edge_cap_[e] < kUncapped && edge_flow_[e] < edge_cap_[e]) all_starts_ = true;
}

bool BipartiteFlow::RightRoomGrew() const {
  if (right_room_.size() != right_cap_.size()) return true;
  for (size_t j = 0; j < right_cap_.size(); ++j) {
    if (right_cap_[j] - right_flow_[j] > right_room_[j]) return true;
  }
  return false;
}

void BipartiteFlow::SetEdgeCap(int e, Ticks cap) {
  if (cap > edge_cap_[e]) all_starts_ = true;
  edge_cap_[e] = cap;
  Cancel(e, edge_flow_[e] - cap);
}

void BipartiteFlow::SetLeftCap(int i, Ticks cap) {
  left_cap_[i] = cap;
  if (cap > left_flow_[i]) NoteStart(i);
  Ticks excess = left_flow_[i] - cap;
  for (int e = shape_->left_begin_[i]; excess > 0 && e < shape_->left_begin_[i + 1]; ++e) {
    Ticks d = std::min(edge_flow_[e], excess);
    Cancel(e, d);
    excess -= d;
  }
}

void BipartiteFlow::SetRightCap(int j, Ticks cap) {
  right_cap_[j] = cap;
  Ticks excess = right_flow_[j] - cap;
  for (int k = shape_->right_begin_[j]; excess > 0 && k < shape_->right_begin_[j + 1]; ++k) {
    int e = shape_->right_edges_[k];
    Ticks d = std::min(edge_flow_[e], excess);
    Cancel(e, d);
    excess -= d;
  }
}

bool BipartiteFlow::Levels() {
  const Shape& s = *shape_;
  scratch_.left_level.assign(static_cast<size_t>(s.left_), -1);
  scratch_.right_level.assign(static_cast<size_t>(s.right_), -1);
  sink_level_ = -1;
  scratch_.queue.clear();
  // Left nodes are queued as i, right nodes as left + j.
  auto start = [&](int i) {
    if (scratch_.left_level[i] < 0 && left_flow_[i] < left_cap_[i]) {
      scratch_.left_level[i] = 1;
      scratch_.queue.push_back(i);
    }
  };
  if (all_starts_) {
    for (int i = 0; i < s.left_; ++i) start(i);
  } else {
    for (int i : starts_) start(i);
  }
  for (size_t at = 0; at < scratch_.queue.size(); ++at) {
    int node = scratch_.queue[at];
    if (node < s.left_) {
      int level = scratch_.left_level[node];
      if (sink_level_ >= 0 && level + 1 >= sink_level_) break;
      for (int e = s.left_begin_[node]; e < s.left_begin_[node + 1]; ++e) {
        int j = s.edge_right_[e];
        if (scratch_.right_level[j] < 0 && edge_flow_[e] < edge_cap_[e]) {
          scratch_.right_level[j] = level + 1;
          scratch_.queue.push_back(s.left_ + j);
        }
      }
    } else {
      int j = node - s.left_;
      int level = scratch_.right_level[j];
      if (right_flow_[j] < right_cap_[j] && sink_level_ < 0) sink_level_ = level + 1;
      if (sink_level_ >= 0 && level + 1 >= sink_level_) continue;
      for (int k = s.right_begin_[j]; k < s.right_begin_[j + 1]; ++k) {
        int e = s.right_edges_[k];
        int i = s.edge_left_[e];
        if (edge_flow_[e] > 0 && scratch_.left_level[i] < 0) {
          scratch_.left_level[i] = level + 1;
          scratch_.queue.push_back(i);
        }
      }
    }
  }
  return sink_level_ >= 0;
}

Ticks BipartiteFlow::PushFromLeft(int i, Ticks limit) {
  const Shape& s = *shape_;
  for (int& e = scratch_.left_next[i]; e < s.left_begin_[i + 1]; ++e) {
    int j = s.edge_right_[e];
    if (scratch_.right_level[j] != scratch_.left_level[i] + 1 || edge_flow_[e] >= edge_cap_[e]) continue;
    Ticks pushed = PushFromRight(j, std::min(limit, edge_cap_[e] - edge_flow_[e]));
    if (pushed > 0) {
      edge_flow_[e] += pushed;
      return pushed;
    }
  }
  return 0;
}

Ticks BipartiteFlow::PushFromRight(int j, Ticks limit) {
  const Shape& s = *shape_;
  // Position right_begin_[j] - 1 stands for the edge to the sink, tried first.
  for (int& k = scratch_.right_next[j]; k < s.right_begin_[j + 1]; ++k) {
    if (k < s.right_begin_[j]) {
      if (sink_level_ == scratch_.right_level[j] + 1 && right_flow_[j] < right_cap_[j]) {
        Ticks d = std::min(limit, right_cap_[j] - right_flow_[j]);
        right_flow_[j] += d;
        return d;
      }
      continue;
    }
    int e = s.right_edges_[k];
    int i = s.edge_left_[e];
    if (edge_flow_[e] <= 0 || scratch_.left_level[i] != scratch_.right_level[j] + 1) continue;
    Ticks pushed = PushFromLeft(i, std::min(limit, edge_flow_[e]));
    if (pushed > 0) {
      edge_flow_[e] -= pushed;
      return pushed;
    }
  }
  return 0;
}

Ticks BipartiteFlow::Augment() {
  const Shape& s = *shape_;
  // Decided once: augmenting uses up room, so later phases could no longer tell.
  if (RightRoomGrew()) all_starts_ = true;
  while (Levels()) {
    scratch_.left_next.assign(s.left_begin_.begin(), s.left_begin_.end() - 1);
    scratch_.right_next.resize(static_cast<size_t>(s.right_));
    for (int j = 0; j < s.right_; ++j) scratch_.right_next[j] = s.right_begin_[j] - 1;
    bool any = false;
    for (int i = 0; i < s.left_; ++i) {
      if (scratch_.left_level[i] != 1) continue;
      while (left_flow_[i] < left_cap_[i]) {
        Ticks pushed = PushFromLeft(i, left_cap_[i] - left_flow_[i]);
        if (pushed <= 0) break;
        left_flow_[i] += pushed;
        value_ += pushed;
        any = true;
      }
    }
    if (!any) break;
  }
  starts_.clear();
  all_starts_ = false;
  right_room_.resize(right_cap_.size());
  for (size_t j = 0; j < right_cap_.size(); ++j) right_room_[j] = right_cap_[j] - right_flow_[j];
  return value_;
}

}  // namespace rescfg
