#include "support/kueue_export.h"

#include "config/loader.h"
#include "validate/validate.h"

namespace rescfg::testing {

std::optional<Config> ValidConfig(const std::string& body) {
  LoadedConfig loaded = LoadConfigText("apiVersion: rescfg/v1\nkind: ResourceConfiguration\n" + body, "c.yaml");
  if (!loaded.config) return std::nullopt;
  ValidateConfig(*loaded.config, "c.yaml", &loaded.findings);
  if (HasErrors(loaded.findings)) return std::nullopt;
  ApplyDefaults(*loaded.config);
  return loaded.config;
}

KueueMade MakeKueue(const Config& config) {
  KueueMade m;
  m.names = NameKueueObjects(config, "c.yaml", &m.errors);
  m.requests = DescribeRequests(config, &m.findings);
  m.quota = SplitQuota(config, m.requests.units, "c.yaml", &m.findings, &m.errors);
  if (!m.errors.empty()) return m;
  m.priorities = RankPolicyQueues(config, m.names.queues, &m.findings);
  m.objects = BuildKueueObjects({config, m.names, m.requests, m.quota, m.priorities}, "c.yaml", &m.errors, &m.findings);
  return m;
}

std::vector<std::string> FindingCodes(const std::vector<ExportFinding>& findings) {
  std::vector<std::string> out;
  for (const ExportFinding& f : findings) out.push_back(f.code + " " + f.path);
  return out;
}

}  // namespace rescfg::testing
