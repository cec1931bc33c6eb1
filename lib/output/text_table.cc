#include "output/text_table.h"

#include <algorithm>

namespace rescfg {

size_t DisplayWidth(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++width;  // count lead bytes only
  }
  return width;
}

TextTable::TextTable(std::vector<std::string> headers)
    : headers_(std::move(headers)), align_(headers_.size(), Align::kLeft) {}

void TextTable::SetAlign(size_t column, Align align) {
  if (column < align_.size()) align_[column] = align;
}

void TextTable::AddRow(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::Render() const {
  std::vector<size_t> widths(headers_.size());
  for (size_t c = 0; c < headers_.size(); ++c) {
    widths[c] = DisplayWidth(headers_[c]);
    for (const auto& row : rows_) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
  }
  std::string out;
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      size_t pad = widths[c] - DisplayWidth(cells[c]);
      if (c > 0) line += "  ";
      if (align_[c] == Align::kRight) line.append(pad, ' ');
      line += cells[c];
      if (align_[c] == Align::kLeft) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  emit(headers_);
  for (const auto& row : rows_) emit(row);
  return out;
}

}  // namespace rescfg
