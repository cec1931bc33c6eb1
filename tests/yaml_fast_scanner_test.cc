/// The fast YAML scanner against yaml-cpp: for every input, reading a jobs
/// file with the fast path allowed gives exactly what yaml-cpp alone gives
/// (entries field by field with marks, findings, unusable), and whenever the
/// scanner accepts a text its event stream equals yaml-cpp's event by event.

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "jobs/params.h"
#include "jobs/yaml_jobs.h"
#include "support/test_paths.h"
#include "util/yaml_fast_scanner.h"
#include "util/yaml_input.h"

namespace rescfg {
namespace {

const std::vector<std::string> kParamPaths = {"runtime.gpus_request", "hyperparams.Args.cost",
                                              "hyperparams.Args.lr.max", "configuration.test"};

std::string Show(const Mark& m) { return std::to_string(m.line) + ":" + std::to_string(m.column); }

std::string Describe(const Event& ev) {
  static const char* kNames[] = {"null", "scalar", "seq", "seq-end", "map", "map-end", "alias", "opaque", "bad-alias"};
  std::string s = kNames[static_cast<int>(ev.type)];
  if (ev.type != Ev::kSeqEnd && ev.type != Ev::kMapEnd) s += " " + Show(ev.mark);
  if (ev.type == Ev::kScalar) s += " [" + std::string(ev.text) + "]";
  return s;
}

class Recorder final : public YamlEventSink {
 public:
  void Handle(const Event& ev) override { events.push_back(Describe(ev)); }
  std::vector<std::string> events;
};

/// yaml-cpp's events for the first document, described like Recorder's;
/// "error" when it throws, "more-documents" when a second document follows.
class YamlCppEvents final : public YAML::EventHandler {
 public:
  static std::vector<std::string> Of(const std::string& text) {
    YamlCppEvents handler;
    try {
      std::istringstream in(text);
      YAML::Parser parser(in);
      parser.HandleNextDocument(handler);
      YamlCppEvents rest;
      if (parser.HandleNextDocument(rest)) handler.events.push_back("more-documents");
    } catch (const YAML::Exception& e) {
      handler.events.push_back("error " + e.msg);
    }
    return handler.events;
  }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { Add(Ev::kNull, m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { Add(Ev::kAlias, m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string& value) override {
    Add(Ev::kScalar, m, value);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Add(Ev::kSeqStart, m);
  }
  void OnSequenceEnd() override { Add(Ev::kSeqEnd, {}); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Add(Ev::kMapStart, m);
  }
  void OnMapEnd() override { Add(Ev::kMapEnd, {}); }

  std::vector<std::string> events;

 private:
  void Add(Ev type, const YAML::Mark& m, std::string_view text = {}) {
    events.push_back(Describe(Event(type, {m.line + 1, m.column + 1}, 0, text)));
  }
};

std::string Show(const LoadedJobs& jobs) {
  std::ostringstream os;
  os << "unusable=" << jobs.unusable << "\n";
  for (const auto& f : jobs.findings) {
    os << "finding " << f.code << " " << static_cast<int>(f.severity) << " " << f.file << " " << Show(f.mark)
       << " path=" << f.path << " message=" << f.message << " hint=" << f.hint << "\n";
  }
  auto opt = [](TextRef s) { return s ? "[" + std::string(*s) + "]" : std::string("-"); };
  for (const auto& e : jobs.entries) {
    os << "entry " << e.entry << " " << Show(e.mark) << " invalid=" << e.invalid << " id=" << opt(e.id)
       << " policy=" << opt(e.policy) << " profile=" << opt(e.profile) << " queue=" << opt(e.queue)
       << " state=" << opt(e.state) << " pool=" << opt(e.pool) << " resources=" << opt(e.resources)
       << " enqueued=" << opt(e.enqueued) << " submitted=" << opt(e.submitted) << "/"
       << static_cast<int>(e.submitted_style) << " duration=" << opt(e.duration) << "/"
       << static_cast<int>(e.duration_style);
    for (const auto& p : e.params) os << " param " << p.path << "=" << opt(p.text);
    os << "\n";
  }
  return os.str();
}

std::string Lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += l + "\n";
  return s;
}

/// Reads `text` both ways and compares everything; "" when all agree, else
/// what differs. Sets *fast to whether the fast path read it.
std::string Mismatch(const std::string& text, bool* fast) {
  const ParamQuery query(kParamPaths);
  LoadedJobs with_fast, slow;
  with_fast.file = slow.file = "jobs.yaml";
  *fast = ReadYamlJobsUsing(text, query, &with_fast, YamlReader::kFastWhenPossible);
  if (ReadYamlJobsUsing(text, query, &slow, YamlReader::kYamlCppOnly)) return "kYamlCppOnly used the fast path";
  if (Show(with_fast) != Show(slow)) return "fast:\n" + Show(with_fast) + "yaml-cpp:\n" + Show(slow);

  Mark bad;
  if (!IsValidUtf8(text, &bad) || text.find('\0') != std::string::npos) {
    return *fast ? "fast path on text that is not UTF-8" : "";
  }
  Recorder recorder;
  const bool accepted = ScanPlainYaml(text, &recorder);
  if (accepted != *fast) return "ScanPlainYaml and ReadYamlJobsUsing disagree";
  if (accepted) {
    const std::vector<std::string> expected = YamlCppEvents::Of(text);
    if (recorder.events != expected) {
      return "events, fast:\n" + Lines(recorder.events) + "yaml-cpp:\n" + Lines(expected);
    }
  }
  return "";
}

/// The gtest form: expects agreement, returns whether the fast path read it.
bool ExpectSameBothWays(const std::string& text) {
  bool fast = false;
  EXPECT_EQ(Mismatch(text, &fast), "") << "text:\n" << text;
  return fast;
}

const std::string kHeader = "apiVersion: rescfg/v1\nkind: JobList\n";

/// Inputs the fast path must read itself (the subset), and the same as yaml-cpp.
const std::vector<std::string> kInSubset = {
    // bench/rescfg-gen's layout
    kHeader + "jobs:\n  - id: job-0000000\n    policy: team-0487\n    profile: prof-13-2xGPU\n"
              "    state: running\n    pool: gpu-pool-17\n    resources: 0.898\n"
              "  - id: job-0000002\n    policy: team-0020\n    profile: prof-20-1xGPU-dyn\n"
              "    enqueued: 2026-11-29T23:32:56Z\n    params: {runtime: {gpus_request: 2}}\n",
    // rescfg(5), JOBS FILE example
    "apiVersion: rescfg/v1\nkind: JobList\njobs:\n"
    "  - id: dev-1                  # required, unique in the file\n"
    "    policy: Dev                # required\n"
    "    profile: 4xGPU             # required; the policy must list it\n"
    "    # instead of policy + profile, a job may name its policy queue:  queue: dev-4gpu\n"
    "    state: queued              # queued (default) | running\n"
    "    pool: Bare Metal Low END GPUs   # required when running\n"
    "    resources: 4               # running only, optional: what it holds; default: its need\n"
    "    enqueued: 2026-11-29T10:00:00Z  # optional RFC 3339\n"
    "    params:                    # task parameters, nested or as flat dotted keys\n"
    "      runtime: {gpus_request: 2}\n"
    "      hyperparams: {Args: {cost: \"2\"}}       # a param may also be {value: \"2\", ...}\n"
    "      configuration: {test: \"3\"}\n",
    // indentless sequence, document start, comments, blank lines
    "# jobs\n---\napiVersion: rescfg/v1\n\nkind: JobList\njobs:\n- id: a\n  policy: P\n\n  # note\n- id: b\n",
    kHeader + "jobs:\n",
    kHeader + "jobs: []\n",
    kHeader + "jobs: ~\n",
    kHeader + "jobs:",
    kHeader + "jobs:\n  -\n  - ~\n  - just a string\n  - [a, b]\n  - {}\n  -\n",
    kHeader + "jobs:\n  - {id: ok-1, policy: Dev, profile: 4xGPU}\n  - {id: twice, id: again}\n",
    kHeader + "jobs:\n  - id: x\n    id: y\n    policy:\n    profile: null\n    queue: NULL\n    state: Null\n",
    kHeader + "jobs:\n  - \"id\": 'it''s'\n    'policy': \"a\\\"b\\\\c\\td\\/e\"\n    profile: \"\"\n    queue: ''\n",
    kHeader + "jobs:\n  - id: é ü 日本\n    policy: {ü: 1, ä: [x, y]}\n    profile: 'ü'\n",
    kHeader + "jobs:\n  -   id: wide\n      policy: P\n  -\n    id: below\n    policy: Q\n",
    kHeader + "jobs:\n  - id: a\n    params:\n      runtime:\n        gpus_request: 2\n      \"runtime.gpus_request\": 3\n"
              "      hyperparams: {Args: {lr.max: {value: \"0.5\", type: float}, cost: ~}}\n"
              "      configuration:\n        test: [1, 2]\n",
    kHeader + "jobs:\n  - id: a\n    tags:\n    - x\n    - y\n    owner: me\n",
    kHeader + "jobs:\n  - id: a:b\n    policy: http://x/y#z\n    profile: a -b # comment\n    queue: 'q' # c\n",
    kHeader + "jobs:\n  - id   : spaced\n    \"policy\"  : P   \n",
    kHeader + "extra: 1\njobs:\n  - id: a\nkind: again\n",
    "kind: ResourceConfiguration\njobs:\n",
    "apiVersion: rescfg/v2\nkind: JobList\njobs:\n  - id: a\n",
    kHeader + "jobs:\n  - ~: x\n    null: y\n    <<: z\n    1: 2\n",
    kHeader + "jobs:\n  - id: a\n    params: 5\n  - id: b\n    params: [1]\n  - id: c\n    params: {runtime: 1}\n",
    kHeader + "jobs: {a: 1}\n",
    kHeader + "jobs: text\n",
    kHeader + "jobs:\n  - id: \"\\0\\a\\b\\e\\f\\n\\r\\v\\ \\'\"\n",
    // a null at the end of the input: yaml-cpp's mark depends on the last line
    kHeader + "jobs:\n  - id:\n     profile:\n# c",
    kHeader + "jobs:\n  - id:\n     profile:\n   ",
    kHeader + "jobs:\n  - id: a\n  -\n  -   ",
    kHeader + "jobs:\n  - id: a\n     # deeper comment\n    policy: b\n",
    kHeader + "jobs:\n  - " + std::string(990, 'k') + ": v\n",
};

TEST(YamlFastScanner, ReadsTheSubsetLikeYamlCpp) {
  for (const std::string& text : kInSubset) {
    EXPECT_TRUE(ExpectSameBothWays(text)) << "not read by the fast path:\n" << text;
  }
}

/// Inputs outside the subset (or errors): yaml-cpp reads them, same result.
const std::vector<std::string> kOutside = {
    "",
    "# only a comment\n",
    "---\n",
    kHeader + "jobs:\n  - &a {id: a}\n  - *a\n",
    kHeader + "jobs:\n  - !!map {id: a}\n",
    kHeader + "jobs:\n  - id: |\n      block\n",
    kHeader + "jobs:\n  - id: >\n      folded\n",
    kHeader + "jobs:\n  - id: multi\n      line\n",
    kHeader + "jobs:\n  - id: \"multi\n      line\"\n",
    kHeader + "jobs:\n  - ? id\n    : a\n",
    kHeader + "jobs:\n\t- id: a\n",
    kHeader + "jobs:\n  - id: a\t\n",
    "%YAML 1.2\n---\n" + kHeader,
    kHeader + "jobs:\n---\nkind: JobList\n",
    kHeader + "jobs:\n...\n",
    kHeader + "jobs:\n  - {id: a,\n     policy: b}\n",
    kHeader + "jobs:\n  - id: \"\\x41\\u00e9\\U0001F600\"\n",
    kHeader + "jobs:\n  - id: \"\\N\\_\\L\\P\"\n",
    kHeader + "jobs:\n  - id: \"\\q\"\n",
    kHeader + "jobs:\n  - id: a\n   policy: b\n",
    kHeader + "jobs:\n  - id: a\n     policy: b\n",
    kHeader + "jobs:\n  - - a\n",
    kHeader + "jobs:\n  - id: a: b\n",
    kHeader + "jobs:\n  - id: a\n  policy: b\n",
    kHeader + "jobs:\n  - {id: a}x\n",
    kHeader + "jobs:\n  - {id: a, }\n",
    kHeader + "jobs:\n  - {\"id\":a}\n",
    kHeader + "jobs:\n  - {id:a}\n",
    kHeader + "jobs:\n  - {id: a?b}\n",
    kHeader + "jobs:\n  - [a: b]\n",
    kHeader + "jobs:\n  - \"a\"#c\n",
    kHeader + "jobs:\n  - id: a\r\n",
    "\xEF\xBB\xBF" + kHeader + "jobs:\n",
    kHeader + "jobs:\n  - id: a\x04" "b\n",
    kHeader + "jobs:\n  - @a\n",
    kHeader + "jobs:\n  - `a\n",
    kHeader + "jobs:\n  - " + std::string(1100, 'k') + ": v\n",
    kHeader + "jobs:\n  - " + std::string(1022, 'k') + ": v\n",
    kHeader + "jobs:\n  - " + std::string(1025, 'k') + ": v\n",
    "  apiVersion: rescfg/v1\n  kind: JobList\n",
    "- a\n",
    "just text\n",
    kHeader + "jobs:\n  - id: a\n    params:\n   runtime: 1\n",
    kHeader + "jobs:\n  - id: \"unterminated\n",
    kHeader + "jobs:\n  - id: 'unterminated\n",
    kHeader + "jobs:\n  - id: a\n    -x: 1\n",
    kHeader + "jobs: [" + std::string(100, '[') + std::string(100, ']') + "]\n",
    kHeader + "jobs:\n  - id: a\n#\n  -\n" + "# end\n",
};

TEST(YamlFastScanner, LeavesTheRestToYamlCpp) {
  for (const std::string& text : kOutside) ExpectSameBothWays(text);
}

TEST(YamlFastScanner, TestdataFilesAgree) {
  int fast = 0, files = 0;
  for (const char* dir : {"/testdata/jobs", "/testdata/examples", "/testdata/schedule"}) {
    const std::filesystem::path root = std::string(RESCFG_SOURCE_DIR) + dir;
    if (!std::filesystem::exists(root)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.path().extension() != ".yaml") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      ++files;
      fast += ExpectSameBothWays(text.str());
    }
  }
  EXPECT_GT(files, 0);
  EXPECT_GT(fast, 0);
}

// ---------------------------------------------------------------------------
// Random job-list-like texts.

std::string Pick(const std::vector<std::string>& choices) { return *rc::gen::elementOf(choices); }

std::string Spaces(int lo, int hi) { return std::string(*rc::gen::inRange(lo, hi + 1), ' '); }

std::string Comment() {
  return *rc::gen::weightedElement<std::string>({{6, ""}, {1, " # note"}, {1, "   #x: y"}, {1, " #"}});
}

std::string PlainWord() {
  return Pick({"a", "Dev", "job-1", "4xGPU", "0.5", "-3", "1/7", "2026-11-29T10:00:00Z", "a b", "x:y", "a#b",
               "~", "null", "Null", "NULL", "nul", "true", "é", "日本", "a,b", "[x]", "{y}", "a - b", "q?", "-",
               "--x", ".5", "...", "a\\b", "http://h/p", "a  b", "x\xC2\x85y", "&a", "*a", "!t", "|", ">", "'q",
               "\"q", "%p", "@a", "`a", "? k", ": v", "#c"});
}

std::string Quoted() {
  const bool dq = *rc::gen::arbitrary<bool>();
  std::string body;
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) {
    body += dq ? Pick({"a", " ", "\\\"", "\\\\", "\\n", "\\t", "\\/", "\\0", "\\x41", "\\u00e9", "\\N", "\\q",
                       "'", "#", ": ", "é", "\\ "})
               : Pick({"a", " ", "''", "\\", "\"", "#", ": ", "ü"});
  }
  const std::string q = dq ? "\"" : "'";
  return q + body + q;
}

std::string Scalar() {
  return *rc::gen::weightedElement<int>({{5, 0}, {2, 1}}) == 0 ? PlainWord() : Quoted();
}

std::string FlowNode(int depth);

std::string FlowMap(int depth) {
  std::string s = "{" + Spaces(0, 1);
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) {
    if (i > 0) s += Pick({", ", ",", " , ", ",  "});
    s += Pick({"gpus_request", "runtime", "Args", "cost", "value", "test", "lr.max", "\"runtime.gpus_request\"",
               "'k'", "a b"}) +
         Pick({": ", ":  ", " : "}) + FlowNode(depth + 1);
  }
  return s + Spaces(0, 1) + "}";
}

std::string FlowSeq(int depth) {
  std::string s = "[";
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) s += (i > 0 ? Pick({", ", ","}) : "") + FlowNode(depth + 1);
  return s + "]";
}

