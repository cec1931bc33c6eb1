/// The companions of a ClearML snapshot: the queues file (IDs, names, the
/// order of waiting tasks) and the workers file (who runs what, from where).

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "clearml/queues.h"
#include "clearml/workers.h"

namespace rescfg::clearml {
namespace {

TEST(ClearmlQueues, ResponseAndArray) {
  const std::string queues = R"([
    {"id": "q1", "name": "dev-4gpu", "display_name": null, "tags": [], "metadata": {"k": {"key": "k", "type": "str", "value": "v"}},
     "entries": [{"task": "t2", "added": "2026-11-29T09:00:00.000000+00:00"}, {"task": {"id": "t1", "name": "x"}}]},
    {"id": "q\u0032", "name": "h100-pool", "entries": null},
    {"id": "q3", "name": "empty"}
  ])";
  for (const std::string& text : {queues, R"({"meta": {"result_code": 200}, "data": {"queues": )" + queues + "}}"}) {
    QueueList list = ReadQueuesText(text, "queues.json");
    ASSERT_FALSE(list.unusable) << (list.findings.empty() ? "" : list.findings[0].message);
    ASSERT_EQ(list.queues.size(), 3u);
    ASSERT_NE(list.FindById("q2"), nullptr);
    EXPECT_EQ(list.FindById("q2")->name, "h100-pool");
    ASSERT_NE(list.FindByName("dev-4gpu"), nullptr);
    EXPECT_EQ(list.FindByName("dev-4gpu")->id, "q1");
    EXPECT_EQ(list.FindById("dev-4gpu"), nullptr);
    EXPECT_EQ(list.FindByName("nope"), nullptr);
    ASSERT_TRUE(list.ListingOf("t1"));
    EXPECT_EQ(list.ListingOf("t1")->queue, 0u);
    EXPECT_EQ(list.ListingOf("t1")->position, 2u);
    EXPECT_EQ(list.ListingOf("t2")->position, 1u);
    EXPECT_FALSE(list.ListingOf("t3"));
  }
}

TEST(ClearmlQueues, ATaskListedTwiceKeepsItsFirstPlace) {
  QueueList list = ReadQueuesText(R"([{"id": "a", "name": "A", "entries": [{"task": "t"}, {"task": "u"}, {"task": "t"}]},
                                      {"id": "b", "name": "B", "entries": [{"task": "u"}]}])",
                                  "queues.json");
  ASSERT_FALSE(list.unusable);
  EXPECT_EQ(list.ListingOf("t")->position, 1u);
  EXPECT_EQ(list.ListingOf("u")->queue, 0u);
  EXPECT_EQ(list.ListingOf("u")->position, 2u);
}

/// A task listed in several queues, or twice in one, keeps its first
/// listing in file order, whether the index is built at once, later, on one
/// thread (few entries) or on two (many), and both halves of the hash space
/// answer.
TEST(ClearmlQueues, TheListingIndexKeepsEachTaskFirstListingOnOneThreadOrTwo) {
  for (const size_t entries : {size_t(40), size_t(100000)}) {
    SCOPED_TRACE(entries);
    std::string text = "[";
    std::unordered_map<std::string, Listing> first;
    uint32_t queues = 3, position[3] = {0, 0, 0};
    for (uint32_t q = 0; q < queues; ++q) {
      text += std::string(q ? "," : "") + "{\"id\": \"q" + std::to_string(q) + "\", \"name\": \"Q" +
              std::to_string(q) + "\", \"entries\": [";
      for (size_t i = q; i < entries; i += queues) {
        // Every fifth entry lists again a task listed before (in this queue or another).
        const size_t task = i % 5 == 4 ? (i * 7919) % i : i;
        const std::string id = "t" + std::to_string(task);
        text += std::string(position[q] ? "," : "") + "{\"task\": \"" + id + "\"}";
        first.try_emplace(id, Listing{q, ++position[q]});
      }
      text += "]}";
    }
    text += "]";
    // Each queue's entries were added to `first` queue by queue: the file order.
    QueueList now = ReadQueuesText(text, "queues.json");
    QueueList later = ReadQueuesText(Pad(std::string(text)), "queues.json", false);
    later.IndexListings();
    later.IndexListings();  // once is enough
    size_t hashed_high = 0;
    for (const auto& [id, listing] : first) {
      hashed_high += HashText(id) >> 63;
      for (const QueueList* list : {&now, &later}) {
        const auto found = list->ListingOf(id);
        ASSERT_TRUE(found) << id;
        EXPECT_EQ(found->queue, listing.queue) << id;
        EXPECT_EQ(found->position, listing.position) << id;
      }
    }
    EXPECT_GT(hashed_high, 0u);
    EXPECT_LT(hashed_high, first.size());
    EXPECT_FALSE(now.ListingOf("t-none"));
    EXPECT_FALSE(later.ListingOf("t-none"));
  }
}

