/// Hostile configuration files: each gives a clear finding, quickly, in
/// bounded memory, and never a crash or an escaping exception. Big inputs
/// are generated here at run time.

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>

#include "config/loader.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

/// A pathological input must not take long. The contract is about a second
/// on an idle machine; the test allows for a loaded 2-core CI runner, and
/// sanitizers run code several times slower. What it catches is blow-ups
/// (quadratic or exponential work), which overshoot any of these by far.
constexpr std::chrono::milliseconds kBudget(kSanitized ? 30000 : 5000);
/// Peak memory a single hostile input may add (not checked under
/// sanitizers, whose shadow memory dominates).
constexpr long kMemoryBudgetKiB = 256 * 1024;

long PeakKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

struct Outcome {
  std::vector<std::string> codes;
  bool unusable = false;
  std::string first_message;
};

/// Loads and validates, timing it and watching the memory peak.
Outcome Measure(const std::function<LoadedConfig()>& load) {
  long before = PeakKiB();
  auto start = std::chrono::steady_clock::now();
  LoadedConfig loaded = load();
  if (loaded.config) ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, kBudget);
  if (!kSanitized) {
    EXPECT_LT(PeakKiB() - before, kMemoryBudgetKiB);
  }
  Outcome out;
  out.unusable = loaded.unusable;
  for (const auto& f : loaded.findings) {
    out.codes.push_back(f.code);
    EXPECT_FALSE(f.message.empty()) << f.code;
  }
  if (!loaded.findings.empty()) out.first_message = loaded.findings.front().message;
  return out;
}

Outcome RunText(const std::string& text) {
  return Measure([&] { return LoadConfigText(text, "hostile.yaml"); });
}

class HostileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / "rescfg-hostile";
    fs::create_directories(dir_);
  }
  std::string Write(const std::string& name, const std::string& content) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }
  Outcome RunFile(const std::string& path) {
    return Measure([&] { return LoadConfigFile(path); });
  }
  fs::path dir_;
};

const std::string kHead = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n";

std::string Repeat(const std::string& piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

TEST(Hostile, EmptyFileIsInvalid) {
  Outcome out = RunText("");
  EXPECT_FALSE(out.unusable);
  EXPECT_EQ(out.codes, std::vector<std::string>{"wrong-type"});
  EXPECT_NE(out.first_message.find("must be a mapping"), std::string::npos);
  EXPECT_EQ(RunText("# only a comment\n").codes, std::vector<std::string>{"wrong-type"});
}

TEST(Hostile, BinaryBytesAreNotText) {
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 7919 + 13) % 256);
  Outcome out = RunText(binary);
  EXPECT_TRUE(out.unusable);
  EXPECT_EQ(out.codes, std::vector<std::string>{"invalid-utf8"});
  // NUL bytes are valid UTF-8, but no YAML text holds one.
  Outcome nul = RunText(kHead + std::string("pools: []\n\0\0\0", 13));
  EXPECT_TRUE(nul.unusable);
  EXPECT_EQ(nul.codes, std::vector<std::string>{"yaml-syntax"});
}

TEST(Hostile, InvalidUtf8Forms) {
  for (const std::string& bad : {std::string("\xC0\xAF"), std::string("\xED\xA0\x80"),
                                 std::string("\xF4\x90\x80\x80"), std::string("\xE2\x82"),
                                 std::string("\xFF"), std::string("\x80")}) {
    Outcome out = RunText(kHead + "pools: [{name: \"a" + bad + "\", resources: 1}]\n");
    EXPECT_TRUE(out.unusable);
    EXPECT_EQ(out.codes, std::vector<std::string>{"invalid-utf8"});
  }
}

TEST(Hostile, DeepNestingIsASyntaxErrorNotAStackOverflow) {
  const size_t kDepth = 100000;
  for (const std::string& text :
       {Repeat("[", kDepth), Repeat("[", kDepth) + Repeat("]", kDepth), Repeat("- ", kDepth) + "x\n",
        Repeat("{a: ", kDepth), Repeat("{a: ", kDepth) + "1" + Repeat("}", kDepth),
        Repeat("[{a: ", kDepth / 2), kHead + "pools: " + Repeat("[", kDepth),
        kHead + "pools:\n" + Repeat("- ", kDepth) + "x\n", Repeat("? ", kDepth) + "x\n",
        Repeat("&a [", kDepth), Repeat("!!seq [", kDepth)}) {
    Outcome out = RunText(text);
    EXPECT_TRUE(out.unusable) << text.substr(0, 20);
    EXPECT_EQ(out.codes, std::vector<std::string>{"yaml-syntax"}) << text.substr(0, 20);
  }
}

