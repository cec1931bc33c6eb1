#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/loader.h"
#include "output/findings_output.h"
#include "support/test_paths.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

namespace fs = std::filesystem;

const fs::path kTestdata = fs::path(RESCFG_SOURCE_DIR) / "testdata";

/// Loader and validation findings of a file, as "code line:col", in order.
std::vector<std::string> Findings(const LoadedConfig& loaded) {
  std::vector<std::string> out;
  for (const auto& f : loaded.findings) {
    out.push_back(f.code + " " + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column));
  }
  return out;
}

LoadedConfig Check(LoadedConfig loaded) {
  if (loaded.config) ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  SortFindings(loaded.findings.begin(), loaded.findings.end());
  return loaded;
}

LoadedConfig CheckText(const std::string& text) { return Check(LoadConfigText(text, "test.yaml")); }

std::vector<fs::path> YamlFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// The "# expect: CODE LINE:COL" lines at the top of a testdata file.
std::vector<std::string> Expectations(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line) && line.rfind("# expect: ", 0) == 0) out.push_back(line.substr(10));
  return out;
}

TEST(ValidateTestdata, EveryInvalidFileGivesExactlyItsExpectedFindings) {
  auto files = YamlFiles(kTestdata / "invalid");
  ASSERT_GE(files.size(), 40u);
  for (const auto& file : files) {
    auto expected = Expectations(file);
    ASSERT_FALSE(expected.empty()) << file << " has no '# expect:' line";
    EXPECT_EQ(Findings(Check(LoadConfigFile(file.string()))), expected) << file;
  }
}

TEST(ValidateTestdata, EveryCodeHasAFile) {
  std::set<std::string> covered;
  for (const auto& file : YamlFiles(kTestdata / "invalid")) {
    for (const auto& e : Expectations(file)) covered.insert(e.substr(0, e.find(' ')));
  }
  for (const char* code :
       {"yaml-syntax", "invalid-utf8", "multiple-documents", "wrong-type", "missing-field",
        "unknown-key", "duplicate-key", "bad-quantity", "bad-name", "bad-value", "bad-api-version",
        "bad-kind", "duplicate-name", "duplicate-link", "duplicate-policy-profile",
        "duplicate-queue", "unknown-reference", "unlinked-profile", "priority-mismatch",
        "reserved-above-limit", "allotment-above-limit", "bad-dynamic-parameter",
        "allotment-too-large", "reservations-unsatisfiable", "fractional-pool-size",
        "near-fraction", "unused-pool", "unused-profile", "empty-policy",
        "limit-below-allotment", "bad-text", "bad-gpu-fractions", "shared-queue", "policy-queue-clash",
        "mixed-queue", "bad-kubernetes", "bad-nodes", "nodes-resources-mismatch", "guaranteed-above-resources",
        "allotment-fits-no-machine", "bad-duration", "preemption-without-reservation", "rename-clash",
        "rename-chain", "rename-loop", "duplicate-rename", "multi-machine-allotment", "dynamic-queue", "k8s-machine-names"}) {
    EXPECT_TRUE(covered.count(code)) << "no testdata/invalid file expects " << code;
  }
}

TEST(ValidateTestdata, ValidFilesHaveNoFindingsAtAll) {
  auto files = YamlFiles(kTestdata / "valid");
  ASSERT_GE(files.size(), 3u);
  for (const auto& file : files) {
    auto loaded = Check(LoadConfigFile(file.string()));
    EXPECT_FALSE(loaded.unusable) << file;
    EXPECT_EQ(Findings(loaded), std::vector<std::string>{}) << file;
  }
}

TEST(ValidateTestdata, ExampleConfigurationsHaveNoErrors) {
  int configs = 0;
  for (const auto& file : YamlFiles(kTestdata / "examples")) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find("kind: ResourceConfiguration") == std::string::npos) continue;
    ++configs;
    auto loaded = Check(LoadConfigFile(file.string()));
    EXPECT_FALSE(HasErrors(loaded.findings)) << file;
  }
  EXPECT_GE(configs, 1);
}

const char* kHead = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n";

/// Codes of all findings for a configuration body.
std::vector<std::string> Codes(const std::string& body) {
  std::vector<std::string> codes;
  for (const auto& f : CheckText(kHead + body).findings) codes.push_back(f.code);
  return codes;
}

const Finding* FindCode(const LoadedConfig& loaded, const std::string& code) {
  for (const auto& f : loaded.findings) if (f.code == code) return &f;
  return nullptr;
}

