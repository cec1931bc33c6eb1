#include "jobs/yaml_jobs.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <istream>
#include <streambuf>
#include <string>
#include <vector>

#include "jobs/job_fields.h"
#include "util/edit_distance.h"
#include "util/yaml_alias_expander.h"
#include "util/yaml_event.h"
#include "util/yaml_fast_scanner.h"
#include "util/yaml_input.h"

namespace rescfg {

namespace {

/// Lets yaml-cpp read a buffer through std::istream without copying it.
class MemoryBuffer : public std::streambuf {
 public:
  explicit MemoryBuffer(std::string_view text) {
    char* p = const_cast<char*>(text.data());  // only ever read
    setg(p, p, p + text.size());
  }
};

/// Builds entries from expanded events: a small state machine with one frame
/// per open mapping or sequence that matters; subtrees that do not matter are
/// skipped by counting their depth.
class JobListBuilder final : public AliasSink {
 public:
  JobListBuilder(const ParamQuery& query, LoadedJobs* out) : query_(query), capture_(query), out_(out) {
    stack_.emplace_back(Frame::kDocument);
  }

  void Handle(const Event& ev) override;
  /// Whether the next node's content is ignored (so an alias there need not be expanded).
  bool Skipping() const override;
  /// Number of job entries begun so far.
  size_t entries_begun() const override { return entries_begun_; }
  /// Final checks of the top-level keys.
  void Finish();

 private:
  enum class Frame : uint8_t { kDocument, kRoot, kJobs, kJob, kParams };
  enum RootKey { kApiVersion, kKind, kJobsKey, kIgnored };
  struct State {
    explicit State(Frame k, int n = -1) : kind(k), node(n) {}
    Frame kind;
    bool want_key = true;
    int node = -1;    ///< kParams: the ParamQuery node of this mapping
    int target = -1;  ///< the key just read: RootKey, JobField or ParamQuery node (-1: ignored)
    std::string key;  ///< the key just read, for messages
  };

  void Node(const Event& ev);
  void RootNode(State& top, const Event& ev);
  void JobNode(State& top, const Event& ev);
  void ParamNode(State& top, const Event& ev);
  void Close();
  /// Skips the node that `ev` starts; the current frame advances when it ends.
  void SkipNode(const Event& ev);
  /// The current frame's key or value is complete.
  void Advance();
  void BeginJob(Mark mark);
  void FinishJob();
  void AddEntryProblem(const std::string& problem) { AddProblem(&job_, problem); }
  void Error(std::string code, Mark mark, std::string path, std::string message, std::string hint = "");
  static std::string Describe(const Event& ev);

  const ParamQuery& query_;
  ParamCapture capture_;
  LoadedJobs* out_;
  std::vector<State> stack_;
  int skip_depth_ = 0;
  size_t entries_begun_ = 0;
  JobEntry job_;
  std::vector<std::string> job_keys_;
  std::vector<std::string_view> key_views_;
  KeyTypos typos_;