TEST(Hostile, NestingJustUnderTheDepthGuardIsReadWithoutOverflow) {
  // yaml-cpp's guard allows 2000 recursive parser steps, about 500 levels of
  // nesting; just below, the tree is built recursively, which must fit the
  // stack even with sanitizer-sized frames.
  const size_t kDepth = 480;
  const std::vector<std::string> not_a_pool{"wrong-type"},
      not_a_pool_mapping{"unknown-key", "missing-field", "missing-field"};
  for (const auto& [nested, codes] :
       {std::pair{Repeat("[", kDepth) + Repeat("]", kDepth), not_a_pool},
        std::pair{Repeat("{a: ", kDepth) + "1" + Repeat("}", kDepth), not_a_pool_mapping},
        std::pair{Repeat("- ", kDepth) + "x", not_a_pool}}) {
    Outcome out = RunText(kHead + "pools:\n  - " + nested + "\n");
    EXPECT_FALSE(out.unusable) << nested.substr(0, 10);
    EXPECT_EQ(out.codes, codes) << nested.substr(0, 10);
  }
}

TEST(Hostile, DeepIndentedBlockNesting) {
  // Indentation makes the text quadratic in the depth; 2100 levels is well
  // past yaml-cpp's depth guard and still small.
  std::string mappings, sequences;
  for (size_t i = 0; i < 2100; ++i) {
    mappings += std::string(i, ' ') + "a:\n";
    sequences += std::string(i, ' ') + "-\n";
  }
  for (const std::string& text : {mappings, sequences}) {
    Outcome out = RunText(text);
    EXPECT_TRUE(out.unusable);
    EXPECT_EQ(out.codes, std::vector<std::string>{"yaml-syntax"});
    EXPECT_NE(out.first_message.find("too deep"), std::string::npos) << out.first_message;
  }
}

TEST(Hostile, BillionLaughsStaysSmall) {
  // Each level refers nine times to the one before: 9^9 leaves if expanded.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  char previous = 'a';
  for (char level = 'b'; level <= 'i'; ++level) {
    bomb += std::string(1, level) + ": &" + level + " [";
    for (int i = 0; i < 9; ++i) bomb += std::string(i ? ", " : "") + "*" + previous;
    bomb += "]\n";
    previous = level;
  }
  Outcome at_root = RunText(bomb);
  EXPECT_FALSE(at_root.unusable);
  EXPECT_EQ(at_root.codes.size(), 11u);  // nine unknown keys, apiVersion and kind missing

  // Used where the loader walks lists: each entry is reported, none expanded.
  Outcome in_lists = RunText(kHead + "pools: &p [[1, 2], [3]]\nprofiles: [{name: p, allotment: 1, "
                             "links: *p, policyPriority: *p}]\npolicies: *p\n");
  EXPECT_FALSE(in_lists.unusable);
  EXPECT_FALSE(in_lists.codes.empty());
  Outcome as_pools = RunText(kHead + "pools: [&a [x, x, x], &b [*a, *a, *a], &c [*b, *b, *b], "
                             "&d [*c, *c, *c], *d, *d, *d]\n");
  EXPECT_EQ(as_pools.codes.size(), 7u);  // seven entries that are not pools
}

TEST(Hostile, AliasCycleDoesNotLoop) {
  for (const char* text : {"pools: &a [*a]\n", "pools: &a [{name: *a, resources: 1}]\n",
                           "pools: [&b {name: x, resources: 1, queue: *b}]\n"}) {
    Outcome out = RunText(kHead + text);
    EXPECT_FALSE(out.codes.empty()) << text;
  }
}

