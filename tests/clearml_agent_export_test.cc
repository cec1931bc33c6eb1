#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "config/loader.h"
#include "export/agent_sizing.h"
#include "export/clearml_agent.h"
#include "export/values_tree.h"
#include "support/test_paths.h"
#include "util/json_writer.h"
#include "validate/load.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

namespace fs = std::filesystem;

Quantity Q(const char* text) {
  auto q = ParseQuantity(text);
  EXPECT_TRUE(q.has_value()) << text;
  return q.value_or(Quantity());
}

GpuFractions Injector() { return {}; }

rc::Gen<Quantity> OneOfQuantity(std::vector<const char*> texts) {
  std::vector<Quantity> values;
  for (const char* text : texts) values.push_back(Q(text));
  return rc::gen::elementOf(values);
}

GpuFractions Mig(std::vector<std::pair<const char*, const char*>> slices) {
  GpuFractions fractions;
  fractions.mig = true;
  for (auto [fraction, resource] : slices) fractions.resources.push_back({Q(fraction), resource, {}});
  return fractions;
}

/// A configuration from text, valid, with defaults applied.
Config Valid(const std::string& text) {
  LoadedConfig loaded = LoadConfigText(text, "test.yaml");
  EXPECT_TRUE(loaded.config.has_value());
  if (!loaded.config) return {};
  ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  for (const Finding& f : loaded.findings) {
    EXPECT_NE(f.severity, Severity::kError) << f.code << ": " << f.message;
  }
  Config config = *loaded.config;
  ApplyDefaults(config);
  return config;
}

Config FromFile(const fs::path& path) {
  LoadedConfig loaded = LoadValidConfig(path.string());
  EXPECT_TRUE(loaded.config.has_value()) << path;
  return loaded.config.value_or(Config{});
}

const fs::path kTestdata = fs::path(RESCFG_SOURCE_DIR) / "testdata";

/// "code path" of each finding, in order.
std::vector<std::string> Codes(const ExportResult& result) {
  std::vector<std::string> out;
  for (const auto& f : result.findings) out.push_back(f.code + " " + f.path);
  return out;
}

// --- the mapping, table-driven ---

TEST(ResourceUsageLabel, IsTheDecimalRoundedDownAtTheSixthDigit) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"2", "2"},           {"8", "8"},               {"1000000", "1000000"}, {"0.5", "0.5"},
      {"12.5", "12.5"},     {"0.0625", "0.0625"},     {"1/16", "0.0625"},     {"7/16", "0.4375"},
      {"1/7", "0.142857"},  {"6/7", "0.857142"},      {"1/3", "0.333333"},    {"2/3", "0.666666"},
      {"5/6", "0.833333"},  {"1/11", "0.090909"},     {"1/9", "0.111111"},    {"0.999999", "0.999999"},
      {"0.000001", "0.000001"}, {"1/13", "0.076923"}, {"15/2", "7.5"},        {"22/3", "7.333333"},
      {"0.25", "0.25"},     {"0.100000", "0.1"},
  };
  for (auto [allotment, label] : cases) EXPECT_EQ(ResourceUsageLabel(Q(allotment)), label) << allotment;
}

TEST(K8sPodGpus, MapsWholeAllotmentsToGpuLimits) {
  for (int n : {1, 2, 4, 8, 1000000}) {
    PodGpus pod = K8sPodGpus(Quantity::Units(n), Injector());
    EXPECT_EQ(pod.kind, PodGpus::Kind::kWhole);
    EXPECT_EQ(pod.gpus, n);
    EXPECT_TRUE(pod.exact);
    EXPECT_EQ(K8sPodGpus(Quantity::Units(n), Mig({{"1/7", "nvidia.com/mig-1g.10gb"}})).gpus, n);
  }
}

TEST(K8sPodGpus, MapsFractionsToInjectorValues) {
  struct Case { const char* allotment; const char* fraction; bool exact; };
  const std::vector<Case> cases = {
      {"1/16", "0.0625", true}, {"0.0625", "0.0625", true}, {"1/8", "0.125", true},   {"0.25", "0.250", true},
      {"3/8", "0.375", true},   {"0.5", "0.500", true},     {"5/8", "0.625", true},   {"0.75", "0.750", true},
      {"7/8", "0.875", true},   {"1/7", "0.250", false},    {"0.1", "0.125", false},  {"0.01", "0.0625", false},
      {"1/3", "0.375", false},
  };
  for (const Case& c : cases) {
    PodGpus pod = K8sPodGpus(Q(c.allotment), Injector());
    EXPECT_EQ(pod.kind, PodGpus::Kind::kInjector) << c.allotment;
    EXPECT_EQ(pod.fraction, c.fraction) << c.allotment;
    EXPECT_EQ(pod.exact, c.exact) << c.allotment;
    EXPECT_EQ(InjectorFraction(Q(c.allotment)), c.exact ? c.fraction : "") << c.allotment;
  }
}

