/// --accept of both exports: the codes it takes, and that every code an
/// export reports on the configurations under testdata/ is one it takes
/// (so that no finding can ever be impossible to accept).

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "config/loader.h"
#include "export/accept.h"
#include "export/clearml_agent.h"
#include "export/kueue.h"
#include "support/test_paths.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

namespace fs = std::filesystem;

TEST(ExportAccept, CommaSeparatedRepeatableAndBlanksIgnored) {
  std::set<std::string> codes;
  std::string error;
  ASSERT_TRUE(ParseAcceptedCodes({"kueue-split-limit, kueue-rounded", "", " kueue-fraction ,"}, "kueue", &codes, &error))
      << error;
  EXPECT_EQ(codes, (std::set<std::string>{"kueue-fraction", "kueue-rounded", "kueue-split-limit"}));
  ExportFinding finding;
  finding.code = "kueue-rounded";
  EXPECT_TRUE(IsAccepted(finding, codes));
  finding.code = "kueue-split-reservation";
  EXPECT_FALSE(IsAccepted(finding, codes));
}

TEST(ExportAccept, ACodeTheTargetNeverReportsIsAnErrorWithTheClosestCode) {
  std::set<std::string> codes;
  std::string error;
  EXPECT_FALSE(ParseAcceptedCodes({"mixed-queue,kueue-split-limt"}, "kueue", &codes, &error));
  EXPECT_EQ(error.rfind("--accept: export kueue reports no finding 'mixed-queue'", 0), 0u) << error;
  error.clear();
  EXPECT_FALSE(ParseAcceptedCodes({"kueue-split-limt"}, "kueue", &codes, &error));
  EXPECT_NE(error.find("(did you mean 'kueue-split-limit'?)"), std::string::npos) << error;
  EXPECT_FALSE(ParseAcceptedCodes({"kueue-split-limit"}, "clearml-agent", &codes, &error));
  EXPECT_TRUE(ParseAcceptedCodes({"mixed-queue,one-agent-many-gpus"}, "clearml-agent", &codes, &error));
}

TEST(ExportAccept, EveryCodeAnExportReportsCanBeAccepted) {
  const auto& agent = ExportFindingCodes("clearml-agent");
  const auto& kueue = ExportFindingCodes("kueue");
  std::set<std::string> seen;
  size_t configs = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(RESCFG_SOURCE_DIR) / "testdata")) {
    if (entry.path().extension() != ".yaml") continue;
    LoadedConfig loaded = LoadConfigFile(entry.path().string());
    if (!loaded.config) continue;
    ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
    if (HasErrors(loaded.findings)) continue;
    ApplyDefaults(*loaded.config);
    ++configs;
    for (const ClearmlAgentOptions& options :
         {ClearmlAgentOptions{AgentMode::kK8sGlue, "", AgentChart::kEnterprise},
          ClearmlAgentOptions{AgentMode::kK8sGlue, "", AgentChart::kOpen},
          ClearmlAgentOptions{AgentMode::kDaemon, "", AgentChart::kEnterprise}}) {
      for (const ExportFinding& f : ExportClearmlAgent(*loaded.config, options).findings) {
        EXPECT_NE(std::find(agent.begin(), agent.end(), f.code), agent.end()) << f.code << " in " << entry.path();
        seen.insert(f.code);
      }
    }
    for (const ExportFinding& f : ExportKueue(*loaded.config, loaded.file).findings) {
      EXPECT_NE(std::find(kueue.begin(), kueue.end(), f.code), kueue.end()) << f.code << " in " << entry.path();
      seen.insert(f.code);
    }
  }
  EXPECT_GE(configs, 40u);
  // The common ones are exercised here; the rest by their own tests.
  for (const char* code : {"mixed-queue", "dynamic-queue", "inexpressible-fraction", "open-chart",
                           "kueue-split-reservation", "kueue-fixed-allotment", "kueue-fraction"}) {
    EXPECT_TRUE(seen.count(code)) << code;
  }
}

}  // namespace
}  // namespace rescfg
