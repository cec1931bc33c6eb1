#pragma once
/// Plain-text tables for terminals: a header row, columns padded to the
/// widest cell (counted in characters, not bytes), two spaces between.

#include <string>
#include <string_view>
#include <vector>

namespace rescfg {

class TextTable {
 public:
  enum class Align { kLeft, kRight };

  explicit TextTable(std::vector<std::string> headers);
  /// Right-aligns a column (numbers).
  void SetAlign(size_t column, Align align);
  /// A row; missing cells are blank, extra cells are ignored. Cells are
  /// shown through VisibleText.
  void AddRow(std::vector<std::string> cells);
  size_t rows() const { return rows_.size(); }

  /// The table, one line per row, each ending in '\n', no trailing blanks.
  std::string Render() const;

 private:
  std::vector<std::string> headers_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

/// Display width of UTF-8 text: the number of code points.
size_t DisplayWidth(const std::string& text);

/// `text` safe to print on a terminal: control characters (C0, DEL, C1),
/// bytes that are not UTF-8, and the invisible characters that move or
/// hide text (U+200B-U+200F, U+2028-U+202E, U+2066-U+2069, U+FEFF,
/// U+FFFE, U+FFFF) are shown as \xNN or \uXXXX, a backslash as itself.
/// Tables and other text outputs print every cell through it.
std::string VisibleText(std::string_view text);

}  // namespace rescfg
