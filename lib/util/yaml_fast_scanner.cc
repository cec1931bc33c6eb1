#include "util/yaml_fast_scanner.h"

#include <cstddef>
#include <string>

namespace rescfg {

namespace {

/// Thrown on the first thing outside the subset; caught in ScanPlainYaml.
struct Unsupported {};

/// Deeper nesting is left to yaml-cpp (which has its own depth limit).
constexpr int kMaxDepth = 64;
/// yaml-cpp refuses a simple key longer than 1024 characters (key start to
/// ':'); stay clear of the exact boundary.
constexpr ptrdiff_t kMaxKeyLength = 1000;

bool IsAlnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// Whether a plain scalar may start with `c` (followed by `next`, or '\n' at
/// the end). Indicators (`-?:,[]{}#&*!|>'"%@` and backquote) start other
/// constructs or are reserved; `-` is accepted before a letter, digit or dot
/// (negative numbers, names), never as `- ` (an entry) or `--` (`---`).
bool PlainStart(char c, char next) {
  switch (c) {
    case ' ': case '\n': case '?': case ':': case ',': case '[': case ']': case '{': case '}':
    case '#': case '&': case '*': case '!': case '|': case '>': case '\'': case '"': case '%':
    case '@': case '`':
      return false;
    case '-':
      return IsAlnum(next) || next == '.';
    default:
      return true;
  }
}

/// yaml-cpp turns these plain scalars into null events (IsNullString).
bool IsNullText(std::string_view s) {
  return s == "~" || s == "null" || s == "Null" || s == "NULL";
}

/// Control characters other than '\n' (tabs, carriage returns; yaml-cpp
/// even treats 0x04 as end of input), DEL, and a leading byte 0xEF (a byte
/// order mark, which shifts yaml-cpp's columns) are left to yaml-cpp.
bool PlainBytes(std::string_view text) {
  if (!text.empty() && static_cast<unsigned char>(text[0]) == 0xEF) return false;
  unsigned char bad = 0;
  for (unsigned char c : text) bad |= static_cast<unsigned char>((c < 0x20 && c != '\n') | (c == 0x7F));
  return bad == 0;
}

class Scanner {
 public:
  Scanner(std::string_view text, YamlEventSink* sink)
      : begin_(text.data()), end_(text.data() + text.size()), p_(begin_), line_start_(begin_), sink_(sink) {}

  void Document() {
    if (!NextContent(/*document_start_allowed=*/true) || indent_ != 0) throw Unsupported{};
    BlockMap(0);
    if (!eof_) throw Unsupported{};
  }

 private:
  char At(const char* q) const { return q < end_ ? *q : '\n'; }
  char Cur() const { return At(p_); }
  int Column() const { return static_cast<int>(p_ - line_start_); }
  Mark Here() const { return {line_, Column() + 1}; }
  /// Where yaml-cpp puts the token after a null in the collection at column
  /// `col`: the next content; at the end of the input, the end of the last
  /// line if that closes the collection, else (the column is reset before
  /// the remaining collections are closed) the start of the last line.
  Mark NextMark(int col, bool seq) const {
    if (!eof_) return Here();
    const int end_column = Column();
    return (col > end_column || (seq && col == end_column)) ? Here() : Mark{line_, 1};
  }

  void Emit(Ev type, Mark mark, std::string_view text = {}) { sink_->Handle(Event(type, mark, 0, text)); }
  void EmitScalar(Mark mark, std::string_view text, bool plain) {
    Emit(plain && IsNullText(text) ? Ev::kNull : Ev::kScalar, mark, text);
  }
  void EmitQuoted(Mark mark, std::string_view text) {
    Event ev(Ev::kScalar, mark, 0, text);
    ev.quoted = true;
    sink_->Handle(ev);
  }

  void SkipSpaces() {
    while (p_ < end_ && *p_ == ' ') ++p_;
  }

