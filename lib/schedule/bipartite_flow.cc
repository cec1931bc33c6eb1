#include "schedule/bipartite_flow.h"

#include <algorithm>

namespace rescfg {

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
      edge_flow_(shape_->edge_right_.size(), 0) {}

BipartiteFlow BipartiteFlow::Extended(const std::vector<std::vector<int>>& extra_edges,
                                      const std::vector<Ticks>& extra_caps) const {
  if (extra_edges.empty()) return *this;
  const Shape& s = *shape_;
  std::vector<std::vector<int>> edges(static_cast<size_t>(s.left_));
  for (int i = 0; i < s.left_; ++i) {
    edges[i].assign(s.edge_right_.begin() + s.left_begin_[i], s.edge_right_.begin() + s.left_begin_[i + 1]);
  }
  edges.insert(edges.end(), extra_edges.begin(), extra_edges.end());
  std::vector<Ticks> left_cap = left_cap_;
  left_cap.insert(left_cap.end(), extra_caps.begin(), extra_caps.end());
  BipartiteFlow copy(std::make_shared<const Shape>(static_cast<int>(edges.size()), s.right_, edges),
                     std::move(left_cap), right_cap_);
  // Edge ids of the old nodes are unchanged: new edges come after them.
  std::copy(left_flow_.begin(), left_flow_.end(), copy.left_flow_.begin());
  std::copy(right_flow_.begin(), right_flow_.end(), copy.right_flow_.begin());
  std::copy(edge_flow_.begin(), edge_flow_.end(), copy.edge_flow_.begin());
  copy.value_ = value_;
  return copy;
}

void BipartiteFlow::SetLeftCap(int i, Ticks cap) {
  left_cap_[i] = cap;
  Ticks excess = left_flow_[i] - cap;
  for (int e = shape_->left_begin_[i]; excess > 0 && e < shape_->left_begin_[i + 1]; ++e) {
    Ticks d = std::min(edge_flow_[e], excess);
    edge_flow_[e] -= d;
    right_flow_[shape_->edge_right_[e]] -= d;
    left_flow_[i] -= d;
    value_ -= d;
    excess -= d;
  }
}

void BipartiteFlow::SetRightCap(int j, Ticks cap) {
  right_cap_[j] = cap;
  Ticks excess = right_flow_[j] - cap;
  for (int k = shape_->right_begin_[j]; excess > 0 && k < shape_->right_begin_[j + 1]; ++k) {
    int e = shape_->right_edges_[k];
    Ticks d = std::min(edge_flow_[e], excess);
    edge_flow_[e] -= d;
    left_flow_[shape_->edge_left_[e]] -= d;
    right_flow_[j] -= d;
    value_ -= d;
    excess -= d;
  }
}

bool BipartiteFlow::Levels() {
  const Shape& s = *shape_;
  left_level_.assign(static_cast<size_t>(s.left_), -1);
  right_level_.assign(static_cast<size_t>(s.right_), -1);
  sink_level_ = -1;
  queue_.clear();
  // Left nodes are queued as i, right nodes as left + j.
  for (int i = 0; i < s.left_; ++i) {
    if (left_flow_[i] < left_cap_[i]) {
      left_level_[i] = 1;
      queue_.push_back(i);
    }
  }
  for (size_t at = 0; at < queue_.size(); ++at) {
    int node = queue_[at];
    if (node < s.left_) {
      int level = left_level_[node];
      if (sink_level_ >= 0 && level + 1 >= sink_level_) break;
      for (int e = s.left_begin_[node]; e < s.left_begin_[node + 1]; ++e) {
        int j = s.edge_right_[e];
        if (right_level_[j] < 0) {
          right_level_[j] = level + 1;
          queue_.push_back(s.left_ + j);
        }
      }
    } else {
      int j = node - s.left_;
      int level = right_level_[j];
      if (right_flow_[j] < right_cap_[j] && sink_level_ < 0) sink_level_ = level + 1;
      if (sink_level_ >= 0 && level + 1 >= sink_level_) continue;
      for (int k = s.right_begin_[j]; k < s.right_begin_[j + 1]; ++k) {
        int e = s.right_edges_[k];
        int i = s.edge_left_[e];
        if (edge_flow_[e] > 0 && left_level_[i] < 0) {
          left_level_[i] = level + 1;
          queue_.push_back(i);
        }
      }
    }
  }
  return sink_level_ >= 0;
}

Ticks BipartiteFlow::PushFromLeft(int i, Ticks limit) {
  const Shape& s = *shape_;
  for (int& e = left_next_[i]; e < s.left_begin_[i + 1]; ++e) {
    int j = s.edge_right_[e];
    if (right_level_[j] != left_level_[i] + 1) continue;
    Ticks pushed = PushFromRight(j, limit);
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
  for (int& k = right_next_[j]; k < s.right_begin_[j + 1]; ++k) {
    if (k < s.right_begin_[j]) {
      if (sink_level_ == right_level_[j] + 1 && right_flow_[j] < right_cap_[j]) {
        Ticks d = std::min(limit, right_cap_[j] - right_flow_[j]);
        right_flow_[j] += d;
        return d;
      }
      continue;
    }
    int e = s.right_edges_[k];
    int i = s.edge_left_[e];
    if (edge_flow_[e] <= 0 || left_level_[i] != right_level_[j] + 1) continue;
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
  while (Levels()) {
    left_next_.assign(s.left_begin_.begin(), s.left_begin_.end() - 1);
    right_next_.resize(static_cast<size_t>(s.right_));
    for (int j = 0; j < s.right_; ++j) right_next_[j] = s.right_begin_[j] - 1;
    bool any = false;
    for (int i = 0; i < s.left_; ++i) {
      if (left_level_[i] != 1) continue;
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
  return value_;
}

}  // namespace rescfg
