#include "export/clearml_agent.h"

#include <cctype>
#include <memory>
#include <string_view>

#include "config/agent_reach.h"
#include "config/canonical.h"
#include "export/agent_sizing.h"
#include "export/renamed_queues.h"
#include "export/values_tree.h"
#include "util/edit_distance.h"
#include "util/json_writer.h"

namespace rescfg {
namespace {

constexpr std::string_view kUsageLabel = "clear.ml/resource-usage";
constexpr std::string_view kUsageField = "metadata|labels|clear.ml/resource-usage";
constexpr std::string_view kInjectorLabel = "clearml-injector/fraction";
/// Past this many GPUs a pool without `nodes` is unlikely to be one machine
/// (8 is the most GPUs of common servers).
constexpr int64_t kOneMachineGpus = 8;
constexpr std::string_view kInjectorValues = "0.0625, 0.125, 0.250, 0.375, 0.500, 0.625, 0.750, 0.875";

std::string Q(std::string_view name) { return "'" + std::string(name) + "'"; }
std::string PoolPath(const Pool& pool) { return "pools[" + pool.name + "]"; }
std::string ProfilePath(const Profile& profile) { return "profiles[" + profile.name + "]"; }
Mark Or(Mark mark, Mark fallback) { return mark.line > 0 ? mark : fallback; }

/// One pool's document, kept as data for `--format json`.
struct PoolDocument {
  std::string pool;
  bool paused = false;
  ValueNode values = ValueNode::Map();     ///< k8s-glue
  std::vector<std::string> argv;           ///< daemon; empty when no command is written
  int64_t machines = 1;                    ///< daemon: command lines, one per machine
};

/// `# pool: NAME`, and a second comment line for a paused pool. A name with
/// a Unicode line break (which YAML 1.1 readers end a comment at) is quoted.
std::string PoolComment(const Pool& pool) {
  const bool breaks = pool.name.find("\xC2\x85") != std::string::npos ||
                      pool.name.find("\xE2\x80\xA8") != std::string::npos ||
                      pool.name.find("\xE2\x80\xA9") != std::string::npos;
  std::string out = "# pool: " + (breaks ? YamlQuote(pool.name) : pool.name) + "\n";
  if (pool.paused) out += "# paused: rescfg hands no new task to these queues; running tasks keep their GPUs\n";
  return out;
}

/// A word for sh: as it is when it holds only characters sh reads
/// literally, else in single quotes.
std::string ShellWord(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word) {
    const unsigned char u = static_cast<unsigned char>(c);
    plain &= u < 0x80 && (std::isalnum(u) || std::string_view("_./:=@%+,-").find(c) != std::string_view::npos);
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The MIG resource of an 80 GB A100 or H100 that is `fraction` of a GPU
/// (1/7 to 4/7), for hints; "RESOURCE" for other fractions.
std::string MigSlice(Quantity fraction) {
  static constexpr const char* kSlices[] = {"nvidia.com/mig-1g.10gb", "nvidia.com/mig-2g.20gb",
                                            "nvidia.com/mig-3g.40gb", "nvidia.com/mig-4g.40gb"};
  for (int k = 1; k <= 4; ++k) {
    if (fraction == Quantity::FromTicks(Quantity::kTicksPerUnit * k / 7)) return kSlices[k - 1];
  }
  return "RESOURCE";
}

std::string MigNote(Quantity fraction) {
  return MigSlice(fraction) == "RESOURCE" ? " (RESOURCE: the MIG slice of that size on your GPUs)"
                                          : " (the slice of an 80 GB GPU; names depend on the model)";
}

/// "'A' (2), 'B' (4) and 'C' (dynamic, default 1)"; past 8 names, "and N more".
std::string ProfileList(const std::vector<const Profile*>& profiles) {
  constexpr size_t kShown = 8;
  const size_t shown = profiles.size() > kShown + 1 ? kShown : profiles.size();
  std::string out;
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += i + 1 == profiles.size() ? " and " : ", ";
    const Profile& p = *profiles[i];
    out += Q(p.name) + " (" + (p.dynamic_parameter ? "dynamic, default " : "") + p.allotment.ToString() + ")";
  }
  if (shown < profiles.size()) out += " and " + std::to_string(profiles.size() - shown) + " more";
  return out;
}

class AgentExport {
 public:
  AgentExport(const Config& config, const ClearmlAgentOptions& options)
      : config_(config), index_(config), mode_(options.mode), chart_(options.chart) {}