/// Entries as ClearML writes them, `{"task": "<ID>", "added": "<time>"}`,
/// are read off their text; written any other way, by the parser. Mixed at
/// random in one file, every task is found at its first listing either way.
RC_GTEST_PROP(ClearmlQueues, EntriesAsClearmlWritesThemAreReadAsAnyOther, ()) {
  const auto forms = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 8));
  const auto tasks = *rc::gen::container<std::vector<int>>(forms.size(), rc::gen::inRange(0, 12));
  const auto split = *rc::gen::inRange<size_t>(0, forms.size() + 1);
  std::unordered_map<std::string, Listing> first;
  std::string text = "[";
  uint32_t position[2] = {0, 0};
  for (size_t i = 0; i < forms.size(); ++i) {
    const uint32_t queue = i < split || split == 0 ? 0 : 1;  // the queues' places in the file
    if (i == 0 || i == split) {
      text += std::string(i == 0 ? "" : "]}, ") + "{\"id\": \"q" + std::to_string(queue) + "\", \"name\": \"Q" +
              std::to_string(queue) + "\", \"entries\": [";
    } else {
      text += ", ";
    }
    const std::string id = "7fee3b89592d13a88e54a4f1ad1dbe" + std::to_string(10 + tasks[i]);
    const std::string added = "2026-11-29T00:00:22.000000+00:00";
    switch (forms[i]) {
      case 0: text += "{\"task\": \"" + id + "\", \"added\": \"" + added + "\"}"; break;
      case 1: text += "{\"task\":\"" + id + "\",\"added\":\"" + added + "\"}"; break;
      case 2: text += "{\"added\": \"" + added + "\", \"task\": \"" + id + "\"}"; break;
      case 3: text += "{\"task\": {\"id\": \"" + id + "\", \"name\": \"n\"}, \"added\": \"" + added + "\"}"; break;
      case 4: text += "{\"task\": \"" + id + "\"}"; break;
      case 5: text += "{\"task\": \"" + id + "\", \"added\": \"a \\\"quoted\\\" time\"}"; break;
      case 6: text += "{\"task\": \"" + id + "\", \"added\": \"\"}"; break;
      default: text += "{\"task\": \"" + id.substr(0, 30) + "\\u0031" + id.substr(31) + "\", \"added\": \"" + added + "\"}"; break;
    }
    const std::string task = forms[i] == 7 ? id.substr(0, 30) + "1" + id.substr(31) : id;
    first.try_emplace(task, Listing{queue, ++position[queue]});
  }
  text += forms.empty() ? "]" : "]}]";
  const QueueList list = ReadQueuesText(text, "queues.json");
  RC_ASSERT(!list.unusable);
  for (const auto& [id, listing] : first) {
    const auto found = list.ListingOf(id);
    RC_ASSERT(found.has_value());
    RC_ASSERT(found->queue == listing.queue);
    RC_ASSERT(found->position == listing.position);
  }
  RC_ASSERT(list.queues.size() == (forms.empty() ? 0u : split == 0 || split == forms.size() ? 1u : 2u));
}

