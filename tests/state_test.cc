#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "file_io.h"
#include "output/json_writer.h"
#include "output/text_table.h"
#include "state/atomic_file.h"
#include "state/lockfile.h"
#include "state/sha256.h"
#include "state/state_store.h"

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