  void Run(const std::vector<const Pool*>& pools, ExportResult* result) {
    auto documents = std::make_shared<std::vector<PoolDocument>>();
    for (const Pool* pool : pools) {
      if (!result->text.empty()) result->text += mode_ == AgentMode::kK8sGlue ? "---\n" : "\n";
      result->text += PoolComment(*pool);
      if (mode_ == AgentMode::kK8sGlue) result->text += ChartComment();
      PoolDocument doc;
      doc.pool = pool->name;
      doc.paused = pool->paused;
      std::vector<AgentQueue> queues = index_.Queues(*pool);
      if (queues.empty()) Unlinked(*pool);
      if (mode_ == AgentMode::kDaemon && !queues.empty()) DaemonPoolFindings(*pool);
      for (const AgentQueue& queue : queues) QueueFindings(*pool, queue);
      if (mode_ == AgentMode::kK8sGlue && chart_ == AgentChart::kOpen) OpenChartFindings(*pool, queues);
      if (mode_ == AgentMode::kK8sGlue) {
        doc.values = chart_ == AgentChart::kOpen ? OpenValues(*pool, queues) : K8sValues(*pool, queues);
        doc.values.WriteYaml(&result->text);
      } else {
        doc.argv = DaemonArgv(*pool, queues);
        doc.machines = pool->nodes ? pool->nodes->count : 1;
        result->text += DaemonLines(doc.argv, *pool);
      }
      documents->push_back(std::move(doc));
    }
    result->findings = std::move(findings_);
    const AgentMode mode = mode_;
    const AgentChart chart = chart_;
    result->json_members = [documents, mode, chart](JsonWriter& json) {
      json.Field("mode", mode == AgentMode::kK8sGlue ? "k8s-glue" : "daemon");
      if (mode == AgentMode::kK8sGlue) json.Field("chart", chart == AgentChart::kOpen ? "open" : "enterprise");
      json.Key("pools").BeginArray();
      for (const PoolDocument& doc : *documents) {
        json.BeginObject().Field("pool", doc.pool).Field("paused", doc.paused);
        if (mode == AgentMode::kK8sGlue) {
          json.Key("values");
          doc.values.WriteJson(json);
        } else if (doc.argv.empty()) {
          json.Key("argv").Null().Key("command").Null();
        } else {
          json.Key("argv").BeginArray();
          for (const std::string& word : doc.argv) json.String(word);
          json.EndArray().Field("command", Joined(doc.argv)).Field("machines", doc.machines);
        }
        json.EndObject();
      }
      json.EndArray();
    };
  }

 private:
  static std::string Joined(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& word : argv) line += (line.empty() ? "" : " ") + ShellWord(word);
    return line;
  }

  void Add(const char* code, std::string path, Mark mark, std::string message, std::string hint) {
    findings_.push_back({std::move(path), mark, std::move(message), std::move(hint), code});
  }

  void Unlinked(const Pool& pool) {
    Add("unused-pool", PoolPath(pool), pool.mark,
        "pool " + Q(pool.name) + " is linked by no profile, so rescfg sends it no task: " +
            (mode_ == AgentMode::kK8sGlue ? "its agent serves its queue " + Q(pool.queue) + " without GPU sizing"
                                          : std::string("no command line is written (the agent needs a GPU amount per queue)")),
        "link a profile to the pool, or remove the pool");
  }