TEST(Validate, ReportsPathsWithZeroBasedIndexes) {
  auto loaded = CheckText(std::string(kHead) + R"(pools: [{name: H100, resources: 8}]
profiles:
  - name: 4xGPU
    allotment: 4
    links: [{pool: H100}, {pool: H10}]
policies: [{name: p, profiles: [4xGPU]}]
)");
  const Finding* f = FindCode(loaded, "unknown-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->path, "profiles[4xGPU].links[1].pool");
  EXPECT_EQ(f->hint, "did you mean 'H100'?");
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->file, "test.yaml");
}

TEST(Validate, FindingsComeInFileOrder) {
  auto loaded = CheckText(std::string(kHead) + R"(pools:
  - {name: spare, resources: 2.5}
  - {name: a, resources: 8}
profiles:
  - {name: one, allotment: 1, links: [{pool: a}, {pool: nowhere}]}
  - {name: one, allotment: 1, links: [{pool: a}]}
policies:
  - {name: p, reserved: 9, limit: 4, profiles: [one, two]}
)");
  std::vector<std::pair<int, int>> marks;
  for (const auto& f : loaded.findings) marks.push_back({f.mark.line, f.mark.column});
  EXPECT_TRUE(std::is_sorted(marks.begin(), marks.end()));
  EXPECT_EQ(Findings(loaded),
            (std::vector<std::string>{"unused-pool 4:12", "fractional-pool-size 4:30",
                                      "unknown-reference 7:57", "duplicate-name 8:12",
                                      "reserved-above-limit 10:25", "unknown-reference 10:54"}));
}

TEST(Validate, ReservationCheckNeedsHallNotJustTheGlobalSum) {
  // 12 reserved, 16 in pools, but both policies only reach the 8-GPU pool.
  auto loaded = CheckText(std::string(kHead) + R"(pools: [{name: small, resources: 8}, {name: large, resources: 8}]
profiles:
  - {name: 2xGPU, allotment: 2, links: [{pool: small}]}
  - {name: 8xGPU, allotment: 8, links: [{pool: large}]}
policies:
  - {name: Dev, reserved: 6, profiles: [2xGPU]}
  - {name: Research, reserved: 6, profiles: [2xGPU]}
  - {name: Batch, reserved: 8, profiles: [8xGPU]}
)");
  const Finding* f = FindCode(loaded, "reservations-unsatisfiable");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->path, "policies[Dev].reserved");
  EXPECT_NE(f->message.find("'Dev' (6) and 'Research' (6) reserve 12"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("'small' (8)"), std::string::npos) << f->message;
  EXPECT_EQ(f->message.find("Batch"), std::string::npos) << f->message;
  EXPECT_EQ(f->hint, "lower these reservations by 4 in total, or link their profiles to more pools");
}

TEST(Validate, ReservationsThatFitDifferentPoolsPass) {
  const std::string body = R"(pools: [{name: large, resources: 12}, {name: small, resources: 4}]
profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: small, queue: s8}, {pool: large, queue: l8}]}
  - {name: 1xGPU, allotment: 1, links: [{pool: small}]}
  - {name: 2xGPU, allotment: 2, links: [{pool: large, queue: l2}, {pool: small, queue: s2}]}
policies:
  - {name: Dev, reserved: 8, profiles: [8xGPU]}
  - {name: Ops, reserved: 4, profiles: [1xGPU]}
  - {name: Research, reserved: RESEARCH, profiles: [2xGPU]}
)";
  auto with = [&](const char* research) {
    std::string text = body;
    text.replace(text.find("RESEARCH"), 8, research);
    return Codes(text);
  };
  EXPECT_EQ(with("4"), std::vector<std::string>{});
  // One more and the 16 GPUs cannot hold 17.
  EXPECT_EQ(with("4.000001"), std::vector<std::string>{"reservations-unsatisfiable"});
}

TEST(Validate, ReservationArithmeticIsExact) {
  auto sevenths = [](const char* each) {
    std::string text = "pools: [{name: one, resources: 1}]\nprofiles:\n"
                       "  - {name: s, allotment: \"1/7\", links: [{pool: one}]}\npolicies:\n";
    for (int i = 0; i < 7; ++i) {
      text += "  - {name: p" + std::to_string(i) + ", reserved: " + each + ", profiles: [s]}\n";
    }
    return Codes(text);
  };
  EXPECT_EQ(sevenths("\"1/7\""), std::vector<std::string>{});
  EXPECT_EQ(sevenths("0.143"), std::vector<std::string>{"reservations-unsatisfiable"});
}

