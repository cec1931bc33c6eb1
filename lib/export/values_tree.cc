#include "export/values_tree.h"

#include <array>
#include <cctype>

#include "config/canonical.h"
#include "util/json_writer.h"

namespace rescfg {
namespace {

/// Words YAML 1.1 readers (yaml.v2 under Helm, PyYAML) take for booleans or null.
constexpr std::array<std::string_view, 9> kReservedWords{"y", "n", "yes", "no", "true", "false", "on", "off", "null"};

bool IsReservedWord(std::string_view key) {
  for (std::string_view word : kReservedWords) {
    if (word.size() != key.size()) continue;
    bool same = true;
    for (size_t i = 0; i < key.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(key[i])) == word[i];
    }
    if (same) return true;
  }
  return false;
}

bool IsPlainKey(std::string_view key) {
  if (key.empty() || !std::isalpha(static_cast<unsigned char>(key[0]))) return false;
  for (char c : key) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || !(std::isalnum(u) || c == '.' || c == '_' || c == '/' || c == '-')) return false;
  }
  return !IsReservedWord(key);
}

/// YAML allows an implicit key of at most 1024 characters: a longer one
/// (a long queue name, quoted with escapes) is written as an explicit key,
/// "? KEY" on a line of its own (in flow: "? KEY :"). Followed by ':' and
/// the value, as an implicit key is.
std::string KeyBefore(std::string_view key, int indent, bool flow) {
  std::string written = YamlKey(key);
  if (written.size() <= 1024) return written;
  return "? " + written + (flow ? " " : "\n" + std::string(static_cast<size_t>(indent), ' '));
}

}  // namespace

std::string YamlKey(std::string_view key) { return IsPlainKey(key) ? std::string(key) : YamlQuote(key); }

ValueNode ValueNode::Map(bool flow) {
  ValueNode node;
  node.kind_ = Kind::kMap;
  node.flow_ = flow;
  return node;
}

ValueNode ValueNode::String(std::string text) {
  ValueNode node;
  node.kind_ = Kind::kString;
  node.text_ = std::move(text);
  return node;
}

ValueNode ValueNode::Number(Quantity value) {
  ValueNode node;
  node.kind_ = Kind::kNumber;
  node.number_ = value;
  return node;
}

ValueNode ValueNode::Bool(bool value) {
  ValueNode node;
  node.kind_ = Kind::kBool;
  node.text_ = value ? "true" : "false";
  return node;
}

ValueNode ValueNode::Int(int64_t value) {
  ValueNode node;
  node.kind_ = Kind::kInt;
  node.text_ = std::to_string(value);
  node.int_ = value;
  return node;
}

ValueNode ValueNode::List() {
  ValueNode node;
  node.kind_ = Kind::kList;
  return node;
}

ValueNode& ValueNode::Push(ValueNode value) { return Add("", std::move(value)); }

ValueNode& ValueNode::Add(std::string key, ValueNode value) {
  members_.emplace_back(std::move(key), std::make_unique<ValueNode>(std::move(value)));
  return *members_.back().second;
}

void ValueNode::WriteInline(std::string* out) const {
  switch (kind_) {
    case Kind::kString: *out += YamlQuote(text_); return;
    case Kind::kNumber: *out += number_.ToString(); return;
    case Kind::kBool:
    case Kind::kInt: *out += text_; return;
    case Kind::kList:
      *out += '[';
      for (size_t i = 0; i < members_.size(); ++i) {
        if (i > 0) *out += ", ";
        members_[i].second->WriteInline(out);
      }
      *out += ']';
      return;
    case Kind::kMap: break;
  }
  *out += '{';
  for (size_t i = 0; i < members_.size(); ++i) {
    if (i > 0) *out += ", ";
    *out += KeyBefore(members_[i].first, 0, /*flow=*/true) + ": ";
    members_[i].second->WriteInline(out);
  }
  *out += '}';
}

void ValueNode::WriteYaml(std::string* out, int indent) const {
  for (const auto& [key, member] : members_) {
    const ValueNode& value = *member;
    out->append(static_cast<size_t>(indent), ' ');
    *out += KeyBefore(key, indent, /*flow=*/false) + ":";
    if (value.kind_ == Kind::kMap && !value.flow_ && !value.members_.empty()) {
      *out += '\n';
      value.WriteYaml(out, indent + 2);
      continue;
    }
    if (value.kind_ == Kind::kList && !value.members_.empty()) {
      *out += '\n';
      for (const auto& item : value.members_) {
        out->append(static_cast<size_t>(indent + 2), ' ');
        *out += "- ";
        item.second->WriteInline(out);
        *out += '\n';
      }
      continue;
    }
    *out += ' ';
    value.WriteInline(out);
    *out += '\n';
  }
}

void ValueNode::WriteJson(JsonWriter& json) const {
  switch (kind_) {
    case Kind::kString: json.String(text_); return;
    case Kind::kNumber: json.Amount(number_); return;
    case Kind::kBool: json.Bool(text_ == "true"); return;
    case Kind::kInt: json.Int(int_); return;
    case Kind::kList:
      json.BeginArray();
      for (const auto& item : members_) item.second->WriteJson(json);
      json.EndArray();
      return;
    case Kind::kMap: break;
  }
  json.BeginObject();
  for (const auto& [key, value] : members_) {
    json.Key(key);
    value->WriteJson(json);
  }
  json.EndObject();
}

}  // namespace rescfg
