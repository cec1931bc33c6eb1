#include "util/markdown.h"

#include "util/inert_markdown.h"

namespace rescfg {
namespace {

/// Room kept for the closing line that says what was left out.
constexpr size_t kClosingRoom = 512;

std::string Line(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) out += " " + c + " |";
  return out + "\n";
}

}  // namespace

std::string MarkdownText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    switch (c) {
      case '|': case '\\': case '`': case '*': case '_': case '[': case ']': case '~': case '#':
        out += '\\';
        out += static_cast<char>(c);
        break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      default: out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
    }
  }
  return InertMarkdown(out);
}

std::string MarkdownCode(std::string_view text) {
  // A span opened by more backticks than any run inside it holds them all;
  // '|' still ends a table cell, so it stays outside any code span.
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t bar = text.find('|', start);
    std::string_view part = text.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
    if (!part.empty()) {
      size_t longest = 0, run = 0;
      std::string clean;
      for (unsigned char c : part) {
        run = c == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
        clean += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
      }
      const std::string fence(longest + 1, '`');
      const bool pad = clean.front() == '`' || clean.back() == '`' || clean.front() == ' ';
      out += fence + (pad ? " " : "") + clean + (pad ? " " : "") + fence;
    }
    if (bar == std::string_view::npos) break;
    out += "\\|";
    start = bar + 1;
  }
  return out;
}

MarkdownTable::MarkdownTable(std::vector<std::string> headers)
    : headers_(std::move(headers)), right_(headers_.size(), false) {}

void MarkdownTable::SetRight(size_t column) {
  if (column < right_.size()) right_[column] = true;
}

void MarkdownTable::AddRow(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(Line(cells));
}

MarkdownDocument::MarkdownDocument(size_t limit) : limit_(limit) {}

bool MarkdownDocument::Fits(size_t size) const { return out_.size() + size + kClosingRoom <= limit_; }

void MarkdownDocument::Add(std::string block) {
  block += "\n\n";
  if (Fits(block.size())) {
    out_ += block;
  } else {
    left_out_.push_back("a paragraph");
  }
}

void MarkdownDocument::Add(const MarkdownTable& table, std::string_view what) {
  std::vector<std::string> rule;
  for (bool right : table.right_) rule.push_back(right ? "--:" : "---");
  std::string head = Line(table.headers_) + Line(rule);
  size_t shown = 0;
  if (Fits(head.size() + (table.rows_.empty() ? 0 : table.rows_[0].size()))) {
    out_ += head;
    while (shown < table.rows_.size() && Fits(table.rows_[shown].size())) out_ += table.rows_[shown++];
    out_ += "\n";
  }
  if (shown < table.rows_.size()) left_out_.push_back(std::to_string(table.rows_.size() - shown) + " " + std::string(what));
}

std::string MarkdownDocument::Finish() {
  if (!left_out_.empty()) {
    std::string list;
    for (size_t i = 0; i < left_out_.size(); ++i) {
      list += (i == 0 ? "" : i + 1 == left_out_.size() ? " and " : ", ") + left_out_[i];
    }
    std::string line = "*Not shown: " + list + ", to keep this comment within " + std::to_string(limit_) +
                       " characters. Run the command locally, or with `--format json`, for everything.*\n";
    if (line.size() > kClosingRoom) line = "*Some of it is not shown, to keep this comment short.*\n";
    out_ += line;
  }
  while (out_.size() >= 2 && out_[out_.size() - 1] == '\n' && out_[out_.size() - 2] == '\n') out_.pop_back();
  return std::move(out_);
}

}  // namespace rescfg