TEST(Validate, DynamicProfilesReachEveryLinkedPool) {
  const std::string body = R"(pools: [{name: small, resources: 2}]
profiles:
  - name: big
    allotment: 8
    DYNAMIC
    links: [{pool: small}]
policies: [{name: p, reserved: 2, profiles: [big]}]
)";
  auto with = [&](const char* dynamic) {
    std::string text = body;
    text.replace(text.find("DYNAMIC"), 7, dynamic);
    return Codes(text);
  };
  EXPECT_EQ(with("dynamic: {parameter: runtime.gpus}"), std::vector<std::string>{});
  EXPECT_EQ(with("description: fixed"), std::vector<std::string>{"allotment-too-large"})
      << "a fixed 8-GPU profile cannot use a 2-GPU pool";
}

TEST(Validate, ReservationCheckWaitsForOtherErrors) {
  // The unknown pool would make the reservation look unsatisfiable.
  EXPECT_EQ(Codes(R"(pools: [{name: a, resources: 8}]
profiles: [{name: one, allotment: 1, links: [{pool: b}]}]
policies: [{name: p, reserved: 8, profiles: [one]}]
)"),
            (std::vector<std::string>{"unused-pool", "unknown-reference"}));
}

TEST(Validate, DynamicParameterPaths) {
  auto codes = [](const std::string& parameter) {
    return Codes("pools: [{name: a, resources: 8}]\nprofiles:\n  - {name: d, allotment: 1, "
                 "dynamic: {parameter: \"" + parameter + "\"}, links: [{pool: a}]}\n"
                 "policies: [{name: p, profiles: [d]}]\n");
  };
  for (const char* good : {"runtime.gpus_request", "runtime.a.b", "hyperparams.Args.cost",
                           "hyperparams.Args.with.dots", "configuration.test"}) {
    EXPECT_EQ(codes(good), std::vector<std::string>{}) << good;
  }
  for (const char* bad : {"runtime.", "runtime", "hyperparams.Args", "hyperparams.Args.",
                          "hyperparams..cost", "configuration.", "env.GPUS", "Runtime.gpus",
                          "params.runtime.gpus"}) {
    EXPECT_EQ(codes(bad), std::vector<std::string>{"bad-dynamic-parameter"}) << bad;
  }
}

TEST(Validate, NearFractionWarnsOnlyWhenCloseButNotEqual) {
  auto codes = [](const std::string& allotment) {
    return Codes("pools: [{name: a, resources: 8}]\nprofiles:\n  - {name: d, allotment: " +
                 allotment + ", links: [{pool: a}]}\npolicies: [{name: p, profiles: [d]}]\n");
  };
  for (const char* near : {"0.143", "0.333", "0.3333", "0.501", "0.0667", "0.09", "0.2499"}) {
    EXPECT_EQ(codes(near), std::vector<std::string>{"near-fraction"}) << near;
  }
  for (const char* fine : {"0.5", "0.25", "\"1/3\"", "\"1/7\"", "0.0625", "0.3", "0.45", "0.15",
                           "1", "0.989"}) {
    EXPECT_EQ(codes(fine), std::vector<std::string>{}) << fine;
  }
  // The value counts, not how it is written: this is 0.143.
  EXPECT_EQ(codes("\"1001/7000\""), std::vector<std::string>{"near-fraction"});
  auto loaded = CheckText(std::string(kHead) +
                          "pools: [{name: a, resources: 1}]\nprofiles:\n  - {name: d, allotment: "
                          "0.333, links: [{pool: a}]}\npolicies: [{name: p, profiles: [d]}]\n");
  const Finding* f = FindCode(loaded, "near-fraction");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->hint, "use \"1/3\"");
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->message.find("3 such jobs need 0.999, not 1"), std::string::npos) << f->message;
}

TEST(Validate, LimitBelowAllotmentWarnsOnlyForDynamicProfiles) {
  const std::string pools = "pools: [{name: a, resources: 8}]\n";
  EXPECT_EQ(Codes(pools + R"(profiles:
  - {name: d, allotment: 4, dynamic: {parameter: runtime.g}, links: [{pool: a}]}
policies: [{name: p, limit: 2, profiles: [d]}]
)"),
            std::vector<std::string>{"limit-below-allotment"});
  EXPECT_EQ(Codes(pools + R"(profiles:
  - {name: f, allotment: 4, links: [{pool: a}]}
policies: [{name: p, limit: 2, profiles: [f]}]
)"),
            std::vector<std::string>{"allotment-above-limit"});
  EXPECT_EQ(Codes(pools + R"(profiles:
  - {name: d, allotment: 4, dynamic: {parameter: runtime.g}, links: [{pool: a}]}
  - {name: f, allotment: 1, links: [{pool: a, queue: a-1}]}
policies: [{name: p, limit: 2, profiles: [d, f]}]
)"),
            std::vector<std::string>{});
}