TEST(K8sPodGpus, FractionsNoFormTakesAreRoundedUpToWholeGpus) {
  struct Case { const char* allotment; GpuFractions fractions; int64_t gpus; };
  const std::vector<Case> cases = {
      {"15/16", Injector(), 1},   {"0.9", Injector(), 1},   {"1.5", Injector(), 2},
      {"5/2", Injector(), 3},     {"1/2", Mig({{"1/7", "nvidia.com/mig-1g.10gb"}}), 1},
      {"1.5", Mig({{"1/2", "nvidia.com/mig-3g.40gb"}}), 2},
  };
  for (const Case& c : cases) {
    PodGpus pod = K8sPodGpus(Q(c.allotment), c.fractions);
    EXPECT_EQ(pod.kind, PodGpus::Kind::kWhole) << c.allotment;
    EXPECT_EQ(pod.gpus, c.gpus) << c.allotment;
    EXPECT_FALSE(pod.exact) << c.allotment;
  }
}

TEST(K8sPodGpus, MapsFractionsToTheirMigSlice) {
  const GpuFractions a100 = Mig({{"1/7", "nvidia.com/mig-1g.10gb"}, {"2/7", "nvidia.com/mig-2g.20gb"},
                                 {"3/7", "nvidia.com/mig-3g.40gb"}});
  struct Case { const char* allotment; const char* resource; bool exact; };
  const std::vector<Case> cases = {
      {"1/7", "nvidia.com/mig-1g.10gb", true},  {"2/7", "nvidia.com/mig-2g.20gb", true},
      {"3/7", "nvidia.com/mig-3g.40gb", true},  {"0.1", "nvidia.com/mig-1g.10gb", false},
      {"0.25", "nvidia.com/mig-2g.20gb", false}, {"0.142857", "nvidia.com/mig-1g.10gb", false},
  };
  for (const Case& c : cases) {
    PodGpus pod = K8sPodGpus(Q(c.allotment), a100);
    EXPECT_EQ(pod.kind, PodGpus::Kind::kMig) << c.allotment;
    EXPECT_EQ(pod.resource, c.resource) << c.allotment;
    EXPECT_EQ(pod.exact, c.exact) << c.allotment;
  }
  // A MIG pool does not fall back to the injector.
  EXPECT_EQ(K8sPodGpus(Q("0.5"), a100).kind, PodGpus::Kind::kWhole);
}

TEST(DaemonQueueGpus, TakesEighthsUpToOneAndWholeNumbersAbove) {
  struct Case { const char* allotment; const char* amount; bool exact; };
  const std::vector<Case> cases = {
      {"0.125", "0.125", true}, {"1/8", "0.125", true},  {"0.25", "0.25", true},  {"3/8", "0.375", true},
      {"0.5", "0.5", true},     {"7/8", "0.875", true},  {"1", "1", true},        {"2", "2", true},
      {"8", "8", true},         {"1/16", "0.125", false}, {"1/7", "0.25", false}, {"0.126", "0.25", false},
      {"0.9", "1", false},      {"1.5", "2", false},     {"1.125", "2", false},   {"0.0625", "0.125", false},
  };
  for (const Case& c : cases) {
    DaemonGpus gpus = DaemonQueueGpus(Q(c.allotment));
    EXPECT_EQ(gpus.amount, Q(c.amount)) << c.allotment;
    EXPECT_EQ(gpus.exact, c.exact) << c.allotment;
  }
}

// --- properties of the mapping ---

rc::Gen<Quantity> GenAllotment() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange<int64_t>(1, 3 * Quantity::kTicksPerUnit), [](int64_t t) { return Quantity::FromTicks(t); }),
      rc::gen::map(rc::gen::pair(rc::gen::inRange<int64_t>(1, 40), rc::gen::inRange<int64_t>(1, 17)),
                   [](std::pair<int64_t, int64_t> f) {
                     return Quantity::FromTicks(Ticks(f.first) * Quantity::kTicksPerUnit / f.second);
                   }));
}