  /// What the two modes share: a queue its agent cannot size for every task.
  void QueueFindings(const Pool& pool, const AgentQueue& queue) {
    const std::string where = "queue " + Q(queue.name) + " of pool " + Q(pool.name);
    const Profile& largest = *queue.largest;
    if (queue.mixed) {
      Add("mixed-queue", queue.path, queue.mark,
          where + " receives tasks of profiles " + ProfileList(queue.senders) +
              ": its agent gives every task of a queue the same GPUs, so it is exported for " + Q(largest.name) + " (" +
              largest.allotment.ToString() + (queue.dynamic ? ", and without a GPU limit" : "") + ")",
          "give each link its own queue: links: [{pool: " + pool.name + ", queue: NAME}]");
    }
    if (queue.dynamic) {
      const Profile& dynamic = *queue.dynamic;
      const std::string parameter = *dynamic.dynamic_parameter;
      if (mode_ == AgentMode::kK8sGlue) {
        Add("dynamic-queue", ProfilePath(dynamic) + ".dynamic", Or(dynamic.dynamic_mark, dynamic.mark),
            "profile " + Q(dynamic.name) + " sizes each task from its " + parameter +
                ", which a queue's pod template cannot read: " + where + " has no GPU limit, and its " +
                std::string(kUsageLabel) + " label is the default " + ResourceUsageLabel(largest.allotment),
            "the agent needs a per-task template (CLEARML_K8S_GLUE_TEMPLATE_MODULE=module:function) that sets the "
            "GPU limit and that label from the task's " + parameter);
      } else {
        Add("dynamic-queue", ProfilePath(dynamic) + ".dynamic", Or(dynamic.dynamic_mark, dynamic.mark),
            "profile " + Q(dynamic.name) + " sizes each task from its " + parameter +
                ", but clearml-agent daemon gives every task of " + where + " the same GPUs: exported at " +
                DaemonQueueGpus(largest.allotment).amount.ToString(),
            "run the profile's tasks through the Kubernetes glue with a per-task template, or give it a fixed allotment");
      }
    }
    if (!queue.dynamic && !OneAgentHolds(pool, largest.allotment)) {
      const int64_t gpus = pool.nodes->gpus;
      Add("multi-machine-allotment", ProfilePath(largest) + ".allotment", Or(largest.allotment_mark, largest.mark),
          "allotment " + largest.allotment.ToString() + " of profile " + Q(largest.name) + " (" + where +
              ") takes whole machines of " + std::to_string(gpus) + " GPUs, but " +
              (mode_ == AgentMode::kK8sGlue ? std::string("one pod runs on one machine: Kubernetes never starts it")
                                            : "each agent serves one machine's " + std::to_string(gpus) +
                                                  " GPUs: no agent starts it"),
          "run multi-machine jobs through a launcher that spans machines (e.g. MPI or a PyTorch elastic "
          "job), or give the profile at most " + std::to_string(gpus) + " GPUs");
    }
    if (mode_ == AgentMode::kK8sGlue) {
      if (!queue.dynamic) PodFinding(pool, queue);
    } else {
      DaemonFindings(pool, queue);
    }
  }

  // --- Kubernetes glue ---

  void PodFinding(const Pool& pool, const AgentQueue& queue) {
    const Profile& profile = *queue.largest;
    const Quantity allotment = profile.allotment;
    const PodGpus pod = K8sPodGpus(allotment, pool.gpu_fractions);
    if (pod.exact) return;
    const std::string what = "allotment " + allotment.ToString() + " of profile " + Q(profile.name) + " (queue " +
                             Q(queue.name) + ")";
    const std::string as = pod.kind == PodGpus::Kind::kWhole ? std::to_string(pod.gpus) + " whole GPU" + (pod.gpus > 1 ? "s" : "")
                           : pod.kind == PodGpus::Kind::kInjector ? "the injector's " + pod.fraction
                                                                  : pod.resource + " (" + pod.amount.ToString() + ")";
    const std::string tail = ": exported as " + as + ", more than rescfg accounts for each task";
    if (allotment > Quantity::Units(1)) {
      Add("inexpressible-fraction", ProfilePath(profile) + ".allotment", Or(profile.allotment_mark, profile.mark),
          what + " in pool " + Q(pool.name) + " adds part of a GPU to whole ones, which no pod request can" + tail,
          "use a whole number of GPUs, or a fraction below 1");
      return;
    }
    const std::string fraction = "\"" + allotment.ToString() + "\"";
    if (pool.gpu_fractions.mig) {
      Add("inexpressible-fraction", PoolPath(pool) + ".gpuFractions", Or(pool.gpu_fractions_mark, pool.mark),
          what + " has no MIG slice in the gpuFractions of pool " + Q(pool.name) + tail,
          "add " + fraction + ": " + MigSlice(allotment) + " to " + PoolPath(pool) + ".gpuFractions.mig" + MigNote(allotment));
      return;
    }
    Add("inexpressible-fraction", PoolPath(pool) + ".gpuFractions", Or(pool.gpu_fractions_mark, pool.mark),
        what + " is no value the fractional GPU injector of pool " + Q(pool.name) + " accepts (" +
            std::string(kInjectorValues) + ")" + tail,
        "add gpuFractions: {mig: {" + fraction + ": " + MigSlice(allotment) + "}} to pool " + Q(pool.name) +
            MigNote(allotment) + ", or use an allotment the injector accepts");
  }