std::string FlowNode(int depth) {
  const int kind = depth > 2 ? 0 : *rc::gen::weightedElement<int>({{6, 0}, {2, 1}, {1, 2}});
  if (kind == 1) return FlowMap(depth);
  if (kind == 2) return FlowSeq(depth);
  return Scalar();
}

std::string Key() {
  return *rc::gen::weightedElement<std::string>(
      {{4, "id"}, {3, "policy"}, {3, "profile"}, {1, "queue"}, {2, "state"}, {1, "pool"}, {1, "resources"},
       {2, "enqueued"}, {3, "params"}, {1, "owner"}, {1, "tags"}, {1, "\"id\""}, {1, "'policy'"}, {1, "<<"},
       {1, "a b"}, {1, "x:y"}, {1, "~"}, {1, "-k"}, {1, "id "}, {1, "runtime"}, {1, "hyperparams"},
       {1, "configuration"}, {1, "gpus_request"}, {1, "Args"}, {1, "cost"}, {1, "runtime.gpus_request"},
       {2, "submitted"}, {2, "duration"}});
}

/// A block mapping at `indent`; `first_inline` when its first key follows
/// "- " on the current line.
void BlockMap(std::string* out, int indent, bool first_inline, int depth);

void Value(std::string* out, int indent, int depth) {
  const int kind = depth > 3 ? 0 : *rc::gen::weightedElement<int>({{8, 0}, {2, 1}, {2, 2}, {1, 3}, {1, 4}});
  switch (kind) {
    case 0:  // inline scalar or flow
      *out += " " + Spaces(0, 1) + (*rc::gen::inRange(0, 4) == 0 ? FlowNode(0) : Scalar()) + Spaces(0, 1) +
              Comment() + "\n";
      return;
    case 1:  // nested mapping
      *out += Comment() + "\n";
      BlockMap(out, indent + *rc::gen::inRange(1, 5), false, depth + 1);
      return;
    case 2: {  // block sequence, maybe at the key's column
      *out += Comment() + "\n";
      const int at = indent + *rc::gen::inRange(0, 3);
      const int n = *rc::gen::inRange(1, 4);
      for (int i = 0; i < n; ++i) {
        *out += std::string(at, ' ') + "-";
        if (*rc::gen::inRange(0, 3) == 0) {
          BlockMap(out, at + 2, true, depth + 1);
        } else {
          *out += " " + Scalar() + "\n";
        }
      }
      return;
    }
    case 3:  // empty
      *out += Spaces(0, 2) + Comment() + "\n";
      return;
    default:  // blank and comment lines, then a scalar on the same line
      *out += " " + Scalar() + "\n" + Pick({"\n", "  # c\n", "#c\n", "   \n"});
      return;
  }
}

