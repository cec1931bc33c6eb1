#include "config/k8s_names.h"

namespace rescfg {
namespace {

bool Alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool LowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

std::string Dns1123SubdomainProblem(std::string_view text) {
  if (text.empty()) return "it is empty";
  if (text.size() > 253) return "it is longer than 253 characters";
  size_t start = 0;
  while (start <= text.size()) {
    size_t dot = text.find('.', start);
    std::string_view label = text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty()) return "it has an empty part between dots";
    if (!LowerAlnum(label.front()) || !LowerAlnum(label.back())) {
      return "each part must start and end with a lowercase letter or digit";
    }
    for (char c : label) {
      if (!LowerAlnum(c) && c != '-') return "only lowercase letters, digits, '-' and '.' are allowed";
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return "";
}

std::string QualifiedNameProblem(std::string_view name) {
  std::string_view local = name;
  if (size_t slash = name.find('/'); slash != std::string_view::npos) {
    std::string problem = Dns1123SubdomainProblem(name.substr(0, slash));
    if (!problem.empty()) return "its prefix is not a DNS subdomain: " + problem;
    local = name.substr(slash + 1);
  }
  if (local.empty()) return "the name after the prefix is empty";
  if (local.size() > 63) return "the name after the prefix is longer than 63 characters";
  return LabelValueProblem(local);
}

std::string ResourceNameProblem(std::string_view name) { return QualifiedNameProblem(name); }

std::string Dns1123LabelProblem(std::string_view text) {
  if (text.empty()) return "it is empty";
  if (text.size() > 63) return "it is longer than 63 characters";
  if (!LowerAlnum(text.front()) || !LowerAlnum(text.back())) {
    return "it must start and end with a lowercase letter or digit";
  }
  for (char c : text) {
    if (!LowerAlnum(c) && c != '-') return "only lowercase letters, digits and '-' are allowed";
  }
  return "";
}

std::string LabelKeyProblem(std::string_view key) { return QualifiedNameProblem(key); }

std::string LabelValueProblem(std::string_view value) {
  if (value.empty()) return "";
  if (value.size() > 63) return "it is longer than 63 characters";
  if (!Alnum(value.front()) || !Alnum(value.back())) return "it must start and end with a letter or digit";
  for (char c : value) {
    if (!Alnum(c) && c != '-' && c != '_' && c != '.') return "only letters, digits, '-', '_' and '.' are allowed";
  }
  return "";
}

std::string Dns1123Label(std::string_view name) {
  std::string out;
  bool dash = false;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (LowerAlnum(c)) {
      if (dash && !out.empty()) out.push_back('-');
      dash = false;
      out.push_back(c);
    } else {
      dash = true;
    }
  }
  if (out.size() > 63) out.resize(63);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace rescfg
