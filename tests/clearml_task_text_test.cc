/// Tasks read off their text (ReadTaskText) against the parser: every task
/// the text reader takes, the parser reads to the same entry; whatever it is
/// not sure of, it leaves to the parser.

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "clearml/task_parser.h"
#include "clearml/task_text.h"
#include "jobs/params.h"

namespace rescfg::clearml {
namespace {

const char* kQueues = R"([
  {"id": "q-dev", "name": "dev-4gpu", "entries": [{"task": "t2"}, {"task": "t1"}]},
  {"id": "q-pool", "name": "h100-pool", "entries": [{"task": "t3"}]}
])";
const char* kWorkers = R"([
  {"id": "gpu-node-1:0", "task": {"id": "t1"}, "queue": {"id": "q-pool", "name": "h100-pool"}},
  {"id": "w2", "task": {"id": "t4"}, "queue": "q-dev"}
])";

struct Fixture {
  QueueList queues = ReadQueuesText(kQueues, "queues.json");
  WorkerList workers = ReadWorkersText(kWorkers, "workers.json");
  ParamQuery query{std::vector<std::string>{"runtime.gpus_request", "hyperparams.Args.epochs", "configuration.cfg"}};
  LoadedJobs out;
};

std::string Text(TextRef t) { return t ? "'" + std::string(*t) + "'" : "-"; }

/// Everything a task's entry holds.
std::string Describe(const JobEntry& e) {
  std::string s = "invalid=" + e.invalid + " id=" + Text(e.id) + " name=" + Text(e.name) + " state=" + Text(e.state) +
                  " queue=" + Text(e.queue) + " from_id=" + std::to_string(e.queue_from_id) +
                  " key=" + std::to_string(e.queue_key) + " enqueued=" + Text(e.enqueued) +
                  " mistyped=" + std::to_string(e.enqueued_mistyped) + " started=" + Text(e.started) +
                  " stopping=" + Text(e.stopping) + " listed_in=" + Text(e.listed_in) +
                  " rank=" + std::to_string(e.queue_rank) + " worker=" + (e.worker ? Text(e.worker->id) : "-") +
                  " node=" + Text(e.node) + " clearml=" + std::to_string(e.clearml_task) + " params=";
  for (const ParamValue& p : e.params) s += Text(p.path) + ":" + Text(p.text) + (p.near_miss ? "~" : "") + ";";
  return s;
}

struct Read {
  simdjson::error_code error;
  bool not_object;
  std::string entry;
};

/// Reads `texts` in turn with one parser (what one task leaves must not
/// reach the next), after looking their listings up ahead.
std::vector<Read> ReadAll(Fixture& f, const std::vector<std::string>& texts, bool text_first, bool in_place) {
  const Lookups lookups(Companions{&f.queues, &f.workers, nullptr}, &f.out);
  TaskParser parser(f.query, lookups, &JobsArena(&f.out));
  parser.set_text_first(text_first);
  std::vector<std::string_view> views(texts.begin(), texts.end());
  std::vector<ListingAhead> ahead(texts.size());
  parser.LookAhead(views.data(), views.size(), ahead.data());
  std::vector<Read> reads;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string padded = texts[i] + std::string(simdjson::SIMDJSON_PADDING, ' ');
    JobEntry entry;
    const char* at = nullptr;
    bool not_object = false;
    const auto error = parser.Read({std::string_view(padded.data(), texts[i].size()), padded.size(), in_place}, &entry,
                                   &at, &not_object, &ahead[i]);
    reads.push_back({error, not_object, error ? "" : Describe(entry)});
  }
  return reads;
}