void BlockMap(std::string* out, int indent, bool first_inline, int depth) {
  const int n = *rc::gen::inRange(1, 5);
  for (int i = 0; i < n; ++i) {
    if (i > 0 || !first_inline) *out += std::string(indent, ' ');
    if (i == 0 && first_inline) *out += " ";
    *out += Key() + ":";
    Value(out, indent, depth);
  }
}

std::string JobList() {
  std::string text;
  text += Pick({"", "", "# jobs\n", "---\n", "# a\n---\n", "\n"});
  std::vector<std::string> top = {"apiVersion: " + Pick({"rescfg/v1", "rescfg/v1 ", "\"rescfg/v1\"", "v2"}) + "\n",
                                  "kind: " + Pick({"JobList", "'JobList'", "JobList # c", "List"}) + "\n"};
  if (*rc::gen::inRange(0, 6) == 0) top.push_back(Pick({"extra: 1\n", "kinds: x\n", "jobs: []\n"}));
  if (*rc::gen::inRange(0, 3) == 0) std::swap(top[0], top[1]);
  for (const auto& t : top) text += t;
  text += "jobs:" + Comment() + "\n";
  const int seq_indent = *rc::gen::elementOf(std::vector<int>{0, 2, 2, 2, 4});
  const int jobs = *rc::gen::inRange(0, 6);
  for (int j = 0; j < jobs; ++j) {
    const std::string dash = std::string(seq_indent, ' ') + "-";
    switch (*rc::gen::weightedElement<int>({{8, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 4}})) {
      case 0:  // "- id: x" and keys below
        text += dash + Spaces(0, 2);
        BlockMap(&text, static_cast<int>(text.size() - text.rfind('\n') - 1) + 1, true, 0);
        break;
      case 1:
        text += dash + " " + FlowMap(0) + Comment() + "\n";
        break;
      case 2:
        text += dash + " " + Scalar() + "\n";
        break;
      case 3:
        text += dash + Comment() + "\n";
        break;
      default:  // "-" then the mapping on the next lines
        text += dash + "\n";
        BlockMap(&text, seq_indent + *rc::gen::inRange(1, 4), false, 0);
        break;
    }
    if (*rc::gen::inRange(0, 6) == 0) text += Pick({"\n", "# c\n", "    # c\n", "  \n"});
  }
  if (*rc::gen::inRange(0, 6) == 0) text.pop_back();  // no final newline
  return text;
}