  ValueNode K8sValues(const Pool& pool, const std::vector<AgentQueue>& queues) const {
    ValueNode root = ValueNode::Map();
    ValueNode& glue = root.Add("agentk8sglue", ValueNode::Map());
    glue.Add("createQueues", ValueNode::Bool(true));
    ValueNode& monitored = glue.Add("monitoredResources", ValueNode::Map());
    monitored.Add("maxResources", ValueNode::Number(RoundDownToMicro(pool.resources)));
    monitored.Add("minResourcesFieldName", ValueNode::String(std::string(kUsageField)));
    monitored.Add("maxResourcesFieldName", ValueNode::String(std::string(kUsageField)));
    ValueNode base = BasePodTemplate(pool);
    if (!base.Empty()) glue.Add("basePodTemplate", std::move(base));
    ValueNode& served = glue.Add("queues", ValueNode::Map());
    if (queues.empty()) served.Add(pool.queue, ValueNode::Map(true));
    for (const AgentQueue& queue : queues) {
      const Quantity allotment = queue.largest->allotment;
      ValueNode& overrides = served.Add(queue.name, ValueNode::Map()).Add("templateOverrides", ValueNode::Map());
      ValueNode& labels = overrides.Add("labels", ValueNode::Map(true));
      labels.Add(std::string(kUsageLabel), ValueNode::String(ResourceUsageLabel(allotment)));
      if (queue.dynamic) continue;
      const PodGpus pod = K8sPodGpus(allotment, pool.gpu_fractions);
      if (pod.kind == PodGpus::Kind::kInjector) {
        labels.Add(std::string(kInjectorLabel), ValueNode::String(pod.fraction));
        continue;
      }
      ValueNode& limits = overrides.Add("resources", ValueNode::Map(true)).Add("limits", ValueNode::Map(true));
      if (pod.kind == PodGpus::Kind::kWhole) {
        limits.Add("nvidia.com/gpu", ValueNode::Number(Quantity::Units(pod.gpus)));
      } else {
        limits.Add(pod.resource, ValueNode::Number(Quantity::Units(1)));
      }
    }
    return root;
  }

  /// `# chart:` names the Helm chart the values are for: the per-queue
  /// `queues:` map and `monitoredResources` exist only in the Enterprise one.
  std::string ChartComment() const {
    if (chart_ == AgentChart::kOpen) {
      return "# chart: allegroai/clearml-agent (the open-source agent chart: one list of queues, every pod from "
             "basePodTemplate)\n";
    }
    return "# chart: clearml-enterprise/clearml-enterprise-agent (ClearML's Enterprise agent chart, the only one "
           "with the per-queue queues map and monitoredResources; for the open-source chart: --chart open)\n";
  }

  /// The node labels written in the pool's `kubernetes:` block as
  /// nodeSelector, and its tolerations, so that its agent starts pods only
  /// on the pool's machines, as the Kueue export's ResourceFlavor does.
  /// Without written labels (or with only the Kueue export's default one)
  /// there is no nodeSelector: that label is on nodes only where an
  /// administrator put it for Kueue, and a selector no node satisfies would
  /// leave every pod pending.
  ValueNode BasePodTemplate(const Pool& pool) const {
    ValueNode base = ValueNode::Map();
    if (pool.kubernetes.node_labels && !pool.kubernetes.node_labels->empty() &&
        *pool.kubernetes.node_labels != DefaultNodeLabels(config_, pool)) {
      const std::vector<KubernetesLabel>& labels = *pool.kubernetes.node_labels;
      ValueNode& selector = base.Add("nodeSelector", ValueNode::Map(labels.size() <= 2));
      for (const KubernetesLabel& label : labels) selector.Add(label.key, ValueNode::String(label.value));
    }
    if (!pool.kubernetes.tolerations.empty()) {
      ValueNode& list = base.Add("tolerations", ValueNode::List());
      for (const KubernetesToleration& t : pool.kubernetes.tolerations) {
        ValueNode& item = list.Push(ValueNode::Map(true));
        if (!t.key.empty()) item.Add("key", ValueNode::String(t.key));
        item.Add("operator", ValueNode::String(t.op.empty() ? "Equal" : t.op));
        if (!t.value.empty()) item.Add("value", ValueNode::String(t.value));
        if (!t.effect.empty()) item.Add("effect", ValueNode::String(t.effect));
        if (t.seconds) item.Add("tolerationSeconds", ValueNode::Int(*t.seconds));
      }
    }
    return base;
  }