/// A member of a task, written one of several ways: most as a server
/// writes them, some that the parser reads otherwise, some that are wrong.
std::string Member(int which, int how) {
  static const std::vector<std::vector<std::string>> members = {
      {R"("id": "t1")", R"("id": "t2")", R"("id": "t3")", R"("id": "t4")", R"("id": "t5")", R"("id": null)",
       R"("id": 5)", R"("id": "t\u0031")", R"("id": "")"},
      {R"("name": "job-0000001")", R"("name": "tâche")", R"("name": 3)", R"("name": null)", "\"name\": \"a\tb\"",
       R"("name": "a\"b")", "\"name\": \"\xC3\""},
      {R"("status": "queued")", R"("status": "in_progress")", R"("status": "stopped")", R"("status": null)",
       R"("status": 1)", R"("status": "queu\u0065d")", R"("status": "queued" )"},
      {R"("status_changed": "2026-11-29T11:25:17.000000+00:00")", R"("status_changed": null)",
       R"("status_changed": 5)", R"("status_changed": {})", R"("status_changed": "")"},
      {R"("started": "2026-11-29T10:00:00.000000+00:00")", R"("started": null)", R"("started": true)"},
      {R"("status_message": "stopping")", R"("status_message": "x")", R"("status_message": null)",
       R"("status_message": [])"},
      {R"("execution": {"queue": "q-dev"})", R"("execution": {"queue": "q-pool"})", R"("execution": {"queue": "q-else"})",
       R"("execution": {"queue": null})", R"("execution": {"queue": {"id": "q-dev", "name": "dev-4gpu"}})",
       R"("execution": {})", R"("execution": {"queue": "q-dev", "queue": "q-pool"})",
       R"("execution": {"artifacts": [1, {"a": null}], "queue": "q-pool", "model": "m"})", R"("execution": null)",
       R"("execution": "q-dev")", R"("execution": {"queue": "q-dev",})", R"("execution": {"queue": "q\u002ddev"})",
       R"("execution": {"queue": "q-dev"}, "execution": {"queue": "q-pool"})"},
      {R"("hyperparams": {"Args": {"epochs": {"section": "Args", "name": "epochs", "value": "90", "type": "int"}}})",
       R"("hyperparams": {"Args": {"epoch": {"value": "90"}}})", R"("hyperparams": {"Args": {"epochs": [1, 2]}})",
       R"("hyperparams": {})", R"("hyperparams": [])", R"("hyperparams": null)",
       R"("hyperparams": {"Args": {"epochs": {"value": 90e1}}})", R"("hyperparams": {"Ar\u0067s": {"epochs": 1}})",
       R"("hyperparams": {"Args": {"epochs": {"value": "9"}}, "Args": {}})", R"("hyperparams": {"Args.epochs": 4})",
       R"("hyperparams": {"Args": {"epochs": {"value": "x\ny"}}})", R"("hyperparams": {"Other": {"k": {"v": [true, false, null]}}})"},
      {R"("runtime": {"gpus_request": 0.5})", R"("runtime": {"gpus_request": "2"})", R"("runtime": {"gpus_request": null})",
       R"("runtime": {"gpus_request": true})", R"("runtime": {"gpus_request": 1, "gpus_request": 2})",
       R"("runtime": {"gpu_request": 1})", R"("runtime": {"gpus_request": 01})", R"("runtime": {"gpus_request": -})",
       R"("runtime": {})", R"("runtime": {"gpus_request": {"value": 3}})", R"("runtime": {"gpus_request": -1.5e+3})",
       R"("runtime": {"gpus_request": [4]})", R"("runtime": {"gpus_request": nul})",
       R"("runtime": {"gpus_request": "1", "gpus_request": "2"})", R"("runtime": {"gpus_request": [], "gpus_request": {}})"},
      {R"("configuration": {"cfg": {"value": "x"}})", R"("configuration": {})", R"("configuration": {"cfg": "y"})"},
      {R"("project": "p")", R"("tags": ["a", "b"])", R"("script": {"diff": "line1\nline2"})", R"("x": [[[[]]]])",
       R"("last_update": 12.5)", R"("y": nul)", R"("z": tru)", R"("w": {"a": 1 "b": 2})", R"("u": {"a": 1,})",
       R"("v": "\u00e9")", R"("k\"ey": 1)", R"("big": 1e400)", R"("neg": -0)", R"("o": {"": ""})"},
  };
  const auto& ways = members[static_cast<size_t>(which) % members.size()];
  return ways[static_cast<size_t>(how) % ways.size()];
}

/// A task object of members in any order, mostly written as a server writes
/// them, now and then otherwise, and now and then with a byte changed.
rc::Gen<std::string> TaskTexts() {
  return rc::gen::exec([] {
    const auto members = *rc::gen::container<std::vector<std::pair<int, int>>>(
        rc::gen::pair(rc::gen::inRange(0, 11), rc::gen::weightedOneOf<int>({{6, rc::gen::just(0)},
                                                                           {4, rc::gen::inRange(0, 14)}})));
    static const std::vector<std::string> separators = {", ", ", ", ", ", ",", " , ", "\n, ", ",  "};
    static const std::vector<std::string> opens = {"{", "{", "{", " {", "{ ", "\t{", "["};
    static const std::vector<std::string> closes = {"}", "}", "}", "} ", "}x", "", "}}", "}\n", " }"};
    std::string text = opens[*rc::gen::weightedOneOf<size_t>({{8, rc::gen::just<size_t>(0)},
                                                              {2, rc::gen::inRange<size_t>(0, opens.size())}})];
    for (size_t i = 0; i < members.size(); ++i) {
      if (i > 0) {
        text += separators[*rc::gen::weightedOneOf<size_t>({{8, rc::gen::just<size_t>(0)},
                                                            {2, rc::gen::inRange<size_t>(0, separators.size())}})];
      }
      text += Member(members[i].first, members[i].second);
    }
    text += closes[*rc::gen::weightedOneOf<size_t>({{8, rc::gen::just<size_t>(0)},
                                                    {2, rc::gen::inRange<size_t>(0, closes.size())}})];
    if (*rc::gen::inRange(0, 10) == 0 && !text.empty()) {  // one byte changed
      static const std::string bytes = "\"{}[],: \\\taz0\xC3\x80\xFF";
      const size_t at = *rc::gen::inRange<size_t>(0, text.size());
      const char byte = bytes[*rc::gen::inRange<size_t>(0, bytes.size())];
      switch (*rc::gen::inRange(0, 3)) {
        case 0: text[at] = byte; break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte); break;
        default: text.erase(at, 1); break;
      }
    }
    return text;
  });
}