TEST(Validate, AMigMapWithoutAProfilesFractionWarnsAtTheMap) {
  const std::string text = std::string(kHead) + R"(pools:
  - name: H100
    resources: 8
    gpuFractions: {mig: {"1/7": nvidia.com/mig-1g.10gb}}
  - {name: T4, resources: 8}
profiles:
  - {name: seventh, allotment: "1/7", links: [{pool: H100, queue: h-7}]}
  - {name: half, allotment: 0.5, links: [{pool: H100, queue: h-2}, {pool: T4}]}
  - {name: half-too, allotment: "1/2", links: [{pool: H100, queue: h-2b}]}
  - {name: dyn, allotment: 0.25, dynamic: {parameter: runtime.g}, links: [{pool: H100, queue: h-d}]}
  - {name: whole, allotment: 2, links: [{pool: H100, queue: h-w}]}
policies: [{name: p, profiles: [seventh, half, half-too, dyn, whole]}]
)";
  auto loaded = CheckText(text);
  EXPECT_EQ(Findings(loaded), std::vector<std::string>{"mig-fraction-unmapped 6:19"});  // once for 0.5
  const Finding* f = FindCode(loaded, "mig-fraction-unmapped");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->path, "pools[H100].gpuFractions.mig");
  EXPECT_NE(f->message.find("maps none to 0.5, the allotment of profile 'half'"), std::string::npos) << f->message;
  EXPECT_NE(f->hint.find("add \"0.5\": RESOURCE"), std::string::npos) << f->hint;
}

TEST(Validate, PriorityListsMustBeExactlyTheSet) {
  const std::string rest = R"(profiles:
  - {name: one, allotment: 1, links: [{pool: a}]}
  - {name: two, allotment: 1, links: [{pool: a}]}
policies: [{name: p, profiles: [one, two]}]
)";
  auto codes = [&](const char* priority) {
    return Codes(std::string("pools: [{name: a, resources: 8, executionPriority: ") + priority +
                 "}]\n" + rest);
  };
  EXPECT_EQ(codes("[two, one]"), std::vector<std::string>{});
  EXPECT_EQ(codes("[]"), std::vector<std::string>{"priority-mismatch"});
  EXPECT_EQ(codes("[one]"), std::vector<std::string>{"priority-mismatch"});
  EXPECT_EQ(codes("[one, two, one]"), std::vector<std::string>{"priority-mismatch"});
  EXPECT_EQ(codes("[one, tow]"), std::vector<std::string>{"unknown-reference"});
  EXPECT_EQ(codes("[one, two, three]"), std::vector<std::string>{"unknown-reference"});
}

TEST(Validate, QueuesAreComparedAfterDefaults) {
  const std::string head = R"(pools: [{name: a, resources: 8}]
profiles:
  - {name: one, allotment: 1, links: [{pool: a}]}
  - {name: two, allotment: 1, links: [{pool: a}]}
)";
  EXPECT_EQ(Codes(head + "policies:\n  - {name: p, profiles: [one, {profile: two, queue: p/one}]}\n"),
            std::vector<std::string>{"duplicate-queue"});
  EXPECT_EQ(Codes(head + "policies:\n  - {name: p, profiles: [one, {profile: two, queue: p/two}]}\n"),
            std::vector<std::string>{});
  EXPECT_EQ(Codes(head + "policies:\n  - {name: p, profiles: [one, two]}\n  - {name: p, profiles: [one]}\n"),
            std::vector<std::string>{"duplicate-name"})
      << "a policy named twice is reported once, not also for its default queues";
  EXPECT_EQ(Codes(head + "policies:\n  - {name: p, profiles: [one, one]}\n"),
            (std::vector<std::string>{"unused-profile", "duplicate-policy-profile"}))
      << "a profile listed twice is reported once, not also as a duplicate queue";
}

