#pragma once
/// Kubernetes naming rules that configuration values must follow when an
/// export writes them into Kubernetes objects (resource names such as
/// nvidia.com/mig-1g.10gb).

#include <string>
#include <string_view>

namespace rescfg {

/// Why `name` is not a qualified Kubernetes name ([PREFIX/]NAME: PREFIX a
/// DNS-1123 subdomain of at most 253 characters, NAME at most 63 of
/// [A-Za-z0-9-_.], starting and ending alphanumeric), or "" when it is.
std::string QualifiedNameProblem(std::string_view name);

/// A resource name (nvidia.com/gpu, nvidia.com/mig-1g.10gb): a qualified
/// name. Why not, or "".
std::string ResourceNameProblem(std::string_view name);

/// Why `text` is not a DNS-1123 subdomain (lowercase alphanumerics, '-'
/// and '.', alphanumeric at both ends, at most 253), or "".
std::string Dns1123SubdomainProblem(std::string_view text);

/// Why `text` is not a DNS-1123 label (lowercase alphanumerics and '-',
/// alphanumeric at both ends, at most 63): the form of namespaces and of
/// the Kueue object names an export writes. "" when it is one.
std::string Dns1123LabelProblem(std::string_view text);

/// A label key is a qualified name ([PREFIX/]NAME). Why not, or "".
std::string LabelKeyProblem(std::string_view key);

/// Why `value` is not a label value (empty, or at most 63 of
/// [A-Za-z0-9-_.] starting and ending alphanumeric), or "".
std::string LabelValueProblem(std::string_view value);

/// The DNS-1123 label form of a rescfg name: ASCII letters lowercased,
/// digits kept, every run of anything else one '-', no '-' at either end,
/// cut to 63 characters. "" when the name holds no ASCII letter or digit.
/// Stable: it depends on the name only.
std::string Dns1123Label(std::string_view name);

}  // namespace rescfg