/// What follows an entry written as ClearML writes them is checked as
/// after any other: an entry read off its text is not taken on trust.
TEST(ClearmlQueues, WhatFollowsAnEntryReadOffItsTextIsChecked) {
  const std::string head = R"([{"id": "a", "name": "A", "entries": [)";
  for (const std::string& rest : {std::string("}]}]"), std::string(" {\"task\": \"t2\"}]}]"), std::string(", ]}]"),
                                  std::string(""), std::string("]}"), std::string(":]}]")}) {
    SCOPED_TRACE(rest);
    // The same entry written so that the parser reads it says the same.
    const QueueList list = ReadQueuesText(head + R"({"task": "t1", "added": "x"})" + rest, "queues.json");
    const QueueList parsed = ReadQueuesText(head + R"({"task":  "t1", "added": "x"})" + rest, "queues.json");
    EXPECT_TRUE(list.unusable);
    ASSERT_EQ(list.findings.size(), 1u);
    ASSERT_EQ(parsed.findings.size(), 1u);
    EXPECT_EQ(list.findings[0].code, parsed.findings[0].code);
    EXPECT_EQ(list.findings[0].message, parsed.findings[0].message);
    EXPECT_EQ(list.findings[0].mark.line, parsed.findings[0].mark.line);
  }
  // Entries that start as ClearML writes them and go wrong later; a
  // control character in a string, stage 1's to find whoever reads the entry.
  for (const std::string& written :
       {std::string(R"({"task": "t1", "added": "x" "y"})"), std::string(R"({"task": "t1", "added": "x", })"),
        std::string(R"({"task": "t1", "added": "x": 1})"), std::string(R"({"task": "t1", "added": "x"])"),
        std::string(R"({"task": "t1", "added": "a)") + "\t" + "b\"}",
        std::string(R"({"added": "a)") + "\t" + R"(b", "task": "t1"})"}) {
    SCOPED_TRACE(written);
    const QueueList list = ReadQueuesText(head + written + "]}]", "queues.json");
    EXPECT_TRUE(list.unusable);
    ASSERT_EQ(list.findings.size(), 1u);
  }
}

struct BadFile {
  const char* what;
  const char* text;
  const char* code;
  int line, column;
  const char* message;
};

TEST(ClearmlQueues, FilesThatAreNotQueues) {
  const BadFile cases[] = {
      {"not JSON", "queues:\n  - a\n", "json-syntax", 1, 0, "not valid JSON"},
      {"truncated", "[{\"id\": \"a\", \"name\": \"A\"},\n {\"id\": \"b\"", "json-syntax", 1, 1, "not valid JSON"},
      {"a scalar", "42", "bad-shape", 1, 1, "expected a queues.get_all response"},
      {"no data.queues", R"({"meta": {}, "data": {"tasks": []}})", "bad-shape", 1, 1, "no data.queues"},
      {"data.queues not a list", R"({"data": {"queues": {}}})", "bad-shape", 1, 21, "must be a list"},
      {"a queue that is not an object", R"([{"id": "a", "name": "A"}, "b"])", "bad-shape", 1, 28, "not an object"},
      {"a queue without an id", "[\n  {\"name\": \"A\"}]", "bad-shape", 2, 3, "a queue has no id"},
      {"a queue id that is a number", R"([{"id": 5, "name": "A"}])", "bad-shape", 1, 9, "queue id must be a string"},
      {"a queue without a name", R"([{"id": "a"}])", "bad-shape", 1, 2, "queue a has no name"},
      {"entries not a list", R"([{"id": "a", "name": "A", "entries": {"task": "t"}}])", "bad-shape", 1, 38,
       "entries must be a list"},
      {"an entry that is not an object", R"([{"id": "a", "name": "A", "entries": ["t"]}])", "bad-shape", 1, 39,
       "must be an object"},
      {"an entry without a task", R"([{"id": "a", "name": "A", "entries": [{"added": "x"}]}])", "bad-shape", 1, 39,
       "has no task ID"},
      {"an entry with a task of the wrong type", R"([{"id": "a", "name": "A", "entries": [{"task": 5}]}])", "bad-shape",
       1, 39, "entries[].task must be an ID"},
      {"two queues with one ID", "[{\"id\": \"a\", \"name\": \"A\"},\n {\"id\": \"a\", \"name\": \"B\"}]",
       "duplicate-queue", 2, 2, "queue ID a is listed twice"},
      {"two queues with one name", "[{\"id\": \"a\", \"name\": \"A\"}, {\"id\": \"b\", \"name\": \"A\"}]",
       "duplicate-queue", 1, 28, "two queues are named 'A' (IDs a and b)"},
      {"an error response", R"({"meta": {"result_code": 403, "result_msg": "Forbidden"}, "data": {}})", "error-response",
       1, 1, "result_code 403 (Forbidden)"},
      {"text after the array", "[] []", "json-syntax", 1, 0, "not valid JSON"},
  };
  for (const BadFile& c : cases) {
    SCOPED_TRACE(c.what);
    QueueList list = ReadQueuesText(c.text, "queues.json");
    EXPECT_TRUE(list.unusable);
    ASSERT_EQ(list.findings.size(), 1u);
    EXPECT_EQ(list.findings[0].code, c.code);
    EXPECT_EQ(list.findings[0].file, "queues.json");
    EXPECT_NE(list.findings[0].message.find(c.message), std::string::npos) << list.findings[0].message;
    EXPECT_EQ(list.findings[0].mark.line, c.line);
    if (c.column > 0) {
      EXPECT_EQ(list.findings[0].mark.column, c.column);
    }
  }
}

TEST(ClearmlQueues, UnreadableFile) {
  QueueList list = ReadQueuesFile("/nonexistent/queues.json");
  EXPECT_TRUE(list.unusable);
  ASSERT_EQ(list.findings.size(), 1u);
  EXPECT_EQ(list.findings[0].code, "unreadable");
}

TEST(ClearmlWorkers, ResponseAndArray) {
  const std::string workers = R"([
    {"id": "gpu-node-3:gpu0", "user": {"id": "u"}, "ip": "10.0.0.3", "register_time": "2026-11-29T08:00:00+00:00",
     "task": {"id": "t1", "name": "train", "running_time": 100, "last_iteration": 7},
     "queue": {"id": "q1", "name": "h100-4gpu"}, "queues": [{"id": "q1", "name": "h100-4gpu", "num_tasks": 2}, "q2"],
     "tags": []},
    {"id": "idle", "task": null, "queue": null, "queues": null},
    {"task": "t2", "queue": "q9"}
  ])";
  for (const std::string& text : {workers, R"({"meta": {}, "data": {"workers": )" + workers + "}}"}) {
    WorkerList list = ReadWorkersText(text, "workers.json");
    ASSERT_FALSE(list.unusable) << (list.findings.empty() ? "" : list.findings[0].message);
    ASSERT_EQ(list.workers.size(), 3u);
    const Worker* w = list.RunningTask("t1");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->id, "gpu-node-3:gpu0");
    EXPECT_EQ(w->queue.name, "h100-4gpu");
    ASSERT_EQ(w->queues.size(), 2u);
    EXPECT_EQ(w->queues[1].id, "q2");
    EXPECT_EQ(w->queues[1].name, "");
    ASSERT_NE(list.RunningTask("t2"), nullptr);
    EXPECT_EQ(list.RunningTask("t2")->queue.id, "q9");
    EXPECT_EQ(list.RunningTask("t3"), nullptr);
  }
}

