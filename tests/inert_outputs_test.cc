/// Outputs pasted elsewhere stay inert: Markdown without live mentions,
/// references or links; Graphviz strings a trailing backslash cannot break;
/// server strings that cannot forge a log line.

#include <gtest/gtest.h>

#include "graph/dot_text.h"
#include "util/inert_markdown.h"
#include "util/markdown.h"
#include "sync/server_text.h"

namespace rescfg {
namespace {

TEST(InertMarkdown, NoMentionReferenceOrLinkSurvives) {
  EXPECT_EQ(MarkdownText("@org/team"), "@&#8203;org/team");
  EXPECT_EQ(MarkdownText("fixes #12"), "fixes \\#&#8203;12");
  EXPECT_EQ(MarkdownText("owner/repo#3"), "owner/repo\\#&#8203;3");
  EXPECT_EQ(MarkdownText("https://evil.example/x"), "https:&#8203;//evil.example/x");
  EXPECT_EQ(MarkdownText("see www.evil.example"), "see www&#8203;.evil.example");
  EXPECT_EQ(MarkdownText("WWW.Evil.example"), "WWW&#8203;.Evil.example");
  EXPECT_EQ(MarkdownText("me@example.com"), "me@&#8203;example.com");
  EXPECT_EQ(MarkdownText("<img src=x>"), "&lt;img src=x&gt;");
  // Plain names are untouched.
  EXPECT_EQ(MarkdownText("dev-4gpu: a100"), "dev-4gpu: a100");
  EXPECT_EQ(MarkdownText("wwwx.y"), "wwwx.y");
}

TEST(InertMarkdown, OnlyTheBreakIsAdded) {
  EXPECT_EQ(InertMarkdown("a@b#c"), "a@&#8203;b#&#8203;c");
  EXPECT_EQ(InertMarkdown("ftp://h"), "ftp:&#8203;//h");
  EXPECT_EQ(InertMarkdown("a:b"), "a:b");
  EXPECT_EQ(InertMarkdown(""), "");
}

TEST(DotQuotedText, ABackslashCannotEscapeTheClosingQuote) {
  EXPECT_EQ(DotQuotedText("team\\"), "team\\\\");
  EXPECT_EQ(DotQuotedText("a\"b"), "a&quot;b");
  EXPECT_EQ(DotQuotedText("\\N <x> & y"), "\\\\N &lt;x&gt; &amp; y");
}

TEST(ServerText, NoForgedLineNoTerminalEscape) {
  EXPECT_EQ(sync::ServerText("t1\nrescfg: error: forged"), "t1\\nrescfg: error: forged");
  EXPECT_EQ(sync::ServerText("a\rb\tc"), "a\\rb\\tc");
  EXPECT_EQ(sync::ServerText("\x1b[31mred"), "\\x1B[31mred");
  EXPECT_EQ(sync::ServerText("ok \xE2\x80\xAE"), "ok \\u202E");
  EXPECT_EQ(sync::ServerText(sync::ServerText("x\n\x1b")), "x\\n\\x1B");
  EXPECT_EQ(sync::ServerText("plain-id_42"), "plain-id_42");
}

}  // namespace
}  // namespace rescfg