RC_GTEST_PROP(AgentSizing, TheLabelNeverExceedsTheAllotmentByAMillionth, ()) {
  const Quantity allotment = *GenAllotment();
  const std::string label = ResourceUsageLabel(allotment);
  const auto back = ParseQuantity(label);
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back <= allotment);
  RC_ASSERT(allotment - *back < Quantity::FromTicks(Quantity::kTicksPerUnit / 1'000'000));
  RC_ASSERT(*back == RoundDownToMicro(allotment));
}

RC_GTEST_PROP(AgentSizing, LabelsOfWhatFitsAPoolAddUpToNoMoreThanItsMaxResources, ()) {
  const Quantity size = RoundDownToMicro(*GenAllotment()) + Quantity::Units(1);
  const auto allotments = *rc::gen::container<std::vector<Quantity>>(GenAllotment());
  Quantity admitted, labels;
  for (Quantity a : allotments) {
    if (admitted + a > size) continue;
    admitted += a;
    labels += *ParseQuantity(ResourceUsageLabel(a));
  }
  RC_ASSERT(labels <= RoundDownToMicro(size));
}

RC_GTEST_PROP(AgentSizing, APodNeverGetsLessThanItsAllotmentAndExactMeansEqual, ()) {
  const Quantity allotment = *GenAllotment();
  const bool mig = *rc::gen::arbitrary<bool>();
  const GpuFractions fractions = mig ? Mig({{"1/7", "nvidia.com/mig-1g.10gb"}, {"1/2", "nvidia.com/mig-3g.40gb"}}) : Injector();
  const PodGpus pod = K8sPodGpus(allotment, fractions);
  RC_ASSERT(pod.amount >= allotment);
  RC_ASSERT(pod.exact == (pod.amount == allotment));
  if (pod.kind == PodGpus::Kind::kWhole) RC_ASSERT(pod.amount == Quantity::Units(pod.gpus));
  if (pod.kind == PodGpus::Kind::kInjector) RC_ASSERT(Q(pod.fraction.c_str()) == pod.amount);
  if (pod.kind != PodGpus::Kind::kWhole) RC_ASSERT(allotment < Quantity::Units(1));
  if (allotment.is_whole()) RC_ASSERT(pod.exact && pod.kind == PodGpus::Kind::kWhole);
}

RC_GTEST_PROP(AgentSizing, TheDaemonAmountIsTheLeastItTakesAtLeastTheAllotment, ()) {
  const Quantity allotment = *GenAllotment();
  const DaemonGpus gpus = DaemonQueueGpus(allotment);
  const Quantity eighth = Quantity::FromTicks(Quantity::kTicksPerUnit / 8);
  RC_ASSERT(gpus.amount >= allotment);
  RC_ASSERT(gpus.exact == (gpus.amount == allotment));
  const bool takes = gpus.amount.is_whole() || (gpus.amount < Quantity::Units(1) && gpus.amount.ticks() % eighth.ticks() == 0);
  RC_ASSERT(takes);
  const Quantity step = gpus.amount > Quantity::Units(1) ? Quantity::Units(1) : eighth;
  RC_ASSERT(gpus.amount - step < allotment);
}

// --- queues and findings of a configuration ---

TEST(PoolAgentQueues, FollowTheExecutionPriorityOfTheWorkedExample) {
  Config config = FromFile(kTestdata / "examples" / "worked-example.yaml");
  std::vector<std::string> h100, bare;
  for (const auto& q : PoolAgentQueues(config, *config.FindPool("H100 Half a Superpod"))) h100.push_back(q.name);
  for (const auto& q : PoolAgentQueues(config, *config.FindPool("Bare Metal Low END GPUs"))) bare.push_back(q.name);
  EXPECT_EQ(h100, (std::vector<std::string>{"h100-2gpu", "h100-4gpu", "h100-8gpu", "h100-half"}));
  EXPECT_EQ(bare, (std::vector<std::string>{"bare-metal"}));
  EXPECT_TRUE(ExportClearmlAgent(config, {}).findings.empty());
  EXPECT_TRUE(ExportClearmlAgent(config, {AgentMode::kDaemon, ""}).findings.empty());
}

