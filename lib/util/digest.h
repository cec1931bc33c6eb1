#pragma once
/// Digests from OpenSSL's libcrypto: SHA-256 to fingerprint stored
/// revisions, HMAC-SHA256 to make plans tamper-evident (state/plan_key.h).

#include <optional>
#include <string>
#include <string_view>

namespace rescfg {

/// The SHA-256 digest of `data` as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);

/// The HMAC-SHA256 of `data` under `key` as 64 lowercase hex digits.
std::string HmacSha256Hex(std::string_view key, std::string_view data);

/// Whether two digests are equal, in a time that does not depend on where
/// they first differ (a signature check must not tell how much was right).
bool DigestsEqual(std::string_view a, std::string_view b);

/// `n` bytes from the system's cryptographic random source; nullopt when
/// it fails.
std::optional<std::string> RandomBytes(size_t n);

}  // namespace rescfg
