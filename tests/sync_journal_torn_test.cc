// A crash while the sync appends to its journal leaves a last line without
// its newline. The sync (Journal::Open, under its lock) cuts it off the file
// before appending anything, so that no record is glued to the fragment; a
// reader without the lock (Journal::Read, `--jobs-from-sync`) leaves the file
// as it is. An empty journal, or one whose first line was cut short, gets
// its first line at the first append.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/temp_dir.h"
#include "support/victims.h"
#include "sync/journal.h"
#include "sync/kept_snapshot.h"

namespace rescfg {
namespace {

using testing::TempDir;

constexpr std::string_view kHeader = "rescfg-sync-journal 1\n";
/// Half a "done" record, as a crash in the middle of its write leaves it.
constexpr std::string_view kFragment = "0123456789abcdef {\"op\": \"done\", \"seq\"";

std::string FileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteText(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

void AppendText(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << text;
}

/// A journal with two open intents (seq 1, 2) and one hand-over (seq 3, moved).
std::string WriteThreeIntents(const std::string& path) {
  std::string error;
  auto journal = sync::Journal::Open(path, &error);
  EXPECT_TRUE(journal) << error;
  std::vector<sync::MoveIntent> intents = {testing::DevMoveIntent("a"), testing::DevMoveIntent("b"),
                                           testing::DevMoveIntent("c")};
  EXPECT_TRUE(journal->Begin(&intents, &error)) << error;
  journal->Finish(intents[2].seq, "moved", true);
  EXPECT_TRUE(journal->Flush(&error)) << error;
  return FileText(path);
}

TEST(SyncJournalTornTest, OpenTruncatesATornLastLineAndTheNextAppendsReadBackClean) {
  TempDir dir;
  const std::string path = dir.file("journal");
  const std::string intact = WriteThreeIntents(path);
  AppendText(path, kFragment);

  std::string error;
  auto journal = sync::Journal::Open(path, &error);
  ASSERT_TRUE(journal) << error;
  EXPECT_EQ(FileText(path), intact);  // the fragment is gone from the file
  EXPECT_NE(journal->warning().find(path), std::string::npos) << journal->warning();
  EXPECT_NE(journal->warning().find(std::to_string(kFragment.size()) + " bytes"), std::string::npos)
      << journal->warning();
  EXPECT_NE(journal->warning().find("truncated"), std::string::npos) << journal->warning();
  EXPECT_EQ(journal->unfinished().size(), 2u);

  // What a recovery then writes: a result, and new intents.
  journal->Finish(1, "moved", true);
  ASSERT_TRUE(journal->Flush(&error)) << error;
  std::vector<sync::MoveIntent> more = {testing::DevMoveIntent("d")};
  ASSERT_TRUE(journal->Begin(&more, &error)) << error;
  EXPECT_EQ(more[0].seq, 4u);

  auto again = sync::Journal::Open(path, &error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(again->warning(), "");
  std::vector<std::string> open, handed;
  for (const auto& [seq, m] : again->unfinished()) open.push_back(m.task);
  for (const auto& [task, h] : again->handovers()) handed.push_back(task);
  EXPECT_EQ(open, (std::vector<std::string>{"b", "d"}));
  EXPECT_EQ(handed, (std::vector<std::string>{"a", "c"}));
}

TEST(SyncJournalTornTest, AnIntactJournalIsLeftAsItIsAndWarnsOfNothing) {
  TempDir dir;
  const std::string path = dir.file("journal");
  const std::string intact = WriteThreeIntents(path);
  std::string error;
  auto journal = sync::Journal::Open(path, &error);
  ASSERT_TRUE(journal) << error;
  EXPECT_EQ(journal->warning(), "");
  EXPECT_EQ(FileText(path), intact);
}

TEST(SyncJournalTornTest, ReadNeverChangesTheFileAndRefusesToWrite) {
  TempDir dir;
  const std::string path = dir.file("journal");
  WriteThreeIntents(path);
  AppendText(path, kFragment);
  const std::string torn = FileText(path);

  std::string error;
  auto journal = sync::Journal::Read(path, &error);
  ASSERT_TRUE(journal) << error;
  EXPECT_EQ(journal->unfinished().size(), 2u);
  EXPECT_EQ(journal->handovers().size(), 1u);
  EXPECT_EQ(journal->warning(), "");
  EXPECT_EQ(FileText(path), torn);
  std::vector<sync::MoveIntent> more = {testing::DevMoveIntent("d")};
  EXPECT_FALSE(journal->Begin(&more, &error));
  EXPECT_NE(error.find("read only"), std::string::npos) << error;
  journal->Finish(1, "moved", true);
  EXPECT_FALSE(journal->Flush(&error));
  EXPECT_FALSE(journal->Compact(&error));
  EXPECT_EQ(FileText(path), torn);

  // A journal whose first line was cut short reads as empty, unchanged too.
  WriteText(path, kHeader.substr(0, 7));
  auto cut = sync::Journal::Read(path, &error);
  ASSERT_TRUE(cut) << error;
  EXPECT_TRUE(cut->unfinished().empty());
  EXPECT_EQ(FileText(path), kHeader.substr(0, 7));
}

TEST(SyncJournalTornTest, TheHandoversOfAKeptSnapshotAreReadWithoutChangingTheJournal) {
  TempDir dir;
  const sync::SyncPaths paths = sync::SyncPathsOf(dir.path());
  std::filesystem::create_directories(paths.dir);
  WriteThreeIntents(paths.journal);
  AppendText(paths.journal, kFragment);
  const std::string torn = FileText(paths.journal);
  clearml::Handovers handovers;
  std::string error;
  ASSERT_TRUE(sync::ReadHandovers(paths, &handovers, &error)) << error;
  EXPECT_EQ(handovers.size(), 3u);  // the hand-over and the two open moves
  EXPECT_EQ(FileText(paths.journal), torn);
}

TEST(SyncJournalTornTest, AnEmptyFileOrACutShortFirstLineGetsItsFirstLineAtTheFirstAppend) {
  for (const std::string& start : {std::string(), std::string(kHeader.substr(0, 1)), std::string(kHeader.substr(0, 10)),
                                   std::string(kHeader.substr(0, kHeader.size() - 1))}) {
    TempDir dir;
    const std::string path = dir.file("journal");
    WriteText(path, start);
    std::string error;
    auto journal = sync::Journal::Open(path, &error);
    ASSERT_TRUE(journal) << "'" << start << "': " << error;
    EXPECT_TRUE(journal->unfinished().empty());
    EXPECT_EQ(journal->warning().empty(), start.empty()) << "'" << start << "': " << journal->warning();
    EXPECT_EQ(FileText(path), "") << "'" << start << "'";
    std::vector<sync::MoveIntent> intents = {testing::DevMoveIntent("a")};
    ASSERT_TRUE(journal->Begin(&intents, &error)) << error;
    EXPECT_TRUE(FileText(path).starts_with(kHeader)) << "'" << start << "': " << FileText(path);
    auto again = sync::Journal::Open(path, &error);
    ASSERT_TRUE(again) << "'" << start << "': " << error;
    EXPECT_EQ(again->unfinished().size(), 1u) << "'" << start << "'";
  }
  // Anything else on the first line is no journal, and is left as it is.
  TempDir dir;
  const std::string path = dir.file("journal");
  for (const char* other : {"rescfg-sync-journal 2\n", "rescfg-sync-journal 12", "something else"}) {
    WriteText(path, other);
    std::string error;
    EXPECT_FALSE(sync::Journal::Open(path, &error)) << other;
    EXPECT_NE(error.find("not a rescfg sync journal"), std::string::npos) << error;
    EXPECT_EQ(FileText(path), other);
  }
}

TEST(SyncJournalTornTest, ADamagedCompleteLineIsStillRefusedAndNothingIsTruncated) {
  TempDir dir;
  const std::string path = dir.file("journal");
  std::string damaged = WriteThreeIntents(path);
  damaged[damaged.find("\"b\"") + 1] = 'x';
  damaged += kFragment;
  WriteText(path, damaged);
  std::string error;
  EXPECT_FALSE(sync::Journal::Open(path, &error));
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  EXPECT_EQ(FileText(path), damaged);
}

}  // namespace
}  // namespace rescfg