const char* kMixed = R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: a, resources: 8, queue: shared, executionPriority: [two, one, spare, four]}
profiles:
  - {name: one, allotment: 1, links: [{pool: a}]}
  - {name: two, allotment: 2, links: [{pool: a}]}
  - {name: spare, allotment: 8, links: [{pool: a}]}
  - {name: four, allotment: 4, links: [{pool: a, queue: a-4}]}
policies:
  - {name: t, profiles: [one, two, four]}
)";

TEST(PoolAgentQueues, ASharedQueueIsSizedForTheLargestProfileThatSendsTasks) {
  Config config = Valid(kMixed);
  auto queues = PoolAgentQueues(config, config.pools[0]);
  ASSERT_EQ(queues.size(), 2u);
  EXPECT_EQ(queues[0].name, "shared");
  EXPECT_EQ(queues[0].profiles.size(), 3u);  // two, one, spare: in execution priority order
  EXPECT_EQ(queues[0].senders.size(), 2u);   // spare is used by no policy
  EXPECT_EQ(queues[0].largest->name, "two");
  EXPECT_TRUE(queues[0].mixed);
  EXPECT_EQ(queues[0].path, "pools[a].queue");
  EXPECT_EQ(queues[0].mark.line, 4);
  EXPECT_EQ(queues[1].name, "a-4");
  EXPECT_FALSE(queues[1].mixed);
  EXPECT_EQ(queues[1].path, "profiles[four].links[0].queue");
  ExportResult result = ExportClearmlAgent(config, {});
  ASSERT_EQ(Codes(result), (std::vector<std::string>{"mixed-queue pools[a].queue"}));
  EXPECT_NE(result.findings[0].message.find("'two' (2) and 'one' (1)"), std::string::npos);
  EXPECT_NE(result.text.find("shared:\n      templateOverrides:\n        labels: {clear.ml/resource-usage: \"2\"}\n"
                             "        resources: {limits: {nvidia.com/gpu: 2}}\n"),
            std::string::npos)
      << result.text;
}

TEST(ExportClearmlAgent, SaysWhatTheInjectorCannotTakeAndWhatToAdd) {
  Config config = Valid(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: cards, resources: 2}
  - {name: sliced, resources: 1, gpuFractions: {mig: {"1/7": nvidia.com/mig-1g.10gb}}}
profiles:
  - {name: seventh, allotment: "1/7", links: [{pool: cards, queue: c-7}, {pool: sliced, queue: s-7}]}
  - {name: half, allotment: 0.5, links: [{pool: cards, queue: c-2}, {pool: sliced, queue: s-2}]}
  - {name: one-and-half, allotment: 1.5, links: [{pool: cards, queue: c-15}]}
policies:
  - {name: t, limit: 2, profiles: [seventh, half, one-and-half]}
)");
  ExportResult result = ExportClearmlAgent(config, {});
  ASSERT_EQ(Codes(result), (std::vector<std::string>{
                               "inexpressible-fraction pools[cards].gpuFractions",
                               "inexpressible-fraction profiles[one-and-half].allotment",
                               "inexpressible-fraction pools[sliced].gpuFractions",
                           }));
  EXPECT_NE(result.findings[0].hint.find("gpuFractions: {mig: {\"1/7\": "), std::string::npos) << result.findings[0].hint;
  EXPECT_NE(result.findings[2].hint.find("add \"0.5\": "), std::string::npos) << result.findings[2].hint;
  EXPECT_NE(result.text.find("c-7:\n      templateOverrides:\n        labels: {clear.ml/resource-usage: \"0.142857\", "
                             "clearml-injector/fraction: \"0.250\"}\n"),
            std::string::npos);
  EXPECT_NE(result.text.find("c-15:\n      templateOverrides:\n        labels: {clear.ml/resource-usage: \"1.5\"}\n"
                             "        resources: {limits: {nvidia.com/gpu: 2}}\n"),
            std::string::npos);
  EXPECT_NE(result.text.find("s-7:\n      templateOverrides:\n        labels: {clear.ml/resource-usage: \"0.142857\"}\n"
                             "        resources: {limits: {nvidia.com/mig-1g.10gb: 1}}\n"),
            std::string::npos);
  EXPECT_EQ(result.findings[0].mark.line, 4);  // the pool: where gpuFractions goes

  ExportResult daemon = ExportClearmlAgent(config, {AgentMode::kDaemon, ""});
  EXPECT_EQ(Codes(daemon), (std::vector<std::string>{
                               "inexpressible-fraction profiles[seventh].allotment",
                               "inexpressible-fraction profiles[one-and-half].allotment",
                               "inexpressible-fraction pools[sliced].gpuFractions",
                               "inexpressible-fraction pools[sliced].gpuFractions",
                           }));
  EXPECT_NE(daemon.text.find("--gpus 0-1 --queue c-7=0.25 c-2=0.5 c-15=2 --docker\n"), std::string::npos) << daemon.text;
}