  /// After a node: only spaces, then a comment (after a space) or the end of
  /// the line may follow. Leaves p_ at the start of the next line.
  void EndLine() {
    SkipSpaces();
    if (p_ < end_ && *p_ == '#') {
      if (p_ == line_start_ || p_[-1] != ' ') throw Unsupported{};  // '#' right after a token
      while (p_ < end_ && *p_ != '\n') ++p_;
    }
    if (p_ < end_) {
      if (*p_ != '\n') throw Unsupported{};
      ++p_;
      ++line_;
      line_start_ = p_;
    }
  }

  /// From the start of a line, skips blank and comment lines. Returns false
  /// at the end of the input; otherwise p_ is on the line's first non-space
  /// character and indent_ its column.
  bool NextContent(bool document_start_allowed = false) {
    while (true) {
      const char* q = p_;
      while (q < end_ && *q == ' ') ++q;
      if (q == end_) {
        p_ = q;
        eof_ = true;
        return false;
      }
      if (*q == '\n' || *q == '#') {
        while (q < end_ && *q != '\n') ++q;
        if (q == end_) {
          p_ = q;
          eof_ = true;
          return false;
        }
        p_ = line_start_ = q + 1;
        ++line_;
        continue;
      }
      indent_ = static_cast<int>(q - p_);
      p_ = q;
      if (indent_ == 0 && end_ - q >= 3 &&
          ((q[0] == '-' && q[1] == '-' && q[2] == '-') || (q[0] == '.' && q[1] == '.' && q[2] == '.'))) {
        // A document marker: only one leading "---" line is in the subset.
        if (!document_start_allowed || q[0] != '-') throw Unsupported{};
        p_ += 3;
        SkipSpaces();
        if (p_ < end_ && *p_ != '\n') throw Unsupported{};
        if (p_ == end_) throw Unsupported{};
        ++p_;
        ++line_;
        line_start_ = p_;
        document_start_allowed = false;
        continue;
      }
      return true;
    }
  }

  bool IsSeqEntry() const { return Cur() == '-' && (At(p_ + 1) == ' ' || At(p_ + 1) == '\n'); }
  bool AtLineEnd() const { return Cur() == '\n' || Cur() == '#'; }

  void Enter() {
    if (++depth_ > kMaxDepth) throw Unsupported{};
  }

  /// The block node starting on the current content line, at column indent_.
  void BlockNode() {
    if (IsSeqEntry()) {
      BlockSeq(indent_);
    } else {
      BlockMap(indent_);
    }
  }

  /// A block mapping whose first key is at p_ (column `col`, possibly after
  /// "- " on the same line); further keys start lines at exactly `col`.
  /// Returns on the first content line that is not part of it.
  void BlockMap(int col) {
    Enter();
    Emit(Ev::kMapStart, Here());
    while (true) {
      Key();
      SkipSpaces();
      if (AtLineEnd()) {
        EndLine();
        if (!NextContent() || indent_ < col) {
          Emit(Ev::kNull, NextMark(col, false));
          break;
        }
        if (indent_ > col) {
          BlockNode();
        } else if (IsSeqEntry()) {
          BlockSeq(col);  // a sequence may sit at its key's column
        } else {
          Emit(Ev::kNull, Here());  // the next key
          continue;
        }
      } else {
        InlineValue();
      }
      if (eof_ || indent_ < col) break;
      if (indent_ > col) throw Unsupported{};
    }
    Emit(Ev::kMapEnd, {});
    --depth_;
  }

  /// A block sequence whose first "-" is at p_, column `col`. Returns on the
  /// first content line that is not one of its entries.
  void BlockSeq(int col) {
    Enter();
    Emit(Ev::kSeqStart, Here());
    while (true) {
      ++p_;  // '-'
      SkipSpaces();
      if (AtLineEnd()) {
        EndLine();
        if (NextContent() && indent_ > col) {
          BlockNode();
        } else {
          Emit(Ev::kNull, NextMark(col, true));
        }
      } else if (IsSeqEntry()) {
        throw Unsupported{};  // "- - x"
      } else if (KeyAhead()) {
        BlockMap(Column());
      } else {
        InlineValue();
      }
      if (eof_ || indent_ < col) break;
      if (indent_ > col) throw Unsupported{};
      if (!IsSeqEntry()) break;  // the mapping holding this sequence goes on
    }
    Emit(Ev::kSeqEnd, {});
    --depth_;
  }

