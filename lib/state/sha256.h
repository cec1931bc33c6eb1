#pragma once
/// SHA-256 (FIPS 180-4), enough to fingerprint stored revisions.

#include <string>
#include <string_view>

namespace rescfg {

/// The digest of `data` as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);

}  // namespace rescfg