TEST(ExportClearmlAgent, ADynamicQueueGetsNoGpuLimit) {
  Config config = Valid(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: a, resources: 8}
profiles:
  - {name: sized, allotment: 1, dynamic: {parameter: runtime.gpus_request}, links: [{pool: a}]}
policies:
  - {name: t, profiles: [sized]}
)");
  ExportResult result = ExportClearmlAgent(config, {});
  ASSERT_EQ(Codes(result), (std::vector<std::string>{"dynamic-queue profiles[sized].dynamic"}));
  EXPECT_NE(result.findings[0].hint.find("CLEARML_K8S_GLUE_TEMPLATE_MODULE"), std::string::npos);
  EXPECT_EQ(result.text.find("nvidia.com/gpu"), std::string::npos) << result.text;
  EXPECT_NE(result.text.find("    a:\n      templateOverrides:\n        labels: {clear.ml/resource-usage: \"1\"}\n"),
            std::string::npos)
      << result.text;
  ExportResult daemon = ExportClearmlAgent(config, {AgentMode::kDaemon, ""});
  EXPECT_EQ(Codes(daemon), (std::vector<std::string>{"dynamic-queue profiles[sized].dynamic"}));
  EXPECT_NE(daemon.text.find("--queue a=1 --docker"), std::string::npos);
}

TEST(ExportClearmlAgent, PoolsTheAgentCannotMirrorExactly) {
  Config config = Valid(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: half, resources: 7.5, queue: -h}
  - {name: idle, resources: 4, paused: true}
  - {name: tiny, resources: "1/2"}
profiles:
  - {name: one, allotment: 1, links: [{pool: half}]}
  - {name: quarter, allotment: 0.25, links: [{pool: tiny}]}
policies:
  - {name: t, profiles: [one, quarter]}
)");
  ExportResult result = ExportClearmlAgent(config, {});
  EXPECT_EQ(Codes(result), (std::vector<std::string>{"unused-pool pools[idle]"}));
  EXPECT_NE(result.text.find("maxResources: 7.5\n"), std::string::npos);
  EXPECT_NE(result.text.find("# pool: idle\n# paused: "), std::string::npos);
  EXPECT_NE(result.text.find("  queues:\n    idle: {}\n"), std::string::npos) << result.text;
  ExportResult daemon = ExportClearmlAgent(config, {AgentMode::kDaemon, ""});
  EXPECT_EQ(Codes(daemon), (std::vector<std::string>{"fractional-pool-size pools[half].resources",
                                                      "option-like-queue pools[half].queue", "unused-pool pools[idle]",
                                                      "fractional-pool-size pools[tiny].resources"}));
  EXPECT_NE(daemon.text.find("--gpus 0-6 --queue -h=1 --docker\n"), std::string::npos) << daemon.text;
  EXPECT_NE(daemon.text.find("--gpus 0-0 --queue tiny=0.25 --docker\n"), std::string::npos) << daemon.text;
}

TEST(ExportClearmlAgent, OnePoolOrAnErrorNamingTheClosestPool) {
  Config config = FromFile(kTestdata / "examples" / "worked-example.yaml");
  ExportResult one = ExportClearmlAgent(config, {AgentMode::kK8sGlue, "H100 Half a Superpod"});
  EXPECT_TRUE(one.errors.empty());
  EXPECT_EQ(one.text.rfind("# pool: H100 Half a Superpod\n", 0), 0u);
  EXPECT_EQ(one.text.find("---"), std::string::npos);
  ExportResult none = ExportClearmlAgent(config, {AgentMode::kDaemon, "H100"});
  ASSERT_EQ(none.errors.size(), 1u);
  EXPECT_EQ(none.errors[0].code, "unknown-pool");
  EXPECT_TRUE(none.text.empty());
}