  /// The pool-wide pod of the open chart: every queue's pods alike, sized
  /// for the largest allotment of all (no task gets less than rescfg
  /// accounts for it), without a GPU limit when a dynamic profile is among them.
  static AgentQueue OnePod(const std::vector<AgentQueue>& queues) {
    AgentQueue all;
    for (const AgentQueue& queue : queues) {
      if (all.largest == nullptr || queue.largest->allotment > all.largest->allotment) all.largest = queue.largest;
      if (all.dynamic == nullptr) all.dynamic = queue.dynamic;
    }
    return all;
  }

  /// The open chart: `queue` a comma-separated list in execution priority
  /// order (the order the glue pulls from them), created when missing, and
  /// one basePodTemplate for every pod.
  ValueNode OpenValues(const Pool& pool, const std::vector<AgentQueue>& queues) const {
    ValueNode root = ValueNode::Map();
    ValueNode& glue = root.Add("agentk8sglue", ValueNode::Map());
    std::string list;
    for (const AgentQueue& queue : queues) list += (list.empty() ? "" : ",") + queue.name;
    glue.Add("queue", ValueNode::String(queues.empty() ? pool.queue : list));
    glue.Add("createQueueIfNotExists", ValueNode::Bool(true));
    ValueNode base = BasePodTemplate(pool);
    const AgentQueue all = OnePod(queues);
    if (all.largest != nullptr && all.dynamic == nullptr) {
      const PodGpus pod = K8sPodGpus(all.largest->allotment, pool.gpu_fractions);
      if (pod.kind == PodGpus::Kind::kInjector) {
        base.Add("labels", ValueNode::Map(true)).Add(std::string(kInjectorLabel), ValueNode::String(pod.fraction));
      } else {
        ValueNode& limits = base.Add("resources", ValueNode::Map(true)).Add("limits", ValueNode::Map(true));
        if (pod.kind == PodGpus::Kind::kWhole) {
          limits.Add("nvidia.com/gpu", ValueNode::Number(Quantity::Units(pod.gpus)));
        } else {
          limits.Add(pod.resource, ValueNode::Number(Quantity::Units(1)));
        }
      }
    }
    if (!base.Empty()) glue.Add("basePodTemplate", std::move(base));
    return root;
  }

  /// What the open chart loses against the Enterprise one: per-queue sizing
  /// (a finding for each queue whose pods it sizes otherwise) and, for
  /// fractions through the injector, which Kubernetes does not count, the
  /// agent-wide cap monitoredResources.
  void OpenChartFindings(const Pool& pool, const std::vector<AgentQueue>& queues) {
    if (queues.empty()) return;
    const AgentQueue all = OnePod(queues);
    const Profile& largest = *all.largest;
    const std::string as = all.dynamic != nullptr
                               ? "without a GPU limit, since profile " + Q(all.dynamic->name) + " sizes each task itself"
                               : "for " + Q(largest.name) + " (" + largest.allotment.ToString() + ")";
    for (const AgentQueue& queue : queues) {
      if (queue.name.find(',') != std::string::npos) {
        Add("open-chart", queue.path, queue.mark,
            "queue " + Q(queue.name) + " of pool " + Q(pool.name) +
                " holds a comma, and the open-source agent chart's queue list is comma-separated: its agent "
                "serves the parts as separate queues",
            "give the queue a name without a comma, or use ClearML's Enterprise agent chart (without --chart open)");
      }
      const bool same = all.dynamic == nullptr ? queue.dynamic == nullptr &&
                                                     queue.largest->allotment == largest.allotment
                                               : queue.dynamic != nullptr;
      if (same) continue;
      Add("open-chart", queue.path, queue.mark,
          "the open-source agent chart sizes every pod of pool " + Q(pool.name) + " alike: queue " + Q(queue.name) +
              " (" + ProfileList({queue.largest}) + ") is exported " + as,
          "use ClearML's Enterprise agent chart (without --chart open), or give the pool profiles of one allotment");
    }
    if (all.dynamic == nullptr &&
        K8sPodGpus(largest.allotment, pool.gpu_fractions).kind == PodGpus::Kind::kInjector) {
      Add("open-chart", PoolPath(pool), pool.mark,
          "the open-source agent chart has no monitoredResources: nothing stops the agent of pool " + Q(pool.name) +
              " from starting more fractional pods than its " + pool.resources.ToString() +
              " GPUs hold, since Kubernetes does not count the injector's fractions",
          "use ClearML's Enterprise agent chart (without --chart open), or map the fraction to a MIG resource");
    }
  }

