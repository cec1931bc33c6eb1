/// The outcome store: compact rejections read back exactly as the whole
/// outcomes they stand for, through every way of reading, whatever the
/// split between two writers and the gap the first leaves.

#include "jobs/outcomes.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "jobs/resolve.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

/// What a test means an outcome to be: a rejection of nothing (kept
/// compact) or a job with an id (kept whole).
struct Planned {
  bool compact = false;
  uint32_t line = 0, column = 0;
  int message = 0;  ///< which of a few texts
  std::string id;
};

const char* const kTexts[] = {"required field 'id' is missing", "not valid JSON", "not a JSON object: 1"};

/// The outcome a Planned one stands for (entry numbers from 1, in order).
JobOutcome Expected(const Planned& p, uint32_t entry) {
  JobOutcome o;
  o.entry = entry;
  if (p.compact) {
    o.status = JobStatus::kRejected;
    o.reason = "invalid-job";
    o.message_text = kTexts[p.message];
    o.message_line = p.line;
    o.message_column = p.column;
  } else {
    o.status = JobStatus::kPending;
    o.id = p.id;
  }
  return o;
}

void ExpectSame(const JobOutcome& got, const JobOutcome& want, size_t i) {
  EXPECT_EQ(got.entry, want.entry) << i;
  EXPECT_EQ(got.status, want.status) << i;
  EXPECT_EQ(got.id, want.id) << i;
  EXPECT_EQ(got.reason, want.reason) << i;
  EXPECT_EQ(MessageOf(got), MessageOf(want)) << i;
  EXPECT_EQ(got.policy, want.policy) << i;
}

/// A writer's share of a plan: how many entries it writes, and how many
/// slots it leaves over after them (the blank lines of its range).
struct Share {
  size_t count = 0, gap = 0;
};

/// Writes `plan` as one writer per share would, each from the slot after
/// the shares before it and their gaps, and joins them.
Outcomes Write(const std::vector<Planned>& plan, const std::vector<Share>& shares, TextArena* text) {
  Outcomes store;
  size_t room = 0;
  for (const Share& share : shares) room += share.count + share.gap;
  store.Reserve(room);
  std::vector<Outcomes::Written> written;
  size_t i = 0, slot = 0;
  for (const Share& share : shares) {
    Outcomes::Writer w(&store, slot);
    for (size_t k = 0; k < share.count; ++k, ++i, ++slot) {
      // Entries are numbered as if the shares before had filled their slots.
      const auto entry = static_cast<uint32_t>(slot + 1);
      const Planned& p = plan[i];
      if (p.compact) {
        if (!w.Compact(slot, entry, p.line, p.column, "invalid-job", kTexts[p.message], text)) ADD_FAILURE() << i;
      } else {
        OutcomeRecord o;
        o.entry = entry;
        o.status = JobStatus::kPending;
        o.id = text->Keep(p.id);
        w.Whole(slot, o);
      }
    }
    slot += share.gap;
    written.push_back({std::move(w), share.count});
  }
  store.Join(std::move(written));
  return store;
}

/// Writes `plan` as two writers would: the first `split` from slot 0, the
/// rest from slot `split + gap` (the first's blank lines left `gap` over).
Outcomes Write(const std::vector<Planned>& plan, size_t split, size_t gap, TextArena* text) {
  return Write(plan, {{split, gap}, {plan.size() - split, 0}}, text);
}

void ExpectStoreHolds(const Outcomes& store, const std::vector<Planned>& plan) {
  ASSERT_EQ(store.size(), plan.size());
  size_t i = 0;
  for (const JobOutcome& o : store) ExpectSame(o, Expected(plan[i], static_cast<uint32_t>(i + 1)), i), ++i;
  JobOutcome scratch;
  for (i = 0; i < plan.size(); ++i) {
    ExpectSame(store[i], Expected(plan[i], static_cast<uint32_t>(i + 1)), i);
    ExpectSame(store.At(i, &scratch), Expected(plan[i], static_cast<uint32_t>(i + 1)), i);
    EXPECT_EQ(store.IsWhole(i), !plan[i].compact) << i;
  }
}

TEST(Outcomes, CompactAndWholeReadBackInOrderAcrossTwoWritersAndAGap) {
  std::vector<Planned> plan = {{true, 1, 0, 0, ""},  {false, 0, 0, 0, "a"}, {true, 3, 7, 1, ""},
                               {true, 4, 0, 0, ""},  {false, 0, 0, 0, "b"}, {true, 9, 0, 2, ""},
                               {false, 0, 0, 0, "c"}, {true, 11, 2, 0, ""}};
  for (size_t split = 0; split <= plan.size(); ++split) {
    for (size_t gap : {0, 1, 3}) {
      TextArena text;
      SCOPED_TRACE("split " + std::to_string(split) + ", gap " + std::to_string(gap));
      Outcomes store = Write(plan, split, gap, &text);
      ExpectStoreHolds(store, plan);
      EXPECT_EQ(store.compact_count(), 5u);
      EXPECT_EQ(store.whole_count(), 3u);
    }
  }
}

