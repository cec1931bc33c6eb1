/// Populating the pages of a buffer never changes what it holds.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/prefault.h"

namespace rescfg {
namespace {

TEST(Prefault, KeepsWhatTheBufferHolds) {
  for (size_t size : {size_t(100), (size_t(8) << 20) - 1, (size_t(16) << 20) + 123}) {
    std::string buffer(size, '\0');
    for (size_t i = 0; i < size; ++i) buffer[i] = static_cast<char>(i * 131 + 7);
    const std::string before = buffer;
    Prefault(buffer.data() + 1, size - 1);  // unaligned at both ends
    EXPECT_TRUE(buffer == before) << size;
  }
}

TEST(Prefault, ResizesLikeResize) {
  std::vector<uint64_t> v = {1, 2, 3};
  ResizePrefaulted(&v, size_t(3) << 20);  // 24 MB
  ASSERT_EQ(v.size(), size_t(3) << 20);
  EXPECT_EQ(v[0], 1u);
  EXPECT_EQ(v[2], 3u);
  EXPECT_EQ(v[3], 0u);
  EXPECT_EQ(v.back(), 0u);
  ResizePrefaulted(&v, 2);
  EXPECT_EQ(v, (std::vector<uint64_t>{1, 2}));
}

}  // namespace
}  // namespace rescfg