/// Random damage: characters YAML cares about inserted, bytes deleted,
/// lines re-indented or duplicated.
std::string Corrupt(std::string text) {
  const int n = *rc::gen::inRange(1, 4);
  for (int i = 0; i < n && !text.empty(); ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, text.size());
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        text.insert(at, Pick({":", "-", " ", "#", "'", "\"", "{", "}", "[", "]", ",", "\n", "&", "*", "!", "|",
                              ">", "?", "%", "\t", "\r", "\\", "---\n", "...\n", ": ", "- ", "~", "\xC3\xA9"}));
        break;
      case 1:
        text.erase(at, *rc::gen::inRange<size_t>(1, 4));
        break;
      case 2: {
        const size_t start = text.rfind('\n', at);
        text.insert(start == std::string::npos ? 0 : start + 1, Spaces(1, 3));
        break;
      }
      default: {
        const size_t start = text.rfind('\n', at);
        const size_t b = start == std::string::npos ? 0 : start + 1;
        const size_t e = text.find('\n', at);
        text.insert(b, text.substr(b, e == std::string::npos ? std::string::npos : e - b + 1));
        break;
      }
    }
  }
  return text;  // may cut a UTF-8 sequence: both readers must refuse it alike
}

/// Lines glued from YAML fragments at random indentation: shapes no job
/// list has, to probe the scanner's edges.
std::string FragmentLines() {
  std::string text = *rc::gen::elementOf(std::vector<std::string>{"", kHeader + "jobs:\n"});
  const int lines = *rc::gen::inRange(1, 12);
  for (int l = 0; l < lines; ++l) {
    text += Spaces(0, 6);
    const int pieces = *rc::gen::inRange(1, 5);
    for (int i = 0; i < pieces; ++i) {
      text += Pick({"a", "id", "b c", "~", "null", "1", "-", "- ", "-  ", ":", ": ", "a:", "a: ", "\"q\"", "'q'",
                    "{", "}", "[", "]", ", ", ",", " ", "  ", " #c", "#", "x: {y: 1}", "[1, 2]", "{}", "[]",
                    "é", "?", "&", "\"\\n\"", "---", "..."});
    }
    text += *rc::gen::weightedElement<std::string>({{8, "\n"}, {1, "\n\n"}, {1, ""}});
  }
  return text;
}

RC_GTEST_PROP(YamlFastScanner, FragmentLinesReadTheSameBothWays, ()) {
  const std::string text = FragmentLines();
  bool fast = false;
  const std::string mismatch = Mismatch(text, &fast);
  RC_CLASSIFY(fast, "fast path");
  RC_LOG() << text;
  RC_ASSERT(mismatch == "");
}

RC_GTEST_PROP(YamlFastScanner, RandomJobListsReadTheSameBothWays, ()) {
  const std::string text = JobList();
  bool fast = false;
  const std::string mismatch = Mismatch(text, &fast);
  RC_CLASSIFY(fast, "fast path");
  RC_LOG() << text;
  RC_ASSERT(mismatch == "");
}

RC_GTEST_PROP(YamlFastScanner, CorruptedJobListsReadTheSameBothWays, ()) {
  const std::string text = Corrupt(JobList());
  bool fast = false;
  const std::string mismatch = Mismatch(text, &fast);
  RC_CLASSIFY(fast, "fast path");
  RC_LOG() << text;
  RC_ASSERT(mismatch == "");
}

}  // namespace
}  // namespace rescfg
