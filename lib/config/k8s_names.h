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

}  // namespace rescfg