TEST(Outcomes, OneTextServesEveryRejectionThatSaysIt) {
  TextArena text;
  std::vector<Planned> plan(5000, Planned{true, 0, 0, 0, ""});
  for (size_t i = 0; i < plan.size(); ++i) plan[i].line = static_cast<uint32_t>(i + 1);
  Outcomes store = Write(plan, 500, 2, &text);
  ExpectStoreHolds(store, plan);
  // Each writer kept the text once (one block of the arena); nothing per entry.
  EXPECT_LE(text.capacity(), size_t(64 * 1024));
}

TEST(Outcomes, CopiesAndAppendsAreWhole) {
  TextArena text;
  Outcomes store = Write({{true, 2, 0, 1, ""}, {false, 0, 0, 0, "x"}}, 1, 0, &text);
  Outcomes copy = store;
  OutcomeRecord extra;
  extra.entry = 3;
  extra.id = "y";
  copy.push_back(extra);
  ASSERT_EQ(copy.size(), 3u);
  EXPECT_EQ(MessageOf(copy[0]), "line 2: not valid JSON");
  EXPECT_EQ(copy[1].id, "x");
  EXPECT_EQ(copy[2].id, "y");
  EXPECT_EQ(store.size(), 2u);
}

/// A record numbers its pool, its queue and link, and its reason; it reads
/// back as the names they stand for, and its amount as it was.
TEST(Outcomes, RecordsReadBackTheNamesTheyNumber) {
  const std::vector<std::string_view> pools = {"p0", "p1"}, pool_queues = {"q0", "q1"};
  const std::vector<std::vector<std::string_view>> links = {{"l00"}, {"", "l11"}};
  const std::vector<std::vector<std::string_view>> link_queues = {{"lq00"}, {"lq10", "lq11"}};
  Outcomes store;
  store.SetNames(pools, pool_queues, links, link_queues);
  struct Case {
    uint32_t pool, route;
    TextRef want_pool, want_queue, want_link;
  };
  const Case cases[] = {
      {0, 0, {}, {}, {}},
      {Outcomes::PoolNumber(1), Outcomes::PoolRoute(1, false), "p1", "q1", {}},
      {Outcomes::PoolNumber(0), Outcomes::PoolRoute(0, true), "p0", "q0", ""},
      {Outcomes::PoolNumber(0), store.LinkRoute(0, 0, true), "p0", "lq00", "l00"},
      {Outcomes::PoolNumber(1), store.LinkRoute(1, 0, true), "p1", "lq10", ""},
      {Outcomes::PoolNumber(1), store.LinkRoute(1, 1, false), "p1", "lq11", {}},
      {Outcomes::PoolNumber(1), store.LinkRoute(1, 1, true), "p1", "lq11", "l11"},
  };
  for (const Case& c : cases) {
    OutcomeRecord r;
    r.pool = c.pool;
    r.route = c.route;
    r.reason = OutcomeReasonCode("fifo-blocked");
    r.set_resources(Quantity::FromTicks(Quantity::kTicksPerUnit / 7 * 3));
    store.push_back(r);
    const JobOutcome o = store[store.size() - 1];
    EXPECT_EQ(o.pool, c.want_pool) << c.route;
    EXPECT_EQ(o.queue, c.want_queue) << c.route;
    EXPECT_EQ(o.link, c.want_link) << c.route;
    EXPECT_EQ(o.reason, "fifo-blocked");
    EXPECT_EQ(o.resources->ToString(), "3/7");
  }
  OutcomeRecord none;
  store.push_back(none);
  EXPECT_FALSE(store[store.size() - 1].resources.has_value());
  EXPECT_FALSE(store[store.size() - 1].reason.has_value());
  Outcomes shared;
  shared.ShareNames(store);
  shared.push_back(store.Whole(3));
  EXPECT_EQ(shared[0].link, "l00");
  EXPECT_THROW(OutcomeReasonCode("no-such-reason"), std::logic_error);
}

TEST(Outcomes, AReasonOutsideTheCompactOnesStaysWhole) {
  Outcomes store;
  store.Reserve(1);
  TextArena text;
  Outcomes::Writer w(&store, 0);
  EXPECT_FALSE(w.Compact(0, 1, 1, 0, "not-submitted", "m", &text));
}