TEST(ClearmlWorkers, FilesThatAreNotWorkers) {
  const BadFile cases[] = {
      {"not JSON", "{workers}", "json-syntax", 1, 0, "not valid JSON"},
      {"no data.workers", R"({"data": {"queues": []}})", "bad-shape", 1, 1, "no data.workers"},
      {"a worker that is not an object", R"([1])", "bad-shape", 1, 2, "not an object"},
      {"an id that is not a string", R"([{"id": 1}])", "bad-shape", 1, 9, "worker id must be a string"},
      {"a task of the wrong type", R"([{"id": "w", "task": 5}])", "bad-shape", 1, 22, "worker w: worker task must be"},
      {"a queue reference without id or name", R"([{"id": "w", "queue": {"num_tasks": 1}}])", "bad-shape", 1, 23,
       "worker queue has neither an id nor a name"},
      {"queues not a list", R"([{"id": "w", "queues": "q1"}])", "bad-shape", 1, 24, "must be a list"},
      {"a queues item of the wrong type", R"([{"id": "w", "queues": [true]}])", "bad-shape", 1, 24,
       "worker queues[] must be an ID"},
      {"an error response", R"({"meta": {"result_code": 500}})", "error-response", 1, 1, "result_code 500"},
  };
  for (const BadFile& c : cases) {
    SCOPED_TRACE(c.what);
    WorkerList list = ReadWorkersText(c.text, "workers.json");
    EXPECT_TRUE(list.unusable);
    ASSERT_EQ(list.findings.size(), 1u);
    EXPECT_EQ(list.findings[0].code, c.code);
    EXPECT_NE(list.findings[0].message.find(c.message), std::string::npos) << list.findings[0].message;
    EXPECT_EQ(list.findings[0].mark.line, c.line);
    if (c.column > 0) {
      EXPECT_EQ(list.findings[0].mark.column, c.column);
    }
  }
}

}  // namespace
}  // namespace rescfg::clearml