RC_GTEST_PROP(ClearmlTaskText, EveryTaskItTakesTheParserReadsToTheSameEntry, ()) {
  const auto texts = *rc::gen::container<std::vector<std::string>>(TaskTexts());
  const bool in_place = *rc::gen::arbitrary<bool>();
  Fixture f;
  RC_PRE(!f.queues.unusable && !f.workers.unusable);
  size_t taken = 0;
  for (const std::string& text : texts) {
    ParamCapture capture(f.query);
    TaskText fields;
    taken += ReadTaskText(text, f.query, capture, &fields);
  }
  RC_CLASSIFY(taken > 0, "some taken off their text");
  RC_CLASSIFY(taken < texts.size(), "some left to the parser");
  const std::vector<Read> first = ReadAll(f, texts, true, in_place);
  const std::vector<Read> parsed = ReadAll(f, texts, false, in_place);
  for (size_t i = 0; i < texts.size(); ++i) {
    RC_LOG() << texts[i] << "\n";
    RC_ASSERT(first[i].error == parsed[i].error);
    RC_ASSERT(first[i].not_object == parsed[i].not_object);
    RC_ASSERT(first[i].entry == parsed[i].entry);
  }
}

/// The forms a server writes are taken; what the parser must judge is not.
TEST(ClearmlTaskText, TakesTheServersFormAndLeavesTheRest) {
  Fixture f;
  struct Case {
    std::string text;
    bool taken;
  };
  const std::string server =
      R"({"id": "7fee3b89592d13a88e54a4f1ad1dbe64", "name": "job-0000000", "status": "queued", )"
      R"("status_changed": "2026-11-29T11:25:17.000000+00:00", "execution": {"queue": "0ca7f123bcb21de27c32e7f38a4f516a"}, )"
      R"("hyperparams": {"Args": {"epochs": {"section": "Args", "name": "epochs", "value": "90", "type": "int", )"
      R"("description": ""}}}, "configuration": {}, "runtime": {"gpus_request": 0.5}})";
  const std::vector<Case> cases = {
      {server, true},
      {R"({"id":"t1","status":"queued"})", true},
      {R"({})", true},
      {R"(  {"id": "t1"}  )", true},
      {R"({"id": "t1", "name": "tâche"})", true},
      {R"({"id": "t1", "id": "t2"})", false},                      // given twice: the parser says so
      {R"({"id": "t\u0031"})", false},                             // an escape
      {"{\"id\": \"t1\"}\n", false},                                // a control character, even a blank one
      {"{\"id\": \"t1\xC3\"}", false},                              // not UTF-8
      {R"({"id": "t1",})", false},
      {R"({"id": "t1"} x)", false},
      {R"({"id": "t1")", false},
      {R"([{"id": "t1"}])", false},
      {R"({"status": 1})", false},
      {R"({"execution": {"queue": {"id": "q-dev"}}})", false},     // an {id, name} reference
      {R"({"runtime": {"gpus_request": 1, "gpus_request": 2}})", false},
      {R"({"runtime": {"gpus_request": 01}})", false},
      {R"({"project": {"a": "\n"}})", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    ParamCapture capture(f.query);
    TaskText fields;
    EXPECT_EQ(ReadTaskText(c.text, f.query, capture, &fields), c.taken);
  }
  ParamCapture capture(f.query);
  TaskText fields;
  ASSERT_TRUE(ReadTaskText(server, f.query, capture, &fields));
  EXPECT_EQ(fields.Get(TaskText::kId), "7fee3b89592d13a88e54a4f1ad1dbe64");
  EXPECT_EQ(fields.Get(TaskText::kName), "job-0000000");
  EXPECT_EQ(fields.Get(TaskText::kStatus), "queued");
  EXPECT_EQ(fields.Get(TaskText::kStatusChanged), "2026-11-29T11:25:17.000000+00:00");
  EXPECT_EQ(fields.Get(TaskText::kQueue), "0ca7f123bcb21de27c32e7f38a4f516a");
  EXPECT_FALSE(fields.Get(TaskText::kStarted));
  std::vector<ParamValue> params;
  TextArena arena;
  capture.Collect(&params, &arena);
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(Text(params[0].text), "'0.5'");
  EXPECT_EQ(Text(params[1].text), "'90'");
}

}  // namespace
}  // namespace rescfg::clearml
