// Messages that say what was wrong: English ordinals, and the bound of a
// whole number in the configuration (rescfg.5, bad-nodes).

#include <gtest/gtest.h>

#include "config/loader.h"
#include "util/ordinal.h"

namespace rescfg {
namespace {

TEST(PolishMessages, EnglishOrdinals) {
  EXPECT_EQ(EnglishOrdinal(1), "1st");
  EXPECT_EQ(EnglishOrdinal(2), "2nd");
  EXPECT_EQ(EnglishOrdinal(3), "3rd");
  EXPECT_EQ(EnglishOrdinal(4), "4th");
  EXPECT_EQ(EnglishOrdinal(11), "11th");
  EXPECT_EQ(EnglishOrdinal(12), "12th");
  EXPECT_EQ(EnglishOrdinal(13), "13th");
  EXPECT_EQ(EnglishOrdinal(21), "21st");
  EXPECT_EQ(EnglishOrdinal(102), "102nd");
  EXPECT_EQ(EnglishOrdinal(111), "111th");
}

TEST(PolishMessages, NodesCountSaysItsBound) {
  auto loaded = LoadConfigText(
      "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n"
      "pools: [{name: A, nodes: {count: 1000000000000, gpus: 8}}]\n",
      "c.yaml");
  bool seen = false;
  for (const auto& f : loaded.findings) {
    if (f.code != "bad-nodes") continue;
    seen = true;
    EXPECT_NE(f.message.find("from 1 to 1000000"), std::string::npos) << f.message;
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace rescfg
