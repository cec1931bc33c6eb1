/// Resolution of jobs-file entries: rejection order and messages.

#include <gtest/gtest.h>

#include "jobs/resolve.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: gpu, resources: 4}]
profiles: [{name: p, allotment: 1, links: [{pool: gpu}]}, {name: q, allotment: 1, links: [{pool: gpu}]}]
policies: [{name: Dev, profiles: [{profile: p, queue: dev-p}]}, {name: Ops, profiles: [q]}]
)";

JobEntry At(JobEntry e, int line) {
  e.mark = {line, 1};
  e.entry = static_cast<size_t>(line);
  return e;
}

TEST(Resolve, RejectedMessagesNameTheirLineOnce) {
  Config config = testing::ConfigFromYaml(kConfig);
  JobEntry no_profile = At(testing::Queued("a", "Dev", ""), 7);
  no_profile.profile.reset();
  JobEntry malformed = At(JobEntry{}, 9);
  malformed.invalid = "not a JSON object: [1,2]";
  ResolvedJobs r = ResolveJobs(config, {no_profile, malformed});
  EXPECT_EQ(*r.outcomes[0].reason, "invalid-job");
  EXPECT_EQ(MessageOf(r.outcomes[0]).rfind("line 7: ", 0), 0u) << MessageOf(r.outcomes[0]);
  EXPECT_EQ(MessageOf(r.outcomes[1]), "line 9: not a JSON object: [1,2]");
}

TEST(Resolve, RejectionReasonsInTheirOrder) {
  Config config = testing::ConfigFromYaml(kConfig);
  JobEntry by_queue = testing::Queued("q1", "", "");
  by_queue.policy.reset();
  by_queue.profile.reset();
  by_queue.queue = "dev-p";
  JobEntry contradicting = by_queue;
  contradicting.id = "q2";
  contradicting.policy = "Ops";
  JobEntry unknown_queue = by_queue;
  unknown_queue.id = "q3";
  unknown_queue.queue = "Dev/p";  // the default name is not a queue when one is given
  ResolvedJobs r = ResolveJobs(config, {by_queue, contradicting, testing::Queued("q1", "Dev", "p"), unknown_queue,
                                        testing::Queued("u1", "Nobody", "p"), testing::Queued("u2", "Dev", "zzz"),
                                        testing::Queued("u3", "Dev", "q")});
  std::vector<std::string> reasons;
  for (const auto& o : r.outcomes) reasons.push_back(o.reason.value_or(JobStatusName(o.status)));
  EXPECT_EQ(reasons, (std::vector<std::string>{"pending", "invalid-job", "duplicate-id", "unknown-queue",
                                                "unknown-policy", "unknown-profile", "profile-not-allowed"}));
  EXPECT_EQ(*r.outcomes[0].policy, "Dev");
  EXPECT_EQ(*r.outcomes[0].profile, "p");
}

}  // namespace
}  // namespace rescfg
