#include "util/yaml_alias_expander.h"

#include <algorithm>
#include <utility>

namespace rescfg {

AliasExpander::AliasExpander(AliasSink* sink, AliasBudget budget)
    : builder_(sink),
      budget_(budget),
      too_large_("aliases expand to too many nodes (more than " + std::to_string(budget.per_entry) + ")") {}


void AliasExpander::Raw(const Event& ev, YAML::anchor_t anchor) {
  if (anchor != YAML::NullAnchor) {
    if (anchors_.size() <= anchor) anchors_.resize(anchor + 1);
    anchors_[anchor] = {log_.size(), 0, depth_, false, 0};
    open_.push_back(anchor);
  }
  if (!open_.empty()) Log(ev);
  if (IsStart(ev.type)) ++depth_;
  if (IsEnd(ev.type)) --depth_;
  while (!open_.empty() && anchors_[open_.back()].depth == depth_) {
    Anchor& a = anchors_[open_.back()];
    a.end = log_.size();
    a.cost = cost_sum_[a.end] - cost_sum_[a.begin];
    a.done = true;
    open_.pop_back();
  }
  if (ev.type == Ev::kAlias) {
    Expand(ev);
  } else {
    builder_->Handle(ev);
  }
}

void AliasExpander::Log(const Event& ev) {
  uint64_t cost = 1;
  if (ev.type == Ev::kAlias && Replayable(ev.anchor, log_.size())) cost = anchors_[ev.anchor].cost;
  log_.push_back({ev.type, ev.mark, ev.anchor, texts_.size(), ev.text.size(), ev.quoted});
  texts_.append(ev.text);
  cost_sum_.push_back(std::min(cost_sum_.back() + cost, uint64_t(1) << 62));
}

void AliasExpander::Expand(const Event& alias) {
  if (builder_->Skipping()) {
    builder_->Handle(Event(Ev::kOpaque, alias.mark));
    return;
  }
  if (!Replayable(alias.anchor, log_.size())) {
    builder_->Handle(Event(Ev::kBadAlias, alias.mark, 0, kCyclicAlias));
    return;
  }
  const uint64_t cost = anchors_[alias.anchor].cost;
  if (cost_entry_ != builder_->entries_begun()) {
    cost_entry_ = builder_->entries_begun();
    entry_cost_ = 0;
  }
  if (cost > budget_.per_entry || entry_cost_ + cost > budget_.per_entry ||
      total_cost_ + cost > budget_.total) {
    builder_->Handle(Event(Ev::kBadAlias, alias.mark, 0, too_large_));
    return;
  }
  entry_cost_ += cost;
  total_cost_ += cost;
  // Replay iteratively: ranges of the log, innermost last.
  std::vector<std::pair<size_t, size_t>> ranges = {{anchors_[alias.anchor].begin, anchors_[alias.anchor].end}};
  while (!ranges.empty()) {
    auto& [at, end] = ranges.back();
    if (at == end) {
      ranges.pop_back();
      continue;
    }
    const size_t index = at++;
    const Logged& l = log_[index];
    Event ev(l.type, alias.mark, l.anchor, std::string_view(texts_).substr(l.text_begin, l.text_size));
    ev.quoted = l.quoted;
    if (ev.type != Ev::kAlias) {
      builder_->Handle(ev);
    } else if (builder_->Skipping()) {
      builder_->Handle(Event(Ev::kOpaque, alias.mark));
    } else if (!Replayable(ev.anchor, index)) {
      builder_->Handle(Event(Ev::kBadAlias, alias.mark, 0, kCyclicAlias));
    } else {
      ranges.emplace_back(anchors_[ev.anchor].begin, anchors_[ev.anchor].end);
    }
  }
}

}  // namespace rescfg