/// A plan of `n` outcomes, each compact or whole at random.
std::vector<Planned> RandomPlan(size_t n) {
  std::vector<Planned> plan(n);
  for (size_t i = 0; i < n; ++i) {
    plan[i].compact = *rc::gen::arbitrary<bool>();
    plan[i].line = *rc::gen::inRange<uint32_t>(0, 5000);
    plan[i].column = plan[i].line > 0 ? *rc::gen::inRange<uint32_t>(0, 3) : 0;
    plan[i].message = *rc::gen::inRange(0, 3);
    plan[i].id = "j" + std::to_string(i);
  }
  return plan;
}

/// The store reads back the plan, entry by entry (rapidcheck assertions).
void AssertReadsBack(const Outcomes& store, const std::vector<Planned>& plan) {
  RC_ASSERT(store.size() == plan.size());
  RC_ASSERT(store.compact_count() + store.whole_count() == plan.size());
  JobOutcome scratch;
  for (size_t i = 0; i < plan.size(); ++i) {
    const JobOutcome want = Expected(plan[i], static_cast<uint32_t>(i + 1));
    const JobOutcome& got = store.At(i, &scratch);
    RC_ASSERT(got.entry == want.entry);
    RC_ASSERT(got.status == want.status);
    RC_ASSERT(got.id == want.id);
    RC_ASSERT(MessageOf(got) == MessageOf(want));
    RC_ASSERT(store.IsWhole(i) == !plan[i].compact);
  }
}

RC_GTEST_PROP(Outcomes, AnySplitAndGapReadsBackThePlan, ()) {
  const std::vector<Planned> plan = RandomPlan(*rc::gen::inRange<size_t>(0, 200));
  const auto split = *rc::gen::inRange<size_t>(0, plan.size() + 1);
  const auto gap = *rc::gen::inRange<size_t>(0, 4);
  TextArena text;
  AssertReadsBack(Write(plan, split, gap, &text), plan);
}

/// Any number of writers, each after the gap the one before left: the
/// store reads back as one writer would have written it.
RC_GTEST_PROP(Outcomes, AnyNumberOfWritersAndGapsReadBackThePlan, ()) {
  const std::vector<Planned> plan = RandomPlan(*rc::gen::inRange<size_t>(0, 300));
  std::vector<Share> shares;
  for (size_t left = plan.size(); left > 0 || shares.empty();) {
    const auto count = *rc::gen::inRange<size_t>(0, left + 1);
    shares.push_back({count, *rc::gen::inRange<size_t>(0, 4)});
    left -= count;
    if (shares.size() == 8 && left > 0) shares.push_back({left, 0}), left = 0;
  }
  TextArena text;
  AssertReadsBack(Write(plan, shares, &text), plan);
}

/// Resolution keeps a rejection compact exactly when it carries nothing of
/// its entry; the work count holds hostile files to a few dozen bytes an entry.
TEST(Outcomes, ResolutionKeepsEmptyRejectionsCompact) {
  const Config config = testing::ConfigFromYaml(R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: a, resources: 8}]
profiles: [{name: p, allotment: 1, links: [{pool: a}]}]
policies: [{name: Dev, profiles: [p]}]
)");
  std::vector<JobEntry> entries(6);
  for (size_t i = 0; i < entries.size(); ++i) {
    entries[i].entry = i + 1;
    entries[i].mark = {static_cast<int>(i + 1), 1};
  }
  entries[1].id = "with-id";                                   // rejected, carries its id: whole
  entries[2].id = "ok", entries[2].policy = "Dev", entries[2].profile = "p";  // pending: whole
  entries[3].policy = "Nobody";                                // rejected, carries its policy: whole
  entries[4].invalid = "not valid JSON";                       // rejected, nothing: compact
  entries[4].invalid_at_column = true;
  entries[4].mark.column = 5;
  ResolvedJobs r = ResolveJobs(config, entries);
  EXPECT_EQ(r.outcomes.compact_count(), 3u);  // entries 1, 5 and 6
  EXPECT_EQ(r.outcomes.whole_count(), 3u);
  EXPECT_EQ(MessageOf(r.outcomes[0]), "line 1: required field 'id' is missing");
  EXPECT_EQ(MessageOf(r.outcomes[4]), "line 5, column 5: not valid JSON");
  EXPECT_EQ(r.outcomes[1].id, "with-id");
  EXPECT_EQ(r.outcomes[3].policy, "Nobody");
}

}  // namespace
}  // namespace rescfg