  /// Whether the content at p_ is a key (of a compact mapping in a sequence
  /// entry) rather than a value.
  bool KeyAhead() {
    const char c = Cur();
    if (c == '"' || c == '\'') {
      const char* saved = p_;
      QuotedText();
      SkipSpaces();
      const bool key = Cur() == ':' && (At(p_ + 1) == ' ' || At(p_ + 1) == '\n');
      p_ = saved;
      return key;
    }
    if (!PlainStart(c, At(p_ + 1))) return false;
    bool key = false;
    PlainBlockEnd(p_, &key);
    return key;
  }

  /// The end of a plain scalar starting at q in block context (before
  /// trailing spaces are trimmed): a ':' followed by a space or the end of
  /// the line (then *key is set), " #", or the end of the line.
  const char* PlainBlockEnd(const char* q, bool* key) const {
    while (q < end_) {
      const char c = *q;
      if (c == '\n') break;
      if (c == ':') {
        const char n = At(q + 1);
        if (n == ' ' || n == '\n') {
          *key = true;
          return q;
        }
      } else if (c == ' ' && At(q + 1) == '#') {
        break;
      }
      ++q;
    }
    *key = false;
    return q;
  }

  static std::string_view TrimRight(const char* b, const char* e) {
    while (e > b && e[-1] == ' ') --e;
    return {b, static_cast<size_t>(e - b)};
  }

  /// A mapping key at p_, then its ':' (followed by a space or the end of
  /// the line); p_ is left after the ':'.
  void Key() {
    const Mark mark = Here();
    const char* start = p_;
    const char c = Cur();
    if (c == '"' || c == '\'') {
      const std::string_view text = QuotedText();
      SkipSpaces();
      if (Cur() != ':' || (At(p_ + 1) != ' ' && At(p_ + 1) != '\n')) throw Unsupported{};
      if (p_ - start > kMaxKeyLength) throw Unsupported{};
      EmitQuoted(mark, text);
    } else {
      if (!PlainStart(c, At(p_ + 1))) throw Unsupported{};
      bool key = false;
      p_ = PlainBlockEnd(p_, &key);
      if (!key || p_ - start > kMaxKeyLength) throw Unsupported{};
      EmitScalar(mark, TrimRight(start, p_), true);
    }
    ++p_;  // ':'
  }

  /// A value on the rest of the line (scalar or flow collection), then the
  /// end of that line and the next content line.
  void InlineValue() {
    const Mark mark = Here();
    const char c = Cur();
    if (c == '{') {
      FlowMap();
    } else if (c == '[') {
      FlowSeq();
    } else if (c == '"' || c == '\'') {
      EmitQuoted(mark, QuotedText());
    } else {
      if (!PlainStart(c, At(p_ + 1))) throw Unsupported{};
      const char* start = p_;
      bool key = false;
      p_ = PlainBlockEnd(p_, &key);
      if (key) throw Unsupported{};  // "a: b: c" and the like
      EmitScalar(mark, TrimRight(start, p_), true);
    }
    EndLine();
    NextContent();
  }

  /// A quoted scalar on one line; p_ is left after the closing quote.
  /// Double-quoted escapes are decoded as yaml-cpp does, except the ones
  /// that produce multi-byte or invalid text (\x \u \U \N \_ \L \P).
  std::string_view QuotedText() {
    const char quote = *p_++;
    const char* start = p_;
    bool copied = false;
    while (true) {
      if (p_ == end_ || *p_ == '\n') throw Unsupported{};  // multi-line
      const char c = *p_;
      if (c == quote) {
        if (quote == '\'' && At(p_ + 1) == '\'') {
          Copy(start, &copied);
          scratch_ += '\'';
          p_ += 2;
          continue;
        }
        break;
      }
      if (quote == '"' && c == '\\') {
        Copy(start, &copied);
        scratch_ += Unescape(At(p_ + 1));
        p_ += 2;
        continue;
      }
      if (copied) scratch_ += c;
      ++p_;
    }
    const std::string_view text = copied ? std::string_view(scratch_) : std::string_view(start, p_ - start);
    ++p_;  // closing quote
    return text;
  }

