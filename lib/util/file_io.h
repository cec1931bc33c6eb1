#pragma once
/// Reading whole input files with a size limit and a clear error.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace rescfg {

/// Default ceiling for one configuration or jobs file read whole (bytes).
constexpr uint64_t kDefaultMaxFileBytes = uint64_t(1) << 30;  // 1 GiB

/// The finding code of a failed read: "too-large" when the input is over
/// its limit, else "unreadable".
constexpr const char* kUnreadable = "unreadable";
constexpr const char* kTooLarge = "too-large";

/// A regular file is read into a string with at least this many bytes of
/// capacity past its end: a JSON parser's padding (simdjson's is 64) then
/// fits without copying the whole file again.
constexpr size_t kReadSlack = 64;

/// Reads `path` ("-" is standard input). On failure returns nullopt and sets
/// `error` to the reason, without the file name (callers name the file):
/// "is a directory", "No such file or directory"; `code`, when given, to
/// kUnreadable or kTooLarge. A pipe or a device is read in chunks whose
/// buffer never grows past `max_bytes`, so /dev/zero costs at most the
/// limit, not twice it.
std::optional<std::string> ReadWholeFile(const std::string& path, std::string* error,
                                         uint64_t max_bytes = kDefaultMaxFileBytes, const char** code = nullptr);

/// Reads what is left to read of an open descriptor (it stays open), under
/// the same limit and with the same errors as ReadWholeFile.
std::optional<std::string> ReadWholeDescriptor(int fd, std::string* error,
                                               uint64_t max_bytes = kDefaultMaxFileBytes, const char** code = nullptr);

/// Whether two paths name one file: the same inode when both exist, else
/// the same place once their directories are resolved. "" and "-" (standard
/// streams) name no file.
bool SameFile(const std::string& a, const std::string& b);

/// Says that the process started with its standard input closed (the
/// descriptor now reads /dev/null): reading "-" is then an error, not an
/// empty input.
void MarkStandardInputClosed();

/// Name to show for a path in messages ("<stdin>" for "-").
std::string DisplayName(const std::string& path);

}  // namespace rescfg
