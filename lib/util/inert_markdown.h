#pragma once
/// Text that GitHub renders as written and never acts on (rescfg-diff(1),
/// MARKDOWN): no live @mention, no issue or pull-request reference, no bare
/// link, no e-mail link.
///
/// The scheme is the one GitHub's own bots use for untrusted names: a
/// zero-width space (written as the entity &#8203;, so the file stays
/// readable) right after every '@' and '#', inside every "://" (after the
/// ':') and between "www" and the '.' that follows it. The reader sees the
/// name unchanged; the renderer finds no mention, reference or link in it.

#include <string>
#include <string_view>

namespace rescfg {

/// The zero-width space, as an HTML entity.
inline constexpr std::string_view kMarkdownBreak = "&#8203;";

/// `markdown` (text already escaped for Markdown, e.g. by MarkdownText) with
/// the breaks above inserted.
std::string InertMarkdown(std::string_view markdown);

}  // namespace rescfg