  /// Switches a quoted scalar over to the scratch buffer at its first escape.
  void Copy(const char* start, bool* copied) {
    if (*copied) return;
    scratch_.assign(start, p_);
    *copied = true;
  }

  static char Unescape(char c) {
    switch (c) {
      case '0': return '\0';
      case 'a': return '\x07';
      case 'b': return '\x08';
      case 't': return '\x09';
      case 'n': return '\x0A';
      case 'v': return '\x0B';
      case 'f': return '\x0C';
      case 'r': return '\x0D';
      case 'e': return '\x1B';
      case ' ': return ' ';
      case '"': return '"';
      case '\'': return '\'';
      case '\\': return '\\';
      case '/': return '/';
      default: throw Unsupported{};
    }
  }

  /// A plain scalar in a flow collection: it ends at one of ",[]{}?", at a
  /// ':' before a space, the end of the line or one of ",]}", and must not
  /// reach a comment or the end of the line (multi-line flow).
  std::string_view PlainFlow() {
    if (!PlainStart(Cur(), At(p_ + 1))) throw Unsupported{};
    const char* start = p_;
    while (true) {
      if (p_ == end_) throw Unsupported{};
      const char c = *p_;
      if (c == '\n') throw Unsupported{};
      if (c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '?') break;
      if (c == ':') {
        const char n = At(p_ + 1);
        if (n == ' ' || n == '\n' || n == ',' || n == ']' || n == '}') break;
      } else if (c == ' ' && At(p_ + 1) == '#') {
        throw Unsupported{};
      }
      ++p_;
    }
    return TrimRight(start, p_);
  }

  /// A key or value inside a flow collection.
  void FlowNode() {
    const Mark mark = Here();
    const char c = Cur();
    if (c == '{') {
      FlowMap();
    } else if (c == '[') {
      FlowSeq();
    } else if (c == '"' || c == '\'') {
      EmitQuoted(mark, QuotedText());
    } else {
      EmitScalar(mark, PlainFlow(), true);
    }
    SkipSpaces();
  }

  /// A one-line flow mapping of `key: value` pairs at p_ ('{').
  void FlowMap() {
    Enter();
    Emit(Ev::kMapStart, Here());
    ++p_;
    SkipSpaces();
    if (Cur() != '}') {
      while (true) {
        if (Cur() == '{' || Cur() == '[') throw Unsupported{};  // collection as key
        FlowNode();
        if (Cur() != ':' || At(p_ + 1) != ' ') throw Unsupported{};
        ++p_;
        SkipSpaces();
        FlowNode();
        if (Cur() == '}') break;
        if (Cur() != ',') throw Unsupported{};
        ++p_;
        SkipSpaces();
        if (Cur() == '}') throw Unsupported{};  // trailing comma
      }
    }
    ++p_;
    Emit(Ev::kMapEnd, {});
    --depth_;
  }

  /// A one-line flow sequence at p_ ('[').
  void FlowSeq() {
    Enter();
    Emit(Ev::kSeqStart, Here());
    ++p_;
    SkipSpaces();
    if (Cur() != ']') {
      while (true) {
        FlowNode();
        if (Cur() == ']') break;
        if (Cur() != ',') throw Unsupported{};  // also "[a: b]"
        ++p_;
        SkipSpaces();
        if (Cur() == ']') throw Unsupported{};
      }
    }
    ++p_;
    Emit(Ev::kSeqEnd, {});
    --depth_;
  }

  const char* begin_;
  const char* end_;
  const char* p_;
  const char* line_start_;
  int line_ = 1;
  int indent_ = 0;
  bool eof_ = false;
  int depth_ = 0;
  std::string scratch_;
  YamlEventSink* sink_;
};

}  // namespace

bool ScanPlainYaml(std::string_view text, YamlEventSink* sink) {
  if (!PlainBytes(text)) return false;
  try {
    Scanner(text, sink).Document();
  } catch (const Unsupported&) {
    return false;
  }
  return true;
}

}  // namespace rescfg