  bool root_seen_ = false, root_is_map_ = false, jobs_seen_ = false;
  Mark root_mark_;
  std::vector<std::string> root_keys_;
  std::optional<std::string> api_version_, kind_;
  Mark api_version_mark_, kind_mark_;
};

std::string JobListBuilder::Describe(const Event& ev) {
  switch (ev.type) {
    case Ev::kNull: return "nothing (null)";
    case Ev::kScalar: return "'" + Excerpt(ev.text) + "'";
    case Ev::kSeqStart: return "a list";
    case Ev::kMapStart: return "a mapping";
    default: return "an alias";
  }
}

void JobListBuilder::Error(std::string code, Mark mark, std::string path, std::string message,
                           std::string hint) {
  out_->findings.push_back({std::move(code), Severity::kError, out_->file, mark, std::move(path),
                            std::move(message), std::move(hint)});
}

bool JobListBuilder::Skipping() const {
  if (skip_depth_ > 0) return true;
  const State& top = stack_.back();
  if (top.want_key) return false;
  switch (top.kind) {
    case Frame::kRoot: return top.target == kIgnored;
    case Frame::kJob: return top.target == static_cast<int>(JobField::kOther);
    case Frame::kParams: return top.target < 0;
    default: return false;
  }
}

void JobListBuilder::Handle(const Event& ev) {
  if (skip_depth_ > 0) {
    if (IsStart(ev.type)) {
      ++skip_depth_;
    } else if (IsEnd(ev.type) && --skip_depth_ == 0) {
      Advance();
    }
    return;
  }
  if (IsEnd(ev.type)) {
    Close();
  } else {
    Node(ev);
  }
}

void JobListBuilder::SkipNode(const Event& ev) {
  if (IsStart(ev.type)) {
    skip_depth_ = 1;
  } else {
    Advance();
  }
}

void JobListBuilder::Advance() {
  State& top = stack_.back();
  if (top.kind == Frame::kRoot || top.kind == Frame::kJob || top.kind == Frame::kParams) {
    top.want_key = !top.want_key;
  }
}

void JobListBuilder::Node(const Event& ev) {
  State& top = stack_.back();
  switch (top.kind) {
    case Frame::kDocument:
      root_seen_ = true;
      root_mark_ = ev.mark;
      if (ev.type == Ev::kMapStart) {
        root_is_map_ = true;
        stack_.emplace_back(Frame::kRoot);
        return;
      }
      Error("bad-kind", ev.mark, "",
            ev.type == Ev::kNull
                ? "the file is empty: a jobs file is a mapping with apiVersion: rescfg/v1, "
                  "kind: JobList and jobs"
                : "not a JobList: a jobs file is a mapping with apiVersion: rescfg/v1, kind: "
                  "JobList and jobs, found " + Describe(ev));
      SkipNode(ev);
      return;
    case Frame::kRoot:
      RootNode(top, ev);
      return;
    case Frame::kJobs:
      if (ev.type == Ev::kMapStart) {
        BeginJob(ev.mark);
        stack_.emplace_back(Frame::kJob);
        return;
      }
      BeginJob(ev.mark);
      AddEntryProblem(ev.type == Ev::kBadAlias
                                   ? std::string(ev.text)
                                   : "a job must be a mapping, found " + Describe(ev));
      FinishJob();
      SkipNode(ev);
      return;
    case Frame::kJob:
      JobNode(top, ev);
      return;
    case Frame::kParams:
      ParamNode(top, ev);
      return;
  }
}

void JobListBuilder::RootNode(State& top, const Event& ev) {
  if (top.want_key) {
    top.target = kIgnored;
    if (ev.type != Ev::kScalar) {
      Error("wrong-type", ev.mark, "", "a key must be a plain name, not " + Describe(ev));
      SkipNode(ev);
      return;
    }
    top.key.assign(ev.text);
    static const std::vector<std::string> kKnown = {"apiVersion", "kind", "jobs"};
    if (std::find(root_keys_.begin(), root_keys_.end(), top.key) != root_keys_.end()) {
      Error("duplicate-key", ev.mark, top.key,
            "key '" + top.key + "' appears more than once in this mapping", "keep one of them");
    } else if (auto it = std::find(kKnown.begin(), kKnown.end(), top.key); it != kKnown.end()) {
      top.target = static_cast<int>(it - kKnown.begin());
    } else {
      std::string suggestion = ClosestMatch(top.key, kKnown);
      Error("unknown-key", ev.mark, top.key, "unknown key '" + top.key + "'",
            suggestion.empty() ? "" : "did you mean '" + suggestion + "'?");
    }
    root_keys_.push_back(top.key);
    Advance();
    return;
  }
  switch (top.target) {
    case kApiVersion:
    case kKind: {
      const bool is_kind = top.target == kKind;
      if (ev.type == Ev::kScalar) {
        (is_kind ? kind_ : api_version_).emplace(ev.text);
        (is_kind ? kind_mark_ : api_version_mark_) = ev.mark;
      } else if (ev.type != Ev::kNull) {
        Error(is_kind ? "bad-kind" : "bad-api-version", ev.mark, top.key,
              top.key + " must be a string, found " + Describe(ev));
        // Reported; not missing as well.
        (is_kind ? kind_ : api_version_).emplace(is_kind ? "JobList" : "rescfg/v1");
      }
      SkipNode(ev);
      return;
    }
    case kJobsKey:
      jobs_seen_ = true;
      if (ev.type == Ev::kSeqStart) {
        stack_.emplace_back(Frame::kJobs);
        return;
      }
      if (ev.type != Ev::kNull) {
        Error("wrong-type", ev.mark, "jobs", "jobs must be a list of jobs, found " + Describe(ev));
      }
      SkipNode(ev);
      return;
    default:
      if (ev.type == Ev::kBadAlias) Error("alias-limit", ev.mark, top.key, std::string(ev.text));
      SkipNode(ev);
      return;
  }
}

void JobListBuilder::JobNode(State& top, const Event& ev) {
  if (top.want_key) {
    if (ev.type != Ev::kScalar) {
      AddEntryProblem("a key must be a plain string, not " + Describe(ev));
      top.target = static_cast<int>(JobField::kOther);
      SkipNode(ev);
      return;
    }
    top.key.assign(ev.text);
    job_keys_.push_back(top.key);
    top.target = static_cast<int>(JobFieldOf(top.key));
    if (top.target == static_cast<int>(JobField::kOther)) typos_.Note(top.key, job_.mark.line);
    if (top.key == "<<") AddEntryProblem("merge keys ('<<') are not supported; write the fields out");
    Advance();
    return;
  }
  const auto field = static_cast<JobField>(top.target);
  if (field == JobField::kOther || ev.type == Ev::kNull) {  // null counts as absent
    SkipNode(ev);
    return;
  }
  if (ev.type == Ev::kBadAlias) {
    AddEntryProblem(std::string(ev.text));
  } else if (IsTraceField(field)) {
    if (ev.type == Ev::kScalar) {
      *FieldSlot(&job_, field) = JobsArena(out_).Keep(ev.text);
      *StyleSlot(&job_, field) = ev.quoted ? ScalarStyle::kQuoted : ScalarStyle::kPlain;
    } else {
      *StyleSlot(&job_, field) = ScalarStyle::kNotScalar;
    }
  } else if (field == JobField::kParams && ev.type == Ev::kMapStart) {
    capture_.Set(ParamQuery::kParams, ParamCapture::Kind::kMap);
    if (query_.HasChildren(ParamQuery::kParams)) {
      stack_.emplace_back(Frame::kParams, ParamQuery::kParams);
      return;
    }
  } else if (field != JobField::kParams && ev.type == Ev::kScalar) {
    *FieldSlot(&job_, field) = JobsArena(out_).Keep(ev.text);
  } else if (field == JobField::kEnqueued) {
    job_.enqueued_mistyped = true;  // resolution decides: ignored on a running job
  } else if (field == JobField::kNode) {
    job_.node_mistyped = true;  // resolution decides: only a running job has a node
  } else {
    AddEntryProblem(MistypedFieldMessage(top.key, field, "a mapping"));
  }
  SkipNode(ev);
}

void JobListBuilder::ParamNode(State& top, const Event& ev) {
  if (top.want_key) {
    top.target = ev.type == Ev::kScalar ? query_.Child(top.node, ev.text) : -1;
    if (top.target < 0 && ev.type == Ev::kScalar && query_.HasChildren(top.node)) {
      if (int near = query_.NearMiss(top.node, ev.text); near >= 0) capture_.NoteNearMiss(near, top.node, ev.text);
    }
    if (ev.type == Ev::kScalar) {
      Advance();
    } else {
      SkipNode(ev);
    }
    return;
  }
  const int node = top.target;
  if (node < 0) {
    SkipNode(ev);
    return;
  }
  ParamCapture::Kind kind;
  switch (ev.type) {
    case Ev::kNull: kind = ParamCapture::Kind::kNull; break;
    case Ev::kScalar: kind = ParamCapture::Kind::kScalar; break;
    case Ev::kSeqStart: kind = ParamCapture::Kind::kList; break;
    case Ev::kMapStart: kind = ParamCapture::Kind::kMap; break;
    default:
      AddEntryProblem(std::string(ev.text));
      SkipNode(ev);
      return;
  }
  if (!capture_.Set(node, kind, ev.text)) {
    AddEntryProblem("duplicate key '" + std::string(capture_.KeyOf(node)) + "' in params");
  }
  if (ev.type == Ev::kMapStart && query_.HasChildren(node)) {
    stack_.emplace_back(Frame::kParams, node);
    return;
  }
  SkipNode(ev);
}

void JobListBuilder::Close() {
  if (stack_.size() <= 1) return;  // unbalanced events: the parser reports those
  const Frame kind = stack_.back().kind;
  if (kind == Frame::kJob) FinishJob();
  stack_.pop_back();
  if (kind != Frame::kJob) Advance();
}

void JobListBuilder::BeginJob(Mark mark) {
  job_ = JobEntry{};
  job_.entry = ++entries_begun_;
  job_.mark = mark;
  job_keys_.clear();
  capture_.Reset();
}

void JobListBuilder::FinishJob() {
  key_views_.assign(job_keys_.begin(), job_keys_.end());
  if (auto duplicate = FindDuplicateKey(key_views_)) {
    AddEntryProblem("duplicate key '" + std::string(*duplicate) + "'");
  }
  capture_.Collect(&job_.params, &JobsArena(out_));
  out_->entries.push_back(std::move(job_));
}

void JobListBuilder::Finish() {
  typos_.AppendWarnings(out_->file, &out_->findings);
  if (!root_seen_) {
    Error("bad-kind", {1, 1}, "",
          "the file is empty: a jobs file is a mapping with apiVersion: rescfg/v1, kind: JobList "
          "and jobs");
    return;
  }
  if (!root_is_map_) return;
  if (!api_version_) {
    Error("bad-api-version", root_mark_, "apiVersion", "missing apiVersion: rescfg/v1");
  } else if (*api_version_ != "rescfg/v1") {
    Error("bad-api-version", api_version_mark_, "apiVersion",
          "apiVersion must be rescfg/v1, not '" + *api_version_ + "'");
  }
  if (!kind_) {
    Error("bad-kind", root_mark_, "kind", "missing kind: JobList");
  } else if (*kind_ != "JobList") {
    Error("bad-kind", kind_mark_, "kind", "kind must be JobList, not '" + *kind_ + "'",
          *kind_ == "ResourceConfiguration" ? "this is a resource configuration, not a jobs file"
                                            : "");
  }
  if (!jobs_seen_) Error("missing-field", root_mark_, "jobs", "missing jobs: the list of jobs");
}

}  // namespace

void ReadYamlJobs(std::string_view text, const ParamQuery& query, LoadedJobs* out) {
  ReadYamlJobsUsing(text, query, out, YamlReader::kFastWhenPossible);
}

bool ReadYamlJobsUsing(std::string_view text, const ParamQuery& query, LoadedJobs* out, YamlReader reader) {
  auto unusable = [&](std::string code, Mark mark, std::string message) {
    out->entries.clear();
    out->unusable = true;
    out->findings.push_back({std::move(code), Severity::kError, out->file, mark, "", std::move(message), ""});
  };
  Mark bad;
  if (!IsValidUtf8(text, &bad)) {
    unusable("invalid-utf8", bad, "the file is not valid UTF-8 text");
    return false;
  }
  if (text.find('\0') != std::string_view::npos) {
    unusable("yaml-syntax", {1, 1}, "the file contains a NUL byte; it is not a text file");
    return false;
  }
  const size_t findings_before = out->findings.size();
  const size_t entries_before = out->entries.size();
  bool fast = false;
  if (reader == YamlReader::kFastWhenPossible) {
    try {
      JobListBuilder builder(query, out);
      fast = ScanPlainYaml(text, &builder);
      if (fast) builder.Finish();
    } catch (const std::exception&) {
      fast = false;  // out of memory: yaml-cpp's path below reports it
    }
    if (!fast) {
      // Outside the subset: forget everything and let yaml-cpp read it all.
      out->entries.erase(out->entries.begin() + static_cast<ptrdiff_t>(entries_before), out->entries.end());
      out->findings.erase(out->findings.begin() + static_cast<ptrdiff_t>(findings_before), out->findings.end());
    }
  }
  if (!fast) {
    try {
      MemoryBuffer buffer(text);
      std::istream in(&buffer);
      YAML::Parser parser(in);
      JobListBuilder builder(query, out);
      AliasExpander expander(&builder, {kMaxAliasNodes, kMaxAliasNodesTotal});
      parser.HandleNextDocument(expander);
      builder.Finish();
      IgnoreEvents ignore;
      if (parser.HandleNextDocument(ignore)) {
        out->findings.push_back({"multiple-documents", Severity::kError, out->file, ignore.start, "",
                                 "the file holds more than one YAML document; a jobs file is one JobList",
                                 "remove the '---' separators or split the file"});
      }
    } catch (const YAML::DeepRecursion& e) {
      unusable("yaml-syntax", {e.mark.line + 1, e.mark.column + 1}, "YAML syntax error: nesting is too deep");
      return false;
    } catch (const YAML::Exception& e) {
      Mark m = e.mark.is_null() ? Mark{1, 1} : Mark{e.mark.line + 1, e.mark.column + 1};
      unusable("yaml-syntax", m, e.msg.empty() ? "YAML syntax error" : "YAML syntax error: " + e.msg);
      return false;
    } catch (const std::exception& e) {
      unusable("yaml-syntax", {1, 1}, std::string("cannot read the YAML: ") + e.what());
      return false;
    }
  }
  // An error about the file (not a warning about a key) makes it unusable.
  if (std::any_of(out->findings.begin() + static_cast<ptrdiff_t>(findings_before), out->findings.end(),
                  [](const Finding& f) { return f.severity == Severity::kError; })) {
    out->unusable = true;
    out->entries.clear();
  }
  return fast;
}

}  // namespace rescfg
