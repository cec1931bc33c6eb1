/// ClearML's IDs packed into 16 bytes, and the queues file's look-up by ID
/// that uses them: the same answers as a plain map, whatever form the IDs
/// have and however many queues there are.

#include "clearml/packed_id.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "clearml/queues.h"
#include "util/name_map.h"

namespace rescfg::clearml {
namespace {

/// The reference: the bytes a 32-character lowercase hexadecimal ID spells.
bool SpelledBytes(const std::string& id, unsigned char bytes[16]) {
  if (id.size() != 32) return false;
  for (size_t i = 0; i < 32; ++i) {
    const char c = id[i];
    int nibble = -1;
    if (c >= '0' && c <= '9') nibble = c - '0';
    if (c >= 'a' && c <= 'f') nibble = c - 'a' + 10;
    if (nibble < 0) return false;
    if (i % 2 == 0) {
      bytes[i / 2] = static_cast<unsigned char>(nibble << 4);
    } else {
      bytes[i / 2] |= static_cast<unsigned char>(nibble);
    }
  }
  return true;
}

/// Characters at the edges of the two ranges, and uppercase letters.
const std::string kNearHex = std::string("0123456789abcdef/:`gAFG\x7f") + '\x80' + '\xff' + '\0';

RC_GTEST_PROP(ClearmlPackedId, OnlyLowercaseHexIdsOf32ArePackedAsTheBytesTheySpell, ()) {
  const auto size = *rc::gen::elementOf(std::vector<size_t>{0, 16, 31, 32, 32, 32, 33, 64});
  const bool mostly_hex = *rc::gen::arbitrary<bool>();
  std::string id;
  for (size_t i = 0; i < size; ++i) {
    const size_t pick = *rc::gen::inRange<size_t>(0, mostly_hex ? 16 * 40 + kNearHex.size() : kNearHex.size());
    id += kNearHex[pick < kNearHex.size() ? pick : (pick - kNearHex.size()) % 16];
  }
  unsigned char expected[16] = {};
  const bool hex = SpelledBytes(id, expected);
  PackedId packed{7, 9};
  RC_ASSERT(PackHexId(id, &packed) == hex);
  if (!hex) {
    RC_ASSERT(packed == (PackedId{7, 9}));
    return;
  }
  unsigned char bytes[16];
  std::memcpy(bytes, &packed.low, 8);
  std::memcpy(bytes + 8, &packed.high, 8);
  RC_ASSERT(std::memcmp(bytes, expected, 16) == 0);
}

/// An ID of ClearML's form, never all zeros (what an ID of another form packs to).
std::string Hex(uint32_t a, uint32_t b) {
  char text[33];
  std::snprintf(text, sizeof text, "%08x%016x%08x", a + 1, b * 2654435761u, b);
  return text;
}

std::string Upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

TEST(ClearmlQueues, FindsEachQueueByItsIdWhateverItsFormAndHowManyThereAre) {
  // Below 65 535 queues, IDs of ClearML's form are looked up in their own
  // table; from there on, all in one. Either way: the answers of a plain map.
  for (uint32_t count : {3u, 2000u, 70000u}) {
    SCOPED_TRACE(count);
    std::vector<std::string> ids;
    for (uint32_t i = 0; i < count; ++i) {
      switch (i % 5) {
        case 0: case 1: ids.push_back(Hex(i, i)); break;               // ClearML's form
        case 2: ids.push_back(Upper(Hex(i, i))); break;                // uppercase: another form
        case 3: ids.push_back("queue-" + std::to_string(i)); break;    // short
        default: ids.push_back(Hex(i, i) + "0"); break;                // 33 characters
      }
    }
    std::string text = "[";
    for (uint32_t i = 0; i < count; ++i) {
      // One ID in four of ClearML's form written with an escape: the same text once read.
      std::string id = ids[i];
      if (i % 20 == 0) id = "\\u00" + std::to_string(static_cast<int>(id[0]) / 16) + "0123456789abcdef"[id[0] % 16] + id.substr(1);
      text += (i ? ",\n" : "") + std::string("{\"id\": \"") + id + "\", \"name\": \"n" + std::to_string(i) + "\"}";
    }
    text += "]";
    const QueueList list = ReadQueuesText(text, "queues.json");
    ASSERT_FALSE(list.unusable) << (list.findings.empty() ? "" : list.findings[0].message);
    ASSERT_EQ(list.queues.size(), count);
    std::unordered_map<std::string, size_t> reference;
    for (size_t i = 0; i < ids.size(); ++i) reference.emplace(ids[i], i);
    auto check = [&](const std::string& id) {
      const Queue* found = list.FindById(id);
      auto it = reference.find(id);
      if (it == reference.end()) {
        EXPECT_EQ(found, nullptr) << id;
      } else {
        ASSERT_NE(found, nullptr) << id;
        EXPECT_EQ(static_cast<size_t>(found - list.queues.data()), it->second) << id;
        EXPECT_EQ(found->id, id);
      }
    };
    for (uint32_t i = 0; i < count; ++i) {
      const std::string& id = ids[i];
      check(id);
      check(Upper(id));                       // the lowercase one's, where it is a queue's
      check(Hex(i, i + 1));                   // an ID of the form that no queue has
      check(id.substr(0, id.size() - 1));     // one character short
      check(id.substr(0, 31) + "g");          // not hexadecimal at its end
      check(std::string(1, 'f') + id.substr(1));
    }
    check("");
    check(std::string(32, '0'));
  }
}

/// A queue ID of another form packs to nothing: the all-zero ID, which it
/// would read as if packed, is not found through it even when both start
/// their look-up at the same slot (a few queues: a table of 16 slots, the
/// start the high half of HashText; the queue's ID is picked to match).
TEST(ClearmlQueues, AnIdOfAnotherFormIsNeverFoundAsTheAllZeroId) {
  const std::string zeros(32, '0');
  const auto start = [](const std::string& id) { return (HashText(id) >> 32) & 15; };
  std::string other;
  for (int n = 0; other.empty() || start(other) != start(zeros); ++n) other = "queue-" + std::to_string(n);
  const QueueList list = ReadQueuesText("[{\"id\": \"" + other + "\", \"name\": \"a\"}]", "queues.json");
  ASSERT_FALSE(list.unusable);
  EXPECT_EQ(list.FindById(zeros), nullptr);
  ASSERT_NE(list.FindById(other), nullptr);
  EXPECT_EQ(list.FindById(other)->name, "a");
}

}  // namespace
}  // namespace rescfg::clearml
