/// Input files read whole: a large regular file mapped from the page cache,
/// anything else copied, both with the same text, padding and errors.

#include "util/file_text.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "support/temp_dir.h"
#include "util/file_io.h"

namespace rescfg {
namespace {

class FileTextTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_.file(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  /// `bytes` of varied text (lines of digits), so that an offset error shows.
  static std::string Text(size_t bytes) {
    std::string text;
    text.reserve(bytes);
    for (size_t line = 0; text.size() < bytes; ++line) text += std::to_string(line * 7919) + "\n";
    text.resize(bytes);
    return text;
  }
  /// `text` written to a file and read back, mapped (checked).
  std::optional<FileText> Mapped(const std::string& text) {
    std::string error;
    std::optional<FileText> read = ReadFileText(Write("tasks.json", text), &error, uint64_t(1) << 30);
    EXPECT_TRUE(read && read->mapped()) << error;
    return read;
  }
  testing::TempDir dir_;
};

struct Case {
  const char* what;
  size_t bytes;
  bool mapped;
};

TEST_F(FileTextTest, ReadsTheSameTextMappedOrCopiedWithItsPaddingZero) {
  const Case cases[] = {
      {"empty", 0, false},
      {"one byte", 1, false},
      {"just under the mapping size", kMapBytes - 1, false},
      {"the mapping size, a whole number of pages", kMapBytes, true},
      {"a page and a byte more", kMapBytes + 4097, true},
      {"its last page all but the padding", kMapBytes + 4096 - kReadSlack, true},
      {"its last page all but less than the padding", kMapBytes + 4096 - kReadSlack + 1, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string text = Text(c.bytes);
    const std::string path = Write("jobs.jsonl", text);
    std::string error;
    const char* code = nullptr;
    std::optional<FileText> read = ReadFileText(path, &error, uint64_t(1) << 30, &code);
    ASSERT_TRUE(read) << error;
    EXPECT_EQ(read->mapped(), c.mapped);
    ASSERT_EQ(read->size(), text.size());
    EXPECT_TRUE(read->view() == text);
    // A JSON parser's padding is readable past the end: zero bytes of the
    // mapping, or room the copy reserved.
    if (read->mapped()) {
      // At a 2 MB boundary, where 2 MB folios of the page cache map whole.
      EXPECT_EQ(reinterpret_cast<uintptr_t>(read->data()) % (uintptr_t{2} << 20), 0u);
      for (size_t i = 0; i < kReadSlack; ++i) ASSERT_EQ(read->data()[text.size() + i], '\0') << i;
    } else {
      EXPECT_GE(read->owned()->capacity(), text.size() + kReadSlack);
    }
  }
}

TEST_F(FileTextTest, WritingToAMappedTextChangesNoFile) {
  const std::string text = Text(kMapBytes + 100);
  std::optional<FileText> read = Mapped(text);
  ASSERT_TRUE(read && read->mapped());
  read->writable_data()[0] = '#';
  read->writable_data()[read->size() - 1] = '#';
  FileText moved = std::move(*read);  // the mapping moves, not the text
  EXPECT_EQ(moved.data()[0], '#');
  EXPECT_TRUE(moved.view().substr(1) == text.substr(1, text.size() - 2) + "#");
  std::string error;
  EXPECT_EQ(ReadWholeFile(dir_.file("tasks.json"), &error), text);
}

/// The permissions /proc/self/maps gives the mapping that holds `at`.
std::string PermissionsAt(const void* at) {
  std::ifstream maps("/proc/self/maps");
  const auto address = reinterpret_cast<uintptr_t>(at);
  for (std::string line; std::getline(maps, line);) {
    uintptr_t begin = 0, end = 0;
    char perms[5] = {};
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR " %4s", &begin, &end, perms) == 3 && begin <= address &&
        address < end) {
      return perms;
    }
  }
  return "";
}

TEST_F(FileTextTest, AMappedTextIsReadOnlyUntilAWriteIsAskedFor) {
  const std::string text = Text(kMapBytes + 100);
  std::optional<FileText> read = Mapped(text);
  ASSERT_TRUE(read && read->mapped());
  EXPECT_EQ(PermissionsAt(read->data()), "r--p");
  EXPECT_EQ(PermissionsAt(read->data() + text.size() - 1), "r--p");
  FileText moved = std::move(*read);
  EXPECT_EQ(PermissionsAt(moved.data()), "r--p");
  char* data = moved.writable_data();
  EXPECT_EQ(data, moved.data());
  EXPECT_EQ(PermissionsAt(data), "rw-p");
  EXPECT_EQ(PermissionsAt(data + text.size() - 1), "rw-p");
  EXPECT_EQ(moved.writable_data(), data);  // asked again: the same pages
  EXPECT_TRUE(moved.view() == text);
}

TEST_F(FileTextTest, ErrorsAreThoseOfAReadWholeFile) {
  const std::string big = Write("big.jsonl", Text(kMapBytes + 1));
  const std::string missing = dir_.file("missing.jsonl");
  for (const auto& [path, limit] : {std::pair{big, uint64_t(kMapBytes)}, std::pair{missing, uint64_t(1) << 30},
                                    std::pair{dir_.path(), uint64_t(1) << 30}}) {
    SCOPED_TRACE(path);
    std::string mapped_error, read_error;
    const char *mapped_code = nullptr, *read_code = nullptr;
    EXPECT_FALSE(ReadFileText(path, &mapped_error, limit, &mapped_code));
    EXPECT_FALSE(ReadWholeFile(path, &read_error, limit, &read_code));
    EXPECT_EQ(mapped_error, read_error);
    EXPECT_STREQ(mapped_code, read_code);
  }
}

TEST_F(FileTextTest, AFileCutShortWhileMappedEndsAsAnUnreadableInput) {
  const std::string path = Write("tasks.json", Text(kMapBytes + 3 * 4096));
  EXPECT_EXIT(
      {
        std::string error;
        std::optional<FileText> read = ReadFileText(path, &error, uint64_t(1) << 30);
        if (!read || !read->mapped()) std::exit(3);
        if (::truncate(path.c_str(), 4096) != 0) std::exit(4);
        volatile char c = read->data()[read->size() - 1];  // a page the file no longer has
        (void)c;
        std::exit(5);
      },
      ::testing::ExitedWithCode(2),
      "error: .*tasks.json: unreadable: the file was cut short or could not be read while it was read");
}

}  // namespace
}  // namespace rescfg
