#pragma once
/// GitHub-flavoured Markdown for pull-request comments (`diff` and `plan`
/// with `--format markdown`): tables whose cells cannot break the table or
/// start formatting, and a document that never outgrows a comment.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rescfg {

/// The longest comment GitHub accepts, in characters; we count bytes, which
/// is never fewer.
inline constexpr size_t kMarkdownCommentLimit = 65536;

/// `text` as literal table-cell content: `|`, backslash and the characters
/// that start emphasis, code or links are escaped, `<`, `>` and `&` become
/// entities, line breaks and other control characters blanks; mentions,
/// references and links are broken (InertMarkdown). "" is "".
std::string MarkdownText(std::string_view text);

/// `text` in code spans (`like this`), safe whatever backticks it holds.
std::string MarkdownCode(std::string_view text);

/// A table; cells are Markdown already (escape with MarkdownText).
class MarkdownTable {
 public:
  explicit MarkdownTable(std::vector<std::string> headers);
  /// Right-aligns a column (numbers, durations).
  void SetRight(size_t column);
  void AddRow(std::vector<std::string> cells);
  size_t rows() const { return rows_.size(); }

 private:
  friend class MarkdownDocument;
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::string> rows_;  ///< rendered lines
};

/// A document bounded by kMarkdownCommentLimit (or `limit`): what does not
/// fit is left out and a last line says how much and why.
class MarkdownDocument {
 public:
  explicit MarkdownDocument(size_t limit = kMarkdownCommentLimit);
  /// A paragraph or heading (a blank line follows it). Left out whole when
  /// it does not fit.
  void Add(std::string block);
  /// A table, with as many rows as fit; `what` names its rows for the line
  /// that counts the rest ("changes", "jobs").
  void Add(const MarkdownTable& table, std::string_view what);
  std::string Finish();

 private:
  bool Fits(size_t size) const;
  size_t limit_;
  std::string out_;
  std::vector<std::string> left_out_;  ///< "12 changes", ...
};

}  // namespace rescfg
