/// The task parser's look-ahead: the listings of a batch of tasks found from
/// the IDs their texts start with, before they are read, and used for a task
/// only when the ID it reads to is that one.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "clearml/task_parser.h"
#include "jobs/params.h"

namespace rescfg::clearml {
namespace {

const char* kQueues = R"([
  {"id": "q-dev", "name": "dev-4gpu", "entries": [{"task": "t2"}, {"task": "t1"}]},
  {"id": "q-pool", "name": "h100-pool", "entries": [{"task": "t3"}, {"task": "0123456789012345678901234567890123456789012345678901234567890123"}]}
])";

struct Fixture {
  QueueList queues = ReadQueuesText(kQueues, "queues.json");
  ParamQuery query{std::vector<std::string>{}};
  LoadedJobs out;
};

TEST(ClearmlTaskLookAhead, FindsTheListingOfTheIdATaskStartsWith) {
  Fixture f;
  ASSERT_FALSE(f.queues.unusable);
  const Lookups lookups(Companions{&f.queues, nullptr, nullptr}, &f.out);
  TaskParser parser(f.query, lookups, &JobsArena(&f.out));
  const std::string id64(kQueues + std::string(kQueues).find("0123"), 64);
  struct Case {
    std::string text;
    std::string id;  ///< "" when none is found ahead
    std::optional<Listing> listing;
  };
  const std::vector<Case> cases = {
      {R"({"id": "t1", "status": "queued"})", "t1", Listing{0, 2}},
      {R"({"id":"t2"})", "t2", Listing{0, 1}},
      {"{ \n\t\"id\"\r\n :  \"t3\" }", "t3", Listing{1, 1}},
      {R"({"id": "t-not-listed", "status": "queued"})", "t-not-listed", std::nullopt},
      {"{\"id\": \"" + id64 + "\"}", id64, Listing{1, 2}},
      {"{\"id\": \"" + id64 + "4\"}", "", std::nullopt},  // longer than 64 bytes: looked up as read
      {R"({"name": "x", "id": "t1"})", "", std::nullopt},  // the ID comes later
      {R"({"id": "t\u0031"})", "", std::nullopt},           // an escape: the text is not the ID
      {R"({"id": 1})", "", std::nullopt},
      {R"({"id": "t1)", "", std::nullopt},
      {R"({"ids": "t1"})", "", std::nullopt},
      {R"(["id", "t1"])", "", std::nullopt},
      {"", "", std::nullopt},
  };
  std::vector<std::string_view> texts;
  for (const Case& c : cases) texts.push_back(c.text);
  std::vector<ListingAhead> ahead(cases.size());
  parser.LookAhead(texts.data(), texts.size(), ahead.data());
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].text);
    EXPECT_EQ(ahead[i].id, cases[i].id);
    ASSERT_EQ(ahead[i].listing.has_value(), cases[i].listing.has_value());
    if (cases[i].listing) {
      EXPECT_EQ(ahead[i].listing->queue, cases[i].listing->queue);
      EXPECT_EQ(ahead[i].listing->position, cases[i].listing->position);
    }
  }
}

TEST(ClearmlTaskLookAhead, WithoutQueuesNothingIsFoundAhead) {
  Fixture f;
  const Lookups lookups(Companions{}, &f.out);
  TaskParser parser(f.query, lookups, &JobsArena(&f.out));
  const std::string_view text = R"({"id": "t1"})";
  ListingAhead ahead{"stale", Listing{7, 7}};
  parser.LookAhead(&text, 1, &ahead);
  EXPECT_TRUE(ahead.id.empty());
  EXPECT_FALSE(ahead.listing);
}

/// A queued task's place in its queue comes from the look-ahead only when
/// the ID it reads to is the one found ahead: a task whose ID is given twice
/// reads to the last one, and takes its own listing.
TEST(ClearmlTaskLookAhead, ATaskTakesTheListingFoundAheadOnlyForItsOwnId) {
  Fixture f;
  const Lookups lookups(Companions{&f.queues, nullptr, nullptr}, &f.out);
  TaskParser parser(f.query, lookups, &JobsArena(&f.out));
  struct Case {
    std::string text;
    ListingAhead ahead;
    std::string listed_in;
    uint32_t rank;
  };
  const std::string tail = R"(, "status": "queued", "execution": {"queue": "q-dev"}})";
  const std::vector<Case> cases = {
      // Found ahead: taken as it is (a listing made up here, to tell).
      {R"({"id": "t1")" + tail, {"t1", Listing{1, 9}}, "h100-pool", 0},
      {R"({"id": "t1")" + tail, {"t1", std::nullopt}, "", 0},
      // Another ID, or none found ahead: looked up as read.
      {R"({"id": "t1")" + tail, {"t2", Listing{1, 9}}, "dev-4gpu", 2},
      {R"({"id": "t1")" + tail, {"", std::nullopt}, "dev-4gpu", 2},
      {R"({"id": "t2", "id": "t1")" + tail, {"t2", Listing{0, 1}}, "dev-4gpu", 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text + " ahead: " + std::string(c.ahead.id));
    std::string padded = c.text + std::string(simdjson::SIMDJSON_PADDING, ' ');
    JobEntry entry;
    const char* at = nullptr;
    bool not_object = false;
    ASSERT_EQ(parser.Read({std::string_view(padded.data(), c.text.size()), padded.size(), true}, &entry, &at,
                          &not_object, &c.ahead),
              simdjson::SUCCESS);
    EXPECT_EQ(entry.listed_in ? std::string(*entry.listed_in) : "", c.listed_in);
    EXPECT_EQ(entry.queue_rank, c.rank);
  }
}

}  // namespace
}  // namespace rescfg::clearml