TEST(FindingsOutput, EscapesForEachFormat) {
  FileFindings file{"a\"b.yaml",
                    {{"bad-name", Severity::kError, "a\"b.yaml", {3, 7}, "pools[x]",
                      "line\nbreak \x01 \\ 50%", ""},
                     {"unused-pool", Severity::kWarning, "a\"b.yaml", {}, "", "w", "h"}},
                    false};
  EXPECT_EQ(RenderFindings({file}, FindingsFormat::kText, false),
            "a\"b.yaml:3:7: error[bad-name]: pools[x]: line break \x01 \\ 50%\n"
            "a\"b.yaml: warning[unused-pool]: w (h)\n");
  EXPECT_EQ(RenderFindings({file}, FindingsFormat::kGithub, false),
            "::error file=a\"b.yaml,line=3,col=7,title=bad-name::pools[x]: line%0Abreak \x01 \\ 50%25\n"
            "::warning file=a\"b.yaml,title=unused-pool::w (h)\n");
  std::string json = RenderFindings({file}, FindingsFormat::kJson, true);
  EXPECT_NE(json.find(R"("file": "a\"b.yaml")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("message": "line\nbreak \u0001 \\ 50%")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("line": null, "column": null, "path": null, "message": "w", "hint": "h")"),
            std::string::npos) << json;
  EXPECT_NE(json.find(R"("valid": false)"), std::string::npos);
  EXPECT_FALSE(file.valid(false));
  file.findings.erase(file.findings.begin());
  EXPECT_TRUE(file.valid(false));
  EXPECT_FALSE(file.valid(true)) << "--strict fails on warnings";
  EXPECT_EQ(SummarizeFindings({file}, true),
            "1 file checked: 1 invalid (0 errors, 1 warning); warnings fail with --strict");
}

/// A random small configuration: pools, fixed or dynamic profiles linking
/// some of them, policies reserving amounts through some profiles.
Config RandomConfig() {
  Config config;
  int pools = *rc::gen::inRange(1, 5), profiles = *rc::gen::inRange(1, 5),
      policies = *rc::gen::inRange(1, 6);
  for (int i = 0; i < pools; ++i) {
    Pool pool;
    pool.name = "pool" + std::to_string(i);
    pool.resources = Quantity::Units(*rc::gen::inRange(1, 9));
    config.pools.push_back(pool);
  }
  for (int i = 0; i < profiles; ++i) {
    Profile profile;
    profile.name = "profile" + std::to_string(i);
    profile.allotment = Quantity::Units(*rc::gen::inRange(1, 9));
    if (*rc::gen::inRange(0, 4) == 0) profile.dynamic_parameter = "runtime.gpus";
    for (int p = 0; p < pools; ++p) {
      if (*rc::gen::inRange(0, 2)) profile.links.push_back(LinkTo(config.pools[p].name));
    }
    if (profile.links.empty()) profile.links.push_back(LinkTo(config.pools[0].name));
    config.profiles.push_back(profile);
  }
  for (int i = 0; i < policies; ++i) {
    Policy policy;
    policy.name = "policy" + std::to_string(i);
    policy.reserved = Quantity::FromTicks(Quantity::kTicksPerUnit * *rc::gen::inRange(0, 25) / 2);
    for (int p = 0; p < profiles; ++p) {
      if (*rc::gen::inRange(0, 3) == 0) policy.profiles.push_back({config.profiles[p].name, {}, {}, {}, {}});
    }
    config.policies.push_back(policy);
  }
  return config;
}

/// Hall's condition by brute force over every set of policies.
bool AllReservationsFit(const Config& config) {
  size_t n = config.policies.size();
  for (unsigned set = 1; set < (1u << n); ++set) {
    Quantity reserved, capacity;
    std::set<std::string> reached;
    for (size_t i = 0; i < n; ++i) {
      if (!(set & (1u << i))) continue;
      reserved += config.policies[i].reserved;
      for (const auto& entry : config.policies[i].profiles) {
        const Profile* profile = config.FindProfile(entry.profile);
        for (const auto& link : profile->links) {
          const Pool* pool = config.FindPool(link.pool);
          if (profile->dynamic_parameter || profile->allotment <= pool->resources) reached.insert(pool->name);
        }
      }
    }
    for (const auto& name : reached) capacity += config.FindPool(name)->resources;
    if (reserved > capacity) return false;
  }
  return true;
}

RC_GTEST_PROP(ValidateProps, ReservationCheckAgreesWithHallsCondition, ()) {
  Config config = RandomConfig();
  std::vector<Finding> findings;
  ValidateConfig(config, "random.yaml", &findings);
  bool reported = std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return f.code == "reservations-unsatisfiable";
  });
  // The check only runs on a configuration without other errors.
  RC_PRE(!std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return f.severity == Severity::kError && f.code != "reservations-unsatisfiable";
  }));
  RC_CLASSIFY(reported);
  RC_ASSERT(reported == !AllReservationsFit(config));
}

}  // namespace
}  // namespace rescfg