  // --- bare-metal daemon ---

  void DaemonFindings(const Pool& pool, const AgentQueue& queue) {
    const Profile& profile = *queue.largest;
    if (queue.name.starts_with("-")) {
      Add("option-like-queue", queue.path, queue.mark,
          "queue " + Q(queue.name) + " of pool " + Q(pool.name) +
              " starts with '-': clearml-agent daemon may read it as an option",
          "give the queue a name that does not start with '-'");
    }
    if (queue.dynamic) return;  // said above: every task gets the default
    const DaemonGpus gpus = DaemonQueueGpus(profile.allotment);
    const std::string what = "allotment " + profile.allotment.ToString() + " of profile " + Q(profile.name) +
                             " (queue " + Q(queue.name) + " of pool " + Q(pool.name) + ")";
    const std::string as = "exported as " + queue.name + "=" + gpus.amount.ToString();
    if (pool.gpu_fractions.mig && !gpus.amount.is_whole()) {
      Add("inexpressible-fraction", PoolPath(pool) + ".gpuFractions", Or(pool.gpu_fractions_mark, pool.mark),
          what + ": the pool gives fractions as MIG slices, which clearml-agent daemon --dynamic-gpus does not "
                 "request; " + as + ", a share of a whole GPU" + (gpus.exact ? "" : ", more than rescfg accounts for each task"),
          "run the pool's fractional queues through the Kubernetes glue, or give its agent the MIG devices with --gpus");
      return;
    }
    if (gpus.exact) return;
    Add("inexpressible-fraction", ProfilePath(profile) + ".allotment", Or(profile.allotment_mark, profile.mark),
        what + ": clearml-agent daemon --dynamic-gpus takes fractions in steps of 0.125 up to 1 and whole numbers "
               "above; " + as + ", more than rescfg accounts for each task",
        "use a multiple of 0.125 up to 1 (0.125, 0.25, ..., 0.875) or a whole number");
  }

  /// The GPUs one daemon lists: a machine's with `nodes`; else the pool's
  /// size when whole, else its whole part, and at least one GPU.
  static int64_t DaemonDevices(const Pool& pool) {
    if (pool.nodes) return pool.nodes->gpus;
    const int64_t whole = static_cast<int64_t>(pool.resources.ticks() / Quantity::kTicksPerUnit);
    return whole > 0 ? whole : 1;
  }

  void DaemonPoolFindings(const Pool& pool) {
    if (pool.nodes) return;  // one agent per machine, each of whole GPUs
    if (pool.resources > Quantity::Units(kOneMachineGpus)) {
      const std::string n = pool.resources.ToString();
      Add("one-agent-many-gpus", PoolPath(pool) + ".resources", Or(pool.resources_mark, pool.mark),
          "pool " + Q(pool.name) + ": one agent for " + n + " GPUs assumes one machine; give the pool `nodes`",
          "nodes: {count: MACHINES, gpus: GPUS_EACH} gives one command line per machine");
    }
    if (pool.resources.is_whole()) return;
    const int64_t devices = DaemonDevices(pool);
    Add("fractional-pool-size", PoolPath(pool) + ".resources", Or(pool.resources_mark, pool.mark),
        "pool " + Q(pool.name) + " has " + pool.resources.ToString() +
            " GPUs, but --gpus lists whole GPUs: exported as --gpus 0-" + std::to_string(devices - 1) + " (" +
            std::to_string(devices) + " GPU" + (devices > 1 ? "s)" : ", more than the pool)"),
        "give the pool a whole number of GPUs");
  }

  std::vector<std::string> DaemonArgv(const Pool& pool, const std::vector<AgentQueue>& queues) {
    if (queues.empty()) return {};
    std::vector<std::string> argv{"clearml-agent", "daemon", "--dynamic-gpus", "--gpus",
                                  "0-" + std::to_string(DaemonDevices(pool) - 1), "--queue"};
    for (const AgentQueue& queue : queues) {
      argv.push_back(queue.name + "=" + DaemonQueueGpus(queue.largest->allotment).amount.ToString());
    }
    argv.push_back("--docker");
    return argv;
  }