TEST(ExportClearmlAgent, DaemonGivesEachMachineOfAPoolItsOwnLine) {
  Config config = Valid(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: A100, nodes: {count: 3, gpus: 8}, queue: a100}
  - {name: Bag, resources: 16, queue: bag}
  - {name: Small, resources: 8, queue: small}
profiles:
  - {name: one, allotment: 1, links: [{pool: A100, queue: a100-1}, {pool: Bag}, {pool: Small}]}
  - {name: two-machines, allotment: 16, links: [{pool: A100}]}
policies: [{name: t, profiles: [one, two-machines]}]
)");
  const ExportResult daemon = ExportClearmlAgent(config, {AgentMode::kDaemon, ""});
  const std::string line = "clearml-agent daemon --dynamic-gpus --gpus 0-7 --queue a100-1=1 a100=16 --docker\n";
  EXPECT_EQ(daemon.text.substr(0, daemon.text.find("\n\n")),
            "# pool: A100\n# machine 1 of 3\n" + line + "# machine 2 of 3\n" + line + "# machine 3 of 3\n" +
                line.substr(0, line.size() - 1))
      << daemon.text;
  EXPECT_NE(daemon.text.find("# pool: Bag\nclearml-agent daemon --dynamic-gpus --gpus 0-15 "), std::string::npos);
  std::vector<std::string> codes;
  for (const ExportFinding& f : daemon.findings) codes.push_back(f.code + " " + f.path);
  EXPECT_EQ(codes, (std::vector<std::string>{"multi-machine-allotment profiles[two-machines].allotment",
                                             "one-agent-many-gpus pools[Bag].resources"}));
  for (const ExportFinding& f : daemon.findings) {
    if (f.code == "one-agent-many-gpus") {
      EXPECT_NE(f.message.find("one agent for 16 GPUs assumes one machine; give the pool `nodes`"), std::string::npos);
    }
  }
  // The Kubernetes glue: one pod runs on one machine.
  const ExportResult k8s = ExportClearmlAgent(config, {});
  codes.clear();
  for (const ExportFinding& f : k8s.findings) codes.push_back(f.code + " " + f.path);
  EXPECT_EQ(codes, (std::vector<std::string>{"multi-machine-allotment profiles[two-machines].allotment"}));
}

TEST(ExportClearmlAgent, JsonHoldsTheSameValuesAsTheYaml) {
  Config config = FromFile(kTestdata / "examples" / "worked-example.yaml");
  ExportResult result = ExportClearmlAgent(config, {AgentMode::kK8sGlue, "H100 Half a Superpod"});
  JsonWriter json;
  json.BeginObject();
  result.json_members(json);
  json.EndObject();
  EXPECT_NE(json.str().find(R"("h100-half":{"templateOverrides":{"labels":{"clear.ml/resource-usage":"0.5",)"
                            R"("clearml-injector/fraction":"0.500"}}})"),
            std::string::npos)
      << json.str();
  EXPECT_EQ(json.str().rfind(R"({"mode":"k8s-glue","chart":"enterprise","pools":[{"pool":"H100 Half a Superpod","paused":false,)", 0), 0u)
      << json.str();
}

// --- the whole export on generated configurations ---

/// Queue names a YAML or sh reader would misread unless quoted.
const std::vector<std::string> kHostileQueues = {
    "q", "yes", "Off", "null", "~", "0x10", "1e3", "a: b", "c #d", "[e]", "{f}", "&g", "*h", "!i", "%j",
    "@k", "`l`", "|m", ">n", "'o'", "\"p\"", "r\\s", "t, u", "caf\xC3\xA9", "v\xE2\x80\xA8w", "-x", "y=z", "$HOME",
};