TEST(Hostile, HugeAndSpecialNumbers) {
  struct Case {
    std::string value;
    const char* code;
  };
  for (const Case& c : {Case{std::string(5000, '9'), "bad-quantity"},
                        Case{"1" + std::string(400, '0') + ".5", "bad-quantity"},
                        Case{"0." + std::string(5000, '1'), "bad-quantity"},
                        Case{"\"1/0\"", "bad-quantity"}, Case{"\"0/0\"", "bad-quantity"},
                        Case{"\"" + std::string(300, '9') + "/" + std::string(300, '9') + "\"", "bad-quantity"},
                        Case{".nan", "bad-quantity"}, Case{".NaN", "bad-quantity"},
                        Case{".inf", "bad-quantity"}, Case{"-.inf", "bad-quantity"},
                        Case{"-0", "bad-quantity"}, Case{"-0.0", "bad-quantity"},
                        Case{"1e308", "bad-quantity"}, Case{"0x7fffffffffffffff", "bad-quantity"}}) {
    Outcome out = RunText(kHead + "pools: [{name: a, resources: " + c.value + "}]\n");
    EXPECT_FALSE(out.unusable) << c.value.substr(0, 30);
    EXPECT_NE(std::find(out.codes.begin(), out.codes.end(), c.code), out.codes.end())
        << c.value.substr(0, 30);
  }
  // A quoted fraction with a huge but exact value is the same as its reduced form.
  Outcome exact = RunText(kHead + "pools: [{name: a, resources: \"" + std::string(30, '0') + "8/" +
                          std::string(30, '0') + "1\"}]\n");
  EXPECT_EQ(std::count(exact.codes.begin(), exact.codes.end(), "bad-quantity"), 0);
}

TEST(Hostile, ByteOrderMarkAndCrlfAreFine) {
  std::string text = kHead + "pools: [{name: a, resources: 1}]\nprofiles: [{name: p, allotment: 1, "
                             "links: [{pool: a}]}]\npolicies: [{name: t, profiles: [p]}]\n";
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(RunText("\xEF\xBB\xBF" + text).codes, std::vector<std::string>{});
  EXPECT_EQ(RunText(crlf).codes, std::vector<std::string>{});
  EXPECT_EQ(RunText("\xEF\xBB\xBF" + crlf).codes, std::vector<std::string>{});
}

TEST(Hostile, ManyFindingsStayFast) {
  // Tens of thousands of unknown keys, each with a did-you-mean search.
  std::string keys = kHead;
  for (int i = 0; i < 30000; ++i) keys += "pool" + std::to_string(i) + ": 1\n";
  Outcome out = RunText(keys);
  EXPECT_EQ(out.codes.size(), 30000u);
  // Thousands of references to unknown pools among thousands of pools.
  std::string refs = kHead + "pools:\n";
  for (int i = 0; i < 3000; ++i) refs += "- {name: pool" + std::to_string(i) + ", resources: 1}\n";
  refs += "profiles:\n";
  for (int i = 0; i < 3000; ++i) {
    refs += "- {name: p" + std::to_string(i) + ", allotment: 1, links: [{pool: poo" + std::to_string(i) + "}]}\n";
  }
  Outcome many = RunText(refs);
  EXPECT_GE(many.codes.size(), 6000u);
  // Very long names are refused by length before any did-you-mean search.
  std::string long_name(400000, 'x');
  Outcome longs = RunText(kHead + "pools: [{name: " + long_name + ", resources: 1}]\nprofiles: [{name: p, "
                          "allotment: 1, links: [{pool: " + long_name + "y}]}]\n");
  EXPECT_EQ(std::count(longs.codes.begin(), longs.codes.end(), "bad-name"), 2);
}

TEST_F(HostileFiles, TenMegabyteSingleLine) {
  for (const std::string& line : {"description: " + std::string(10 << 20, 'a'),
                                  "pools: [" + Repeat("1,", 5 << 20) + "1]"}) {
    Outcome out = RunFile(Write("long-line.yaml", kHead + line + "\n"));
    EXPECT_TRUE(out.unusable);
    EXPECT_EQ(out.codes, std::vector<std::string>{"too-large"});  // over a limit is not unreadable
    EXPECT_NE(out.first_message.find("larger than the limit"), std::string::npos) << out.first_message;
  }
}

TEST_F(HostileFiles, DirectoryAndMissingPath) {
  Outcome directory = RunFile(dir_.string());
  EXPECT_TRUE(directory.unusable);
  EXPECT_EQ(directory.codes, std::vector<std::string>{"unreadable"});
  EXPECT_EQ(directory.first_message, "is a directory");
  Outcome missing = RunFile((dir_ / "no" / "such.yaml").string());
  EXPECT_TRUE(missing.unusable);
  EXPECT_EQ(missing.first_message, "No such file or directory");
}

}  // namespace
}  // namespace rescfg
