#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "state/revision_check.h"
#include "state/state_store.h"
#include "support/provisioned_state.h"
#include "util/atomic_file.h"
#include "util/digest.h"
#include "util/file_io.h"
#include "util/json_writer.h"
#include "util/lockfile.h"
#include "util/state_file.h"
#include "util/text_table.h"

namespace rescfg {
namespace {

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/rescfg-state-test-XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string Read(const std::string& path) {
  std::string error;
  return ReadWholeFile(path, &error).value_or("<missing>");
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

const char* kConfigA = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\nenabled: true\n"
                       "pools:\n  - name: \"p\"\n    resources: 8\n    queue: \"p\"\n    executionPriority: []\n"
                       "profiles: []\npolicies: []\n";
const char* kConfigB = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\nenabled: false\n"
                       "pools:\n  - name: \"p\"\n    resources: 8\n    queue: \"p\"\n    executionPriority: []\n"
                       "profiles: []\npolicies: []\n";

std::optional<StateStore> Open(const std::string& dir, StateStore::Access access, std::string* error) {
  return StateStore::Open(dir, access, 1, error);
}

/// Commits `canonical` (its own source) as the next revision.
bool CommitText(StateStore& store, const std::string& canonical, const std::string& message, std::string* error) {
  return store.Commit({canonical, canonical, message, 1}, error) == StateStore::CommitResult::kCommitted;
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Lengths around the padding boundary.
  EXPECT_EQ(Sha256Hex(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(Sha256Hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(Sha256Hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(JsonWriter, EscapesAndKeepsKeyOrder) {
  JsonWriter json;
  json.BeginObject().Field("z", "a\"b\\c\n\x01\xC3\xA9").Key("a").Amount(Quantity::Units(1) - Quantity::FromTicks(Quantity::kTicksPerUnit / 7))
      .Key("half").Amount(Quantity::FromTicks(Quantity::kTicksPerUnit / 2)).Key("list").BeginArray().Null().Bool(true).Int(-3).EndArray()
      .Key("empty").BeginObject().EndObject().EndObject();
  EXPECT_EQ(json.str(), R"({"z":"a\"b\\c\n\u0001)" "\xC3\xA9" R"(","a":"6/7","half":0.5,"list":[null,true,-3],"empty":{}})");
}

TEST(JsonWriter, Indents) {
  JsonWriter json(2);
  json.BeginObject().Field("a", 1).Key("b").BeginArray().String("x").EndArray().Key("c").BeginArray().EndArray().EndObject();
  EXPECT_EQ(json.str(), "{\n  \"a\": 1,\n  \"b\": [\n    \"x\"\n  ],\n  \"c\": []\n}");
}

TEST(TextTable, PadsByCharactersAndTrimsLines) {
  TextTable table({"NAME", "N"});
  table.SetAlign(1, TextTable::Align::kRight);
  table.AddRow({"caf\xC3\xA9", "10"});
  table.AddRow({"x", "2"});
  EXPECT_EQ(table.Render(), "NAME   N\ncaf\xC3\xA9  10\nx      2\n");
}

TEST(AtomicFile, ReplacesAndKeepsMode) {
  TempDir dir;
  const std::string path = dir.path() + "/out.yaml";
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, "one\n", &error)) << error;
  ::chmod(path.c_str(), 0600);
  ASSERT_TRUE(WriteFileAtomically(path, "two\n", &error)) << error;
  EXPECT_EQ(Read(path), "two\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_FALSE(WriteFileAtomically(dir.path() + "/no/such/dir/file", "x", &error));
  EXPECT_NE(error.find("no/such/dir"), std::string::npos) << error;
}

TEST(FileLock, TimesOutWhileHeld) {
  TempDir dir;
  std::string error;
  auto held = FileLock::Acquire(dir.path() + "/lock", FileLock::Mode::kExclusive, 0, &error);
  ASSERT_TRUE(held) << error;
  // flock locks belong to the open file description: a second open conflicts.
  auto second = FileLock::Acquire(dir.path() + "/lock", FileLock::Mode::kShared, 0, &error);
  EXPECT_FALSE(second);
  EXPECT_NE(error.find("--lock-timeout"), std::string::npos) << error;
}

TEST(StateStore, MissingDirectoryIsAnErrorForReaders) {
  TempDir dir;
  std::string error;
  EXPECT_FALSE(Open(dir.path() + "/missing", StateStore::Access::kRead, &error));
  EXPECT_NE(error.find("does not exist"), std::string::npos) << error;
  ProvisionedConfig provisioned = LoadProvisionedConfig(dir.path() + "/missing", 1);
  EXPECT_FALSE(provisioned.config);
  EXPECT_FALSE(provisioned.error.empty());
}

TEST(StateStore, RefusesADirectoryThatIsNotAStateDirectory) {
  TempDir dir;
  Write(dir.path() + "/README.md", "hello\n");
  std::string error;
  EXPECT_FALSE(Open(dir.path(), StateStore::Access::kWrite, &error));
  EXPECT_NE(error.find("not a rescfg state directory"), std::string::npos) << error;
}

TEST(StateStore, CommitsConsecutiveRevisions) {
  TempDir dir;
  const std::string state = dir.path() + "/state";
  std::string error;
  {
    auto store = Open(state, StateStore::Access::kWrite, &error);
    ASSERT_TRUE(store) << error;
    EXPECT_EQ(store->revision(), 0);
    ASSERT_TRUE(CommitText(*store, kConfigA, "first", &error)) << error;
    ASSERT_TRUE(CommitText(*store, kConfigB, "second\n\"quoted\"", &error)) << error;
  }
  auto store = Open(state, StateStore::Access::kRead, &error);
  ASSERT_TRUE(store) << error;
  EXPECT_TRUE(store->notes().empty());
  ASSERT_EQ(store->revision(), 2);
  EXPECT_EQ(store->history()[1].message, "second\n\"quoted\"");
  EXPECT_EQ(store->history()[0].sha256, Sha256Hex(kConfigA));
  EXPECT_EQ(store->ReadRevision(1, &error).value_or(""), kConfigA);
  EXPECT_EQ(Read(state + "/config.yaml"), kConfigB);
  EXPECT_FALSE(store->ReadRevision(3, &error));
  ProvisionedConfig provisioned = LoadProvisionedConfig(state, 1);
  ASSERT_TRUE(provisioned.config) << provisioned.error;
  EXPECT_EQ(provisioned.revision, 2);
  EXPECT_FALSE(provisioned.config->enabled);
}

TEST(StateStore, AProvisionedConfigurationIsReadOncePerRevision) {
  TempDir dir;
  const std::string state = dir.path() + "/state";
  testing::ProvisionState(state, kConfigA, "first");
  const ProvisionedConfig first = LoadProvisionedConfig(state, 1);
  ASSERT_TRUE(first.config) << first.error;
  EXPECT_EQ(first.sha256, Sha256Hex(kConfigA));
  // The revision's files damaged: read anew, refused; taken again from the
  // earlier answer (same revision, same sha256), not read at all.
  std::map<std::string, std::string> kept;
  for (const auto& file : std::filesystem::directory_iterator(state + "/revisions")) {
    kept[file.path().string()] = Read(file.path().string());
    Write(file.path().string(), "garbage\n");
  }
  EXPECT_FALSE(LoadProvisionedConfig(state, 1).config);
  const ProvisionedConfig again = LoadProvisionedConfig(state, 1, &first);
  ASSERT_TRUE(again.config) << again.error;
  EXPECT_TRUE(again.config->enabled);
  for (const auto& [path, text] : kept) Write(path, text);
  // A new revision is read as soon as it is there.
  testing::ProvisionState(state, kConfigB, "second");
  const ProvisionedConfig second = LoadProvisionedConfig(state, 1, &again);
  ASSERT_TRUE(second.config) << second.error;
  EXPECT_EQ(second.revision, 2);
  EXPECT_FALSE(second.config->enabled);
  // The same number with other content (a state made anew) is read anew.
  ProvisionedConfig forged = first;
  forged.revision = 2;
  const ProvisionedConfig anew = LoadProvisionedConfig(state, 1, &forged);
  ASSERT_TRUE(anew.config) << anew.error;
  EXPECT_FALSE(anew.config->enabled);
}

class CommittedState : public ::testing::Test {
 protected:
  void SetUp() override {
    state_ = dir_.path() + "/state";
    std::string error;
    auto store = Open(state_, StateStore::Access::kWrite, &error);
    ASSERT_TRUE(store) << error;
    ASSERT_TRUE(CommitText(*store, kConfigA, "", &error)) << error;
    ASSERT_TRUE(CommitText(*store, kConfigB, "", &error)) << error;
  }
  /// Opens for reading and reads the current revision; "" when it fails.
  std::string Check() {
    error_.clear();
    auto store = Open(state_, StateStore::Access::kRead, &error_);
    if (!store) return "";
    notes_ = store->notes();
    return store->ReadRevision(store->revision(), &error_).value_or("");
  }
  TempDir dir_;
  std::string state_, error_;
  std::vector<std::string> notes_;
};

TEST_F(CommittedState, TruncatedRevisionIsCorrupt) {
  std::string text = Read(state_ + "/revisions/000002.yaml");
  Write(state_ + "/revisions/000002.yaml", text.substr(0, text.size() / 2));
  EXPECT_EQ(Check(), "");
  EXPECT_NE(error_.find("corrupt"), std::string::npos) << error_;
  EXPECT_FALSE(LoadProvisionedConfig(state_, 1).config);
}

TEST_F(CommittedState, HandEditedConfigCopyIsCorrupt) {
  Write(state_ + "/config.yaml", std::string(kConfigB) + "# edited\n");
  EXPECT_EQ(Check(), "");
  EXPECT_NE(error_.find("config.yaml does not match revision 2"), std::string::npos) << error_;
}

TEST_F(CommittedState, DamagedHistoryLineIsCorrupt) {
  std::string history = Read(state_ + "/history.jsonl");
  Write(state_ + "/history.jsonl", "{\"revision\": 1}\n" + history.substr(history.find('\n') + 1));
  EXPECT_EQ(Check(), "");
  EXPECT_NE(error_.find("history.jsonl line 1 is damaged"), std::string::npos) << error_;
}

TEST_F(CommittedState, MissingHistoryIsCorrupt) {
  ::unlink((state_ + "/history.jsonl").c_str());
  EXPECT_EQ(Check(), "");
  EXPECT_NE(error_.find("history.jsonl is missing"), std::string::npos) << error_;
}

TEST_F(CommittedState, TornHistoryTailIsNotCommitted) {
  // A crash while appending revision 3: its file exists, its line is torn.
  Write(state_ + "/revisions/000003.yaml", "apiVersion: rescfg/v1\n");
  std::ofstream(state_ + "/history.jsonl", std::ios::app) << "{\"revision\":3,\"sha";
  EXPECT_EQ(Check(), kConfigB) << error_;
  EXPECT_EQ(notes_.size(), 2u);
  // The next commit drops the torn line and replaces the stray revision.
  std::string error;
  {
    auto store = Open(state_, StateStore::Access::kWrite, &error);
    ASSERT_TRUE(store) << error;
    ASSERT_TRUE(CommitText(*store, kConfigA, "third", &error)) << error;
  }
  EXPECT_EQ(Check(), kConfigA) << error_;
  EXPECT_TRUE(notes_.empty());
  auto store = Open(state_, StateStore::Access::kRead, &error);
  ASSERT_TRUE(store) << error;
  EXPECT_EQ(store->revision(), 3);
  EXPECT_EQ(store->history().back().message, "third");
}

TEST_F(CommittedState, StaleConfigCopyAfterCommitPointIsReportedAndRewritten) {
  Write(state_ + "/config.yaml", kConfigA);  // as if the last rename never happened
  EXPECT_EQ(Check(), kConfigB) << error_;
  ASSERT_EQ(notes_.size(), 1u);
  EXPECT_NE(notes_[0].find("interrupted"), std::string::npos);
  std::string error;
  auto store = Open(state_, StateStore::Access::kWrite, &error);
  ASSERT_TRUE(store) << error;
  EXPECT_TRUE(store->config_copy_stale());
  ASSERT_TRUE(store->RewriteConfigCopy(&error)) << error;
  EXPECT_EQ(Read(state_ + "/config.yaml"), kConfigB);
}

TEST(HistoryLine, RoundTrips) {
  HistoryEntry e{7, Sha256Hex("x"), "2026-11-29T10:00:00Z", "alice", "merge #12\n\"quoted\"", 3, Sha256Hex("y")};
  auto back = ParseHistoryLine(HistoryLine(e));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->revision, 7);
  EXPECT_EQ(back->message, e.message);
  EXPECT_EQ(back->sha256, e.sha256);
  EXPECT_EQ(back->source_sha256, e.source_sha256);
  EXPECT_FALSE(ParseHistoryLine("{\"revision\":7"));
  EXPECT_FALSE(ParseHistoryLine(R"({"revision":0,"sha256":"x","time":"","user":"","message":"","changes":0})"));
}

}  // namespace
}  // namespace rescfg

namespace rescfg {
namespace {

TEST(StateStore, RoundTripGuardRefusesTextThatDoesNotReadBackAsItself) {
  TempDir dir;
  const std::string state = dir.path() + "/state";
  std::string error;
  auto store = Open(state, StateStore::Access::kWrite, &error);
  ASSERT_TRUE(store) << error;
  // Valid, but not canonical: written back, it spells out its defaults.
  const std::string loose = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools: [{name: p, resources: 8}]\n";
  EXPECT_EQ(store->Commit({loose, loose, "", 1}, &error), StateStore::CommitResult::kRefused);
  EXPECT_NE(error.find("does not read back as itself"), std::string::npos) << error;
  // Not a valid configuration at all, and not UTF-8.
  const std::string broken = std::string(kConfigA).replace(std::string(kConfigA).find("\"p\""), 3, "\"p\xA0\"");
  EXPECT_EQ(store->Commit({broken, broken, "", 1}, &error), StateStore::CommitResult::kRefused);
  EXPECT_EQ(store->revision(), 0);
  EXPECT_EQ(Read(state + "/history.jsonl"), "<missing>");
  EXPECT_EQ(Read(state + "/revisions/000001.yaml"), "<missing>");
  EXPECT_EQ(Read(state + "/revisions/000001.source.yaml"), "<missing>");
  EXPECT_EQ(RoundTripProblem(kConfigA), "");
}

TEST(StateStore, KeepsTheSourceTextBesideTheCanonicalForm) {
  TempDir dir;
  const std::string state = dir.path() + "/state";
  const std::string source = "# hand-written\n" + std::string(kConfigA);
  std::string error;
  {
    auto store = Open(state, StateStore::Access::kWrite, &error);
    ASSERT_TRUE(store) << error;
    ASSERT_EQ(store->Commit({kConfigA, source, "m", 1}, &error), StateStore::CommitResult::kCommitted) << error;
  }
  auto store = Open(state, StateStore::Access::kRead, &error);
  ASSERT_TRUE(store) << error;
  EXPECT_EQ(store->ReadSource(1, &error).value_or(""), source);
  EXPECT_EQ(store->ReadRevision(1, &error).value_or(""), kConfigA);
  EXPECT_EQ(store->history()[0].source_sha256, Sha256Hex(source));
  EXPECT_EQ(Read(state + "/revisions/000001.source.yaml"), source);
}

TEST_F(CommittedState, RevisionsOfEarlierVersionsHaveNoSourceText) {
  // As an earlier rescfg wrote them: no sourceSha256, no source files.
  std::string history = Read(state_ + "/history.jsonl"), old;
  for (size_t at; (at = history.find(",\"sourceSha256\":")) != std::string::npos;) {
    history.erase(at, history.find('}', at) - at);
  }
  Write(state_ + "/history.jsonl", history);
  ::unlink((state_ + "/revisions/000001.source.yaml").c_str());
  ::unlink((state_ + "/revisions/000002.source.yaml").c_str());
  std::string error;
  auto store = Open(state_, StateStore::Access::kWrite, &error);
  ASSERT_TRUE(store) << error;
  EXPECT_FALSE(store->ReadSource(2, &error));
  EXPECT_EQ(error, "");
  EXPECT_EQ(store->ReadRevision(2, &error).value_or(""), kConfigB);
  ASSERT_EQ(store->Commit({kConfigA, kConfigA, "", 1}, &error), StateStore::CommitResult::kCommitted) << error;
  EXPECT_EQ(store->ReadSource(3, &error).value_or(""), kConfigA);
}

TEST_F(CommittedState, EntryWithoutItsFinalNewlineIsCommittedAndCompleted) {
  const std::string whole = Read(state_ + "/history.jsonl");
  Write(state_ + "/history.jsonl", whole.substr(0, whole.size() - 1));
  EXPECT_EQ(Check(), kConfigB) << error_;
  ASSERT_EQ(notes_.size(), 1u);
  EXPECT_NE(notes_[0].find("lacks its final newline"), std::string::npos) << notes_[0];
  std::string error;
  {
    auto store = Open(state_, StateStore::Access::kWrite, &error);
    ASSERT_TRUE(store) << error;
    EXPECT_EQ(store->revision(), 2);
    ASSERT_EQ(store->Commit({kConfigA, kConfigA, "third", 1}, &error), StateStore::CommitResult::kCommitted);
  }
  const std::string after = Read(state_ + "/history.jsonl");
  EXPECT_EQ(after.substr(0, whole.size()), whole);
  EXPECT_EQ(Check(), kConfigA) << error_;
  EXPECT_TRUE(notes_.empty());
}

TEST_F(CommittedState, EntryWithoutItsNewlineButADamagedRevisionIsCorrupt) {
  const std::string whole = Read(state_ + "/history.jsonl");
  Write(state_ + "/history.jsonl", whole.substr(0, whole.size() - 1));
  Write(state_ + "/revisions/000002.yaml", kConfigA);
  EXPECT_EQ(Check(), "");
  EXPECT_NE(error_.find("corrupt"), std::string::npos) << error_;
  std::string error;
  EXPECT_FALSE(Open(state_, StateStore::Access::kWrite, &error));
  EXPECT_EQ(Read(state_ + "/history.jsonl"), whole.substr(0, whole.size() - 1));  // never truncated
}

TEST_F(CommittedState, WritersVerifyEveryRevisionFirst) {
  Write(state_ + "/revisions/000001.yaml", std::string(kConfigA) + "# edited\n");
  EXPECT_EQ(Check(), kConfigB) << error_;  // a reader of the current revision does not rely on it
  std::string error;
  EXPECT_FALSE(Open(state_, StateStore::Access::kWrite, &error));
  EXPECT_NE(error.find("000001.yaml does not match"), std::string::npos) << error;
  auto store = Open(state_, StateStore::Access::kRead, &error);
  ASSERT_TRUE(store) << error;
  EXPECT_FALSE(store->VerifyAll(&error));
  store.reset();
  Write(state_ + "/revisions/000001.yaml", kConfigA);
  Write(state_ + "/revisions/000001.source.yaml", "edited");
  EXPECT_FALSE(Open(state_, StateStore::Access::kWrite, &error));
  EXPECT_NE(error.find("000001.source.yaml does not match"), std::string::npos) << error;
}

TEST_F(CommittedState, RemovesItsOwnTemporaryFilesOnly) {
  for (const char* name : {"/.config.yaml.tmp-12-3", "/revisions/.000003.yaml.tmp-4-5",
                           "/revisions/.000003.source.yaml.tmp-4-6", "/.notes.tmp-1-2", "/.config.yaml.tmp-x",
                           "/revisions/.000003.yaml.tmp-4-5-6", "/revisions/.x.tmp-1-2"}) {
    Write(state_ + name, "t");
  }
  std::string error;
  auto store = Open(state_, StateStore::Access::kWrite, &error);
  ASSERT_TRUE(store) << error;
  ASSERT_EQ(store->Commit({kConfigA, kConfigA, "", 1}, &error), StateStore::CommitResult::kCommitted);
  for (const char* gone : {"/.config.yaml.tmp-12-3", "/revisions/.000003.yaml.tmp-4-5",
                           "/revisions/.000003.source.yaml.tmp-4-6"}) {
    EXPECT_EQ(Read(state_ + gone), "<missing>") << gone;
  }
  for (const char* kept : {"/.notes.tmp-1-2", "/.config.yaml.tmp-x", "/revisions/.000003.yaml.tmp-4-5-6",
                           "/revisions/.x.tmp-1-2"}) {
    EXPECT_EQ(Read(state_ + kept), "t") << kept;
  }
}

TEST(TemporaryNames, AreExactAndStayWithinNameMax) {
  EXPECT_TRUE(IsTemporaryNameOf(".config.yaml.tmp-123-0", "config.yaml"));
  EXPECT_FALSE(IsTemporaryNameOf(".config.yaml.tmp-123-", "config.yaml"));
  EXPECT_FALSE(IsTemporaryNameOf(".config.yaml.tmp-12a-0", "config.yaml"));
  EXPECT_FALSE(IsTemporaryNameOf("config.yaml.tmp-1-0", "config.yaml"));
  EXPECT_FALSE(IsTemporaryNameOf(".other.tmp-1-0", "config.yaml"));
  TempDir dir;
  const std::string path = dir.path() + "/" + std::string(255, 'n');
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, "long\n", &error)) << error;
  EXPECT_EQ(Read(path), "long\n");
}

TEST(AtomicFile, DropsSetuidSetgidAndStickyBits) {
  TempDir dir;
  const std::string path = dir.path() + "/out";
  Write(path, "old");
  ::chmod(path.c_str(), 07755);
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, "new", &error)) << error;
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
}

TEST(StateFile, RefusesFifosLinksAndDirectoriesWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo", link = dir.path() + "/link", file = dir.path() + "/file";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Write(file, "x");
  ASSERT_EQ(::symlink(file.c_str(), link.c_str()), 0);
  std::string error;
  EXPECT_FALSE(ReadStateFile(fifo, &error));
  EXPECT_NE(error.find("is a FIFO"), std::string::npos) << error;
  EXPECT_FALSE(AppendDurably(fifo, "line\n", &error));
  EXPECT_FALSE(ReadStateFile(link, &error));
  EXPECT_NE(error.find("symbolic link"), std::string::npos) << error;
  EXPECT_FALSE(ReadStateFile(dir.path(), &error));
  EXPECT_EQ(ReadStateFile(file, &error).value_or(""), "x");
  bool missing = false;
  EXPECT_FALSE(ReadStateFile(dir.path() + "/none", &error, &missing));
  EXPECT_TRUE(missing);
  // A dangling link as the lock file: neither followed nor created.
  const std::string dangling = dir.path() + "/lock";
  ASSERT_EQ(::symlink((dir.path() + "/target").c_str(), dangling.c_str()), 0);
  EXPECT_FALSE(FileLock::Acquire(dangling, FileLock::Mode::kExclusive, 0, &error));
  EXPECT_EQ(Read(dir.path() + "/target"), "<missing>");
  EXPECT_FALSE(FileLock::Acquire(fifo, FileLock::Mode::kShared, 0, &error));
}

TEST(History, ParsesCompleteUnterminatedAndTornTails) {
  HistoryEntry one{1, Sha256Hex("a"), "t", "u", "m", 1, Sha256Hex("s")};
  HistoryEntry two{2, Sha256Hex("b"), "t", "u", "m", 1, ""};
  const std::string text = HistoryLine(one) + "\n" + HistoryLine(two) + "\n";
  ParsedHistory parsed = ParseHistory(text);
  EXPECT_EQ(parsed.entries.size(), 2u);
  EXPECT_EQ(parsed.tail, ParsedHistory::Tail::kNone);
  EXPECT_EQ(parsed.entries[1].source_sha256, "");
  parsed = ParseHistory(text.substr(0, text.size() - 1));
  EXPECT_EQ(parsed.entries.size(), 1u);
  EXPECT_EQ(parsed.tail, ParsedHistory::Tail::kUnterminated);
  ASSERT_TRUE(parsed.tail_entry);
  EXPECT_EQ(parsed.tail_entry->revision, 2);
  for (size_t cut = HistoryLine(one).size() + 1; cut + 1 < text.size(); ++cut) {
    parsed = ParseHistory(text.substr(0, cut));
    EXPECT_EQ(parsed.tail, cut == HistoryLine(one).size() + 1 ? ParsedHistory::Tail::kNone
                                                              : ParsedHistory::Tail::kTorn) << cut;
    EXPECT_EQ(parsed.complete_bytes, HistoryLine(one).size() + 1);
  }
  EXPECT_NE(ParseHistory(HistoryLine(two) + "\n").error, "");
  EXPECT_NE(ParseHistory(HistoryLine(one) + "\n" + HistoryLine(one)).error, "");  // out of sequence, unterminated
  EXPECT_FALSE(ParseHistoryLine(R"({"revision":1,"sha256":")" + Sha256Hex("a") +
                                R"(","time":"","user":"","message":"","changes":0,"sourceSha256":7})"));
}

TEST(VisibleText, ShowsControlsAndInvisibleCharacters) {
  EXPECT_EQ(VisibleText("plain caf\xC3\xA9"), "plain caf\xC3\xA9");
  EXPECT_EQ(VisibleText("\x1B[31mred\x07\x7F"), "\\x1B[31mred\\x07\\x7F");
  EXPECT_EQ(VisibleText("c1\xC2\x9B" "bad\xFF"), "c1\\u009Bbad\\xFF");
  EXPECT_EQ(VisibleText("\xE2\x80\xAE" "rtl\xE2\x80\xA8\xEF\xBB\xBF"), "\\u202Ertl\\u2028\\uFEFF");
  TextTable table({"A"});
  table.AddRow({"\x1B]0;title\x07"});
  EXPECT_EQ(table.Render(), "A\n\\x1B]0;title\\x07\n");
}

}  // namespace
}  // namespace rescfg
