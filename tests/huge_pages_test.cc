/// Large blocks are advised for transparent huge pages: the mapping that
/// holds them carries the kernel's "hg" flag (MADV_HUGEPAGE) in
/// /proc/self/smaps, whether or not huge pages are granted.

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "util/huge_pages.h"

namespace rescfg {
namespace {

/// The VmFlags of the mapping that holds `p`; "" when not found.
std::string VmFlagsOf(const void* p) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

bool HugePagesKnown() { return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(); }

bool Advised(const void* p) { return VmFlagsOf(p).find(" hg") != std::string::npos; }

/// An anonymous mapping of its own, never advised before.
struct Mapping {
  explicit Mapping(size_t size)
      : size(size), base(static_cast<char*>(::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))) {}
  ~Mapping() {
    if (ok()) ::munmap(base, size);
  }
  bool ok() const { return base != static_cast<char*>(MAP_FAILED); }
  size_t size;
  char* base;
};

TEST(HugePages, AdvisesTheWholeHugePagesOfARange) {
  if (!HugePagesKnown()) GTEST_SKIP() << "no transparent huge pages on this kernel";
  Mapping map(size_t(8) << 20);
  ASSERT_TRUE(map.ok());
  EXPECT_FALSE(Advised(map.base));
  AdviseHugePages(map.base + 1, map.size - 1);
  // The advice splits the mapping at 2 MB boundaries: the middle is advised.
  EXPECT_TRUE(Advised(map.base + map.size / 2));
}

TEST(HugePages, TooSmallARangeIsLeftAlone) {
  if (!HugePagesKnown()) GTEST_SKIP() << "no transparent huge pages on this kernel";
  Mapping map(size_t(4) << 20);
  ASSERT_TRUE(map.ok());
  AdviseHugePages(map.base + 4096, 4096 * 10);  // no whole 2 MB page inside
  EXPECT_FALSE(Advised(map.base + 4096 * 5));
}

TEST(HugePages, NewAdvisesLargeBlocksOnly) {
  if (!HugePagesKnown()) GTEST_SKIP() << "no transparent huge pages on this kernel";
  if (!LargeBlocksAdvised()) GTEST_SKIP() << "the sanitizers' operator new is in use";
  auto large = std::make_unique_for_overwrite<char[]>(size_t(16) << 20);
  EXPECT_TRUE(Advised(large.get() + (size_t(8) << 20)));
  // An over-aligned block (a table of cache-line slots) alike.
  struct alignas(64) Line {
    char bytes[64];
  };
  std::vector<Line> lines(size_t(1) << 18);  // 16 MB
  EXPECT_EQ(reinterpret_cast<uintptr_t>(lines.data()) % 64, 0u);
  EXPECT_TRUE(Advised(lines.data() + lines.size() / 2));
  // A small block lives in malloc's heap, which is never advised.
  auto small = std::make_unique<char[]>(1000);
  EXPECT_FALSE(Advised(small.get()));
}

}  // namespace
}  // namespace rescfg