Config GenAgentConfig() {
  Config c;
  const int pools = *rc::gen::inRange(1, 4);
  for (int x = 0; x < pools; ++x) {
    Pool pool;
    pool.name = "pool " + std::to_string(x) + *rc::gen::element<std::string>("", ": x", " #y", "\xE2\x80\xA8");
    pool.resources = *rc::gen::element(Quantity::Units(1), Quantity::Units(8), Quantity::Units(3), Q("7.5"), Q("20/3"));
    pool.paused = *rc::gen::inRange(0, 4) == 0;
    if (*rc::gen::arbitrary<bool>()) {
      pool.gpu_fractions.mig = true;
      for (const char* f : {"1/7", "2/7", "1/2"}) {
        if (*rc::gen::arbitrary<bool>()) pool.gpu_fractions.resources.push_back({Q(f), "nvidia.com/mig-" + std::string(f), {}});
      }
    }
    c.pools.push_back(pool);
  }
  const int profiles = *rc::gen::inRange(1, 6);
  for (int r = 0; r < profiles; ++r) {
    Profile profile;
    profile.name = "profile-" + std::to_string(r);
    profile.allotment = *rc::gen::oneOf(
        OneOfQuantity({"1", "2", "4", "8", "0.5", "0.25", "1/7", "2/7", "1/2", "1/16", "3/8", "1/3", "2/3", "1.5", "0.1", "7/8"}),
        rc::gen::map(rc::gen::inRange<int64_t>(1, 2 * Quantity::kTicksPerUnit), [](int64_t t) { return Quantity::FromTicks(t); }));
    if (*rc::gen::inRange(0, 4) == 0) profile.dynamic_parameter = "runtime.gpus_request";
    for (int x = 0; x < pools; ++x) {
      if (*rc::gen::inRange(0, 3) == 0) continue;
      Link link = LinkTo(c.pools[x].name);
      // A queue of its own (one of the hostile names, made unique to its pool), or the pool's.
      if (*rc::gen::arbitrary<bool>()) link.queue = *rc::gen::elementOf(kHostileQueues) + "/" + std::to_string(x);
      profile.links.push_back(link);
    }
    c.profiles.push_back(profile);
  }
  Policy policy;
  policy.name = "team";
  for (const Profile& profile : c.profiles) {
    if (*rc::gen::inRange(0, 4) != 0) policy.profiles.push_back({profile.name, std::nullopt, {}, {}, {}});
  }
  c.policies.push_back(policy);
  for (Pool& pool : c.pools) pool.queue = *rc::gen::elementOf(kHostileQueues) + " pool";
  for (size_t x = 0; x < c.pools.size(); ++x) c.pools[x].queue += std::to_string(x);
  ApplyDefaults(c);
  return c;
}

