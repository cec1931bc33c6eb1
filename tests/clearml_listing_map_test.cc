/// The task-ID listing map of the queues file: look-ups by hash, the text
/// compared only where hashes agree, the first listing of an ID kept.

#include "clearml/listing_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "util/name_map.h"

namespace rescfg::clearml {
namespace {

struct Key {
  std::string id;
  uint64_t hash;
};

struct MapCase {
  const char* what;
  size_t room;              ///< what the map is made for (0: grown from empty)
  std::vector<Key> added;   ///< listed in this order: queue 0, position = index + 1
  std::vector<Key> looked;  ///< with the listing expected (0: none)
  std::vector<uint32_t> positions;
};

const std::string k44(44, 'a'), k45(45, 'a'), k45b = std::string(44, 'a') + "b", k80(80, 'x');

TEST(ClearmlListingMap, FindsWhatWasAddedByHashAndText) {
  const MapCase cases[] = {
      {"distinct hashes", 4,
       {{"t1", HashText("t1")}, {"t2", HashText("t2")}},
       {{"t1", HashText("t1")}, {"t2", HashText("t2")}, {"t3", HashText("t3")}},
       {1, 2, 0}},
      {"one hash for all: the text decides", 4,
       {{"a", 7}, {"b", 7}, {"c", 7}},
       {{"a", 7}, {"b", 7}, {"c", 7}, {"d", 7}, {"", 7}},
       {1, 2, 3, 0, 0}},
      {"same text, another hash: not the same key", 4, {{"a", 7}}, {{"a", 8}}, {0}},
      {"hashes that start in one slot (the high bits)", 4,
       {{"a", 1}, {"b", 2}, {"c", 3}},
       {{"c", 3}, {"b", 2}, {"a", 1}, {"d", 4}},
       {3, 2, 1, 0}},
      {"a chain that wraps past the last slot", 4,
       {{"a", UINT64_MAX}, {"b", UINT64_MAX}, {"c", UINT64_MAX - 1}},
       {{"a", UINT64_MAX}, {"b", UINT64_MAX}, {"c", UINT64_MAX - 1}, {"z", UINT64_MAX}},
       {1, 2, 3, 0}},
      {"an ID listed twice keeps its first place", 4, {{"t", 5}, {"u", 5}, {"t", 5}}, {{"t", 5}, {"u", 5}}, {1, 2}},
      {"IDs held in the slot and kept outside it", 4,
       {{k44, 9}, {k45, 9}, {k80, 9}},
       {{k44, 9}, {k45, 9}, {k45b, 9}, {k80, 9}, {k80.substr(0, 79), 9}},
       {1, 2, 0, 3, 0}},
      {"an empty ID", 2, {{"", 0}}, {{"", 0}, {"a", 0}}, {1, 0}},
      {"grown from empty", 0,
       {{"a", 1}, {"b", 1}, {"c", UINT64_MAX}, {"d", 0}, {"e", 1ull << 63}},
       {{"a", 1}, {"b", 1}, {"c", UINT64_MAX}, {"d", 0}, {"e", 1ull << 63}, {"f", 1}},
       {1, 2, 3, 4, 5, 0}},
  };
  for (const MapCase& c : cases) {
    SCOPED_TRACE(c.what);
    ListingMap map(c.room);
    for (size_t i = 0; i < c.added.size(); ++i) {
      map.Add(c.added[i].id, c.added[i].hash, {0, static_cast<uint32_t>(i + 1)});
    }
    ASSERT_EQ(c.looked.size(), c.positions.size());
    for (size_t i = 0; i < c.looked.size(); ++i) {
      SCOPED_TRACE(c.looked[i].id);
      map.Prefetch(c.looked[i].hash);
      const Listing* found = map.Find(c.looked[i].id, c.looked[i].hash);
      if (c.positions[i] == 0) {
        EXPECT_EQ(found, nullptr);
      } else {
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(found->position, c.positions[i]);
      }
    }
  }
}

TEST(ClearmlListingMap, ManyIdsInFewHashesAsTheyGrowTheTable) {
  // Three hashes for a thousand IDs: long chains, each grown more than once.
  for (size_t room : {size_t{0}, size_t{10}, size_t{1000}}) {
    SCOPED_TRACE(room);
    ListingMap map(room);
    std::vector<std::string> ids;
    for (uint32_t i = 0; i < 1000; ++i) ids.push_back((i % 2 ? "task-" : std::string(50, 'L')) + std::to_string(i));
    for (uint32_t i = 0; i < ids.size(); ++i) map.Add(ids[i], i % 3, {i, i + 1});
    for (uint32_t i = 0; i < ids.size(); ++i) map.Add(ids[i], i % 3, {0, 0});  // again: ignored
    EXPECT_EQ(map.size(), ids.size());
    for (uint32_t i = 0; i < ids.size(); ++i) {
      const Listing* found = map.Find(ids[i], i % 3);
      ASSERT_NE(found, nullptr) << ids[i];
      EXPECT_EQ(found->queue, i);
      EXPECT_EQ(found->position, i + 1);
      EXPECT_EQ(map.Find(ids[i], (i + 1) % 3), nullptr);
      EXPECT_EQ(map.Find(ids[i] + "x", i % 3), nullptr);
    }
  }
}

/// With a smaller value a slot holds a longer key (48 bytes for 4): the
/// queues file's IDs, looked up for every task.
TEST(ClearmlListingMap, ASmallerValueLeavesRoomForLongerKeysInTheSlot) {
  const std::string k48(48, 'q'), k49(49, 'q'), k49b = k48 + "r";
  TextKeyMap<uint32_t> map(2);
  for (const std::string* key : {&k48, &k49, &k49b}) map.Add(*key, 1, static_cast<uint32_t>(key->size()));
  map.Add(k48, 1, 0);  // again: the first stays
  EXPECT_EQ(map.size(), 3u);
  for (const std::string* key : {&k48, &k49, &k49b}) {
    const uint32_t* found = map.Find(*key, 1);
    ASSERT_NE(found, nullptr) << *key;
    EXPECT_EQ(*found, key->size());
  }
  EXPECT_EQ(map.Find(k48.substr(0, 47), 1), nullptr);
  EXPECT_EQ(map.Find(k48, 2), nullptr);
}

TEST(ClearmlListingMap, AnEmptyMapHasNothing) {
  const ListingMap map;
  map.Prefetch(3);
  EXPECT_EQ(map.Find("a", 3), nullptr);
  EXPECT_EQ(map.size(), 0u);
}

}  // namespace
}  // namespace rescfg::clearml
