#include "jobs/queue_memo.h"

#include <algorithm>

namespace rescfg {

const QueueMemo::Answers& QueueMemo::Of(std::string_view name, uint32_t key) {
  if (key >= slots_.size()) slots_.resize(std::max<size_t>(key + 1, 2 * slots_.size()));
  Slot& slot = slots_[key];
  if (slot.data != name.data() || slot.size != name.size()) slot = {name.data(), name.size(), {dir_.queues.find(name), dir_.pool_queues.find(name)}};
  return slot.answers;
}

}  // namespace rescfg