/// Words of a line as sh splits it: plain words, single quotes and
/// backslash escapes outside them.
std::vector<std::string> ShellWords(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, quoted = false, escaped = false;
  for (char ch : line) {
    if (escaped) {
      word += ch;
      escaped = false;
    } else if (quoted) {
      if (ch == '\'') quoted = false; else word += ch;
    } else if (ch == '\'' || ch == '\\') {
      quoted = ch == '\'';
      escaped = ch == '\\';
      in_word = true;
    } else if (ch == ' ') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += ch;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

RC_GTEST_PROP(ExportClearmlAgentProperty, HelmValuesReadBackAsTheQueuesTheirSizesAndTheFindings, ()) {
  const Config config = GenAgentConfig();
  const ExportResult result = ExportClearmlAgent(config, {});
  RC_ASSERT(result.errors.empty());
  const std::vector<YAML::Node> docs = YAML::LoadAll(result.text);
  RC_ASSERT(docs.size() == config.pools.size());
  bool faithful = true;
  for (size_t x = 0; x < docs.size(); ++x) {
    const Pool& pool = config.pools[x];
    const YAML::Node glue = docs[x]["agentk8sglue"];
    RC_ASSERT(glue["createQueues"].as<bool>());
    RC_ASSERT(*ParseQuantity(glue["monitoredResources"]["maxResources"].as<std::string>()) == RoundDownToMicro(pool.resources));
    const std::vector<AgentQueue> queues = PoolAgentQueues(config, pool);
    faithful &= !queues.empty();
    std::vector<std::string> keys;
    for (const auto& item : glue["queues"]) keys.push_back(item.first.as<std::string>());
    std::vector<std::string> names;
    for (const AgentQueue& q : queues) names.push_back(q.name);
    RC_ASSERT(keys == (names.empty() ? std::vector<std::string>{pool.queue} : names));
    for (const AgentQueue& q : queues) {
      const Quantity allotment = q.largest->allotment;
      const YAML::Node overrides = glue["queues"][q.name]["templateOverrides"];
      const Quantity label = *ParseQuantity(overrides["labels"]["clear.ml/resource-usage"].as<std::string>());
      RC_ASSERT(label == RoundDownToMicro(allotment));
      if (q.dynamic) {
        RC_ASSERT(!overrides["resources"]);
        faithful = false;
        continue;
      }
      faithful &= !q.mixed;
      Quantity given;
      if (const YAML::Node fraction = overrides["labels"]["clearml-injector/fraction"]) {
        RC_ASSERT(!pool.gpu_fractions.mig);
        given = *ParseQuantity(fraction.as<std::string>());
        RC_ASSERT(!overrides["resources"]);
      } else {
        const YAML::Node limits = overrides["resources"]["limits"];
        RC_ASSERT(limits.size() == 1u);
        const std::string resource = limits.begin()->first.as<std::string>();
        const int64_t count = limits.begin()->second.as<int64_t>();
        if (resource == "nvidia.com/gpu") {
          given = Quantity::Units(count);
        } else {
          RC_ASSERT(count == 1);
          for (const auto& mig : pool.gpu_fractions.resources) if (mig.resource == resource) given = mig.fraction;
        }
      }
      RC_ASSERT(given >= allotment);  // a task never gets less than rescfg accounts for it
      faithful &= given == allotment;
    }
  }
  RC_ASSERT(result.findings.empty() == faithful);
}

RC_GTEST_PROP(ExportClearmlAgentProperty, DaemonCommandLinesSplitIntoTheQueuesAndAmountsTheAgentTakes, ()) {
  const Config config = GenAgentConfig();
  const ExportResult result = ExportClearmlAgent(config, {AgentMode::kDaemon, ""});
  std::vector<std::string> commands;
  std::string line;
  for (char ch : result.text) {
    if (ch != '\n') { line += ch; continue; }
    if (!line.empty() && line[0] != '#') commands.push_back(line);
    line.clear();
  }
  size_t next = 0;
  bool faithful = true;
  const Quantity eighth = Quantity::FromTicks(Quantity::kTicksPerUnit / 8);
  for (const Pool& pool : config.pools) {
    const std::vector<AgentQueue> queues = PoolAgentQueues(config, pool);
    if (queues.empty()) { faithful = false; continue; }
    RC_ASSERT(next < commands.size());
    const std::vector<std::string> words = ShellWords(commands[next++]);
    const int64_t devices = std::max<int64_t>(1, static_cast<int64_t>(pool.resources.ticks() / Quantity::kTicksPerUnit));
    RC_ASSERT(words.size() == queues.size() + 7);
    RC_ASSERT((std::vector<std::string>(words.begin(), words.begin() + 6)) ==
              (std::vector<std::string>{"clearml-agent", "daemon", "--dynamic-gpus", "--gpus", "0-" + std::to_string(devices - 1), "--queue"}));
    RC_ASSERT(words.back() == "--docker");
    faithful &= pool.resources.is_whole();
    for (size_t i = 0; i < queues.size(); ++i) {
      const std::string& word = words[6 + i];
      const size_t eq = word.rfind('=');
      RC_ASSERT(word.substr(0, eq) == queues[i].name);
      const Quantity amount = *ParseQuantity(word.substr(eq + 1));
      const Quantity allotment = queues[i].largest->allotment;
      RC_ASSERT(amount >= allotment);
      RC_ASSERT(amount.is_whole() || (amount < Quantity::Units(1) && amount.ticks() % eighth.ticks() == 0));
      faithful &= amount == allotment && !queues[i].mixed && !queues[i].dynamic && !queues[i].name.starts_with("-") &&
                  (amount.is_whole() || !pool.gpu_fractions.mig);
    }
  }
  RC_ASSERT(next == commands.size());
  RC_ASSERT(result.findings.empty() == faithful);
}

TEST(YamlKey, QuotesWhatAYamlReaderWouldReadAsSomethingElse) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"h100-2gpu", "h100-2gpu"},     {"nvidia.com/gpu", "nvidia.com/gpu"}, {"yes", "\"yes\""},
      {"Off", "\"Off\""},             {"null", "\"null\""},                 {"y", "\"y\""},
      {"2gpu", "\"2gpu\""},           {"0x10", "\"0x10\""},                 {"a b", "\"a b\""},
      {"a: b", "\"a: b\""},           {"-x", "\"-x\""},                     {"q#1", "\"q#1\""},
      {"{x}", "\"{x}\""},             {"*ref", "\"*ref\""},                 {"\"q\"", "\"\\\"q\\\"\""},
      {"caf\xC3\xA9", "\"caf\xC3\xA9\""}, {"a\xE2\x80\xA8" "b", "\"a\\u2028b\""}, {"yesterday", "yesterday"},
  };
  for (auto [key, yaml] : cases) EXPECT_EQ(YamlKey(key), yaml) << key;
}

}  // namespace
}  // namespace rescfg
