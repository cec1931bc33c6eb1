/// The queue memo answers as the directory does, remembering answers only
/// for the text they were given for.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "jobs/queue_memo.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: gpu, resources: 4}, {name: cpu, resources: 8}]
profiles: [{name: p, allotment: 1, links: [{pool: gpu}, {pool: cpu}]}]
policies: [{name: Dev, profiles: [{profile: p, queue: dev-p}]}, {name: Ops, profiles: [p]}]
)";

TEST(QueueMemo, AnswersAsTheDirectoryDoes) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const JobDirectory dir(config);
  QueueMemo memo(dir);
  const std::vector<std::string> names = {"dev-p", "Ops/p", "gpu", "cpu", "Dev/p", "nope", ""};
  for (int round = 0; round < 2; ++round) {  // the second from memory
    for (size_t i = 0; i < names.size(); ++i) {
      const auto key = static_cast<uint32_t>(i + 1);
      EXPECT_EQ(memo.PolicyQueue(names[i], key), dir.queues.find(names[i])) << names[i];
      EXPECT_EQ(memo.PoolQueue(names[i], key), dir.pool_queues.find(names[i])) << names[i];
      EXPECT_EQ(memo.PolicyQueue(names[i]), dir.queues.find(names[i])) << names[i];
    }
  }
  EXPECT_NE(memo.PolicyQueue("dev-p", 1), nullptr);
  EXPECT_NE(memo.PoolQueue("gpu", 3), nullptr);
}

// Asking ahead for any number, before the table exists, past its end or
// for none, changes no answer (and, under the sanitizers, reads nothing).
TEST(QueueMemo, AskingAheadForAnyNumberChangesNothing) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const JobDirectory dir(config);
  QueueMemo memo(dir);
  for (uint32_t key : {0u, 1u, 7u, 1000000u, UINT32_MAX}) memo.Prefetch(key);
  EXPECT_EQ(memo.PolicyQueue("dev-p", 2), dir.queues.find("dev-p"));
  for (uint32_t key : {0u, 2u, 3u, 1000000u, UINT32_MAX}) memo.Prefetch(key);
  EXPECT_EQ(memo.PolicyQueue("dev-p", 2), dir.queues.find("dev-p"));
  EXPECT_EQ(memo.PoolQueue("gpu", 2), dir.pool_queues.find("gpu"));  // another text under 2: afresh
  EXPECT_EQ(memo.PolicyQueue("gpu", 2), nullptr);
}

TEST(QueueMemo, AnotherTextUnderTheSameNumberIsAnsweredAfresh) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const JobDirectory dir(config);
  QueueMemo memo(dir);
  const std::string dev = "dev-p", nope = "nope!", gpu = "gpu", same_gpu = "gpu";
  ASSERT_NE(memo.PolicyQueue(dev, 5), nullptr);
  EXPECT_EQ(memo.PolicyQueue(nope, 5), nullptr);  // same number, same length, another text
  ASSERT_NE(memo.PoolQueue(gpu, 5), nullptr);
  EXPECT_EQ(memo.PolicyQueue(gpu, 5), nullptr);
  EXPECT_EQ(memo.PoolQueue(same_gpu, 5), dir.pool_queues.find("gpu"));  // equal text elsewhere
  EXPECT_EQ(memo.PoolQueue(dev, 5), nullptr);
}

TEST(QueueMemo, KeyOfAnEntrysOwnQueueTextOnly) {
  JobEntry e;
  const std::string queue = "dev-p", copy = "dev-p";
  e.queue = queue;
  e.queue_key = 3;
  EXPECT_EQ(QueueMemo::KeyOf(e, e.queue), 3u);
  EXPECT_EQ(QueueMemo::KeyOf(e, TextRef(copy)), 0u);
  EXPECT_EQ(QueueMemo::KeyOf(e, TextRef()), 0u);
  e.queue.reset();
  EXPECT_EQ(QueueMemo::KeyOf(e, TextRef(queue)), 0u);
}

}  // namespace
}  // namespace rescfg