  /// The command line, once per machine of a pool with `nodes`, each after
  /// a `# machine N of COUNT` line.
  static std::string DaemonLines(const std::vector<std::string>& argv, const Pool& pool) {
    if (argv.empty()) return "# no profile links pool " + ShellWord(pool.name) + ": no agent command\n";
    const std::string line = Joined(argv) + "\n";
    if (!pool.nodes) return line;
    const std::string count = std::to_string(pool.nodes->count);
    std::string out;
    out.reserve(static_cast<size_t>(pool.nodes->count) * (line.size() + 24));
    for (int64_t m = 1; m <= pool.nodes->count; ++m) out += "# machine " + std::to_string(m) + " of " + count + "\n" + line;
    return out;
  }

  const Config& config_;
  AgentQueueIndex index_;
  AgentMode mode_;
  AgentChart chart_;
  std::vector<ExportFinding> findings_;
};

}  // namespace

AgentQueueIndex::AgentQueueIndex(const Config& config) {
  for (const auto& policy : config.policies) {
    for (const auto& entry : policy.profiles) used_.insert(entry.profile);
  }
  for (const auto& profile : config.profiles) {
    for (size_t i = 0; i < profile.links.size(); ++i) {
      links_[profile.links[i].pool].emplace(profile.name, LinkRef{&profile, i});  // the first of a name
    }
  }
}

std::vector<AgentQueue> AgentQueueIndex::Queues(const Pool& pool) const {
  std::vector<AgentQueue> queues;
  auto linked = links_.find(pool.name);
  if (linked == links_.end()) return queues;
  std::unordered_map<std::string_view, size_t> index;  // queue name -> position in `queues`
  for (const NameRef& ref : pool.execution_priority.value_or(std::vector<NameRef>{})) {
    auto found = linked->second.find(ref.name);
    if (found == linked->second.end()) continue;
    const Profile& profile = *found->second.profile;
    const size_t i = found->second.index;
    const Link& link = profile.links[i];
    const std::string& name = link.queue.empty() ? pool.queue : link.queue;
    auto [at, fresh] = index.emplace(name, queues.size());
    if (fresh) {
      AgentQueue& queue = queues.emplace_back();
      queue.name = name;
      if (name == pool.queue) {
        queue.path = PoolPath(pool) + ".queue";
        queue.mark = Or(pool.queue_mark, pool.name_mark);
      } else {
        queue.path = ProfilePath(profile) + ".links[" + std::to_string(i) + "].queue";
        queue.mark = Or(link.queue_mark, link.mark);
      }
    }
    queues[at->second].profiles.push_back(&profile);
  }
  for (AgentQueue& queue : queues) {
    for (const Profile* p : queue.profiles) if (used_.count(p->name) > 0) queue.senders.push_back(p);
    if (queue.senders.empty()) queue.senders = queue.profiles;
    for (const Profile* p : queue.senders) {
      if (queue.largest == nullptr || p->allotment > queue.largest->allotment) queue.largest = p;
      if (queue.dynamic == nullptr && p->dynamic_parameter) queue.dynamic = p;
      queue.mixed |= p->allotment != queue.senders.front()->allotment;
    }
    queue.mixed = queue.senders.size() > 1 && (queue.mixed || queue.dynamic != nullptr);
  }
  return queues;
}

std::vector<AgentQueue> PoolAgentQueues(const Config& config, const Pool& pool) {
  return AgentQueueIndex(config).Queues(pool);
}

ExportResult ExportClearmlAgent(const Config& config, const ClearmlAgentOptions& options) {
  ExportResult result;
  std::vector<const Pool*> pools;
  for (const Pool& pool : config.pools) {
    if (options.pool.empty() || pool.name == options.pool) pools.push_back(&pool);
  }
  if (!options.pool.empty() && pools.empty()) {
    std::vector<std::string> names;
    for (const Pool& pool : config.pools) names.push_back(pool.name);
    std::string close = ClosestMatch(options.pool, names);
    std::string hint = !close.empty() ? "did you mean " + Q(close) + "?" : names.empty() ? "the configuration has no pools" : "";
    result.errors.push_back({"unknown-pool", Severity::kError, "", {}, "pools",
                             "--pool " + Q(options.pool) + ": the configuration has no pool of that name", hint});
    return result;
  }
  AgentExport(config, options).Run(pools, &result);
  RenamedQueueFindings(config, RenameEngine::kClearmlAgent, &result.findings);
  return result;
}

}  // namespace rescfg
