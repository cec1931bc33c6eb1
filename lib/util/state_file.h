#pragma once
/// Opening the files of a state directory safely (rescfg(1), COMMANDS: "no file in it
/// can make a command hang"): never blocking, never following a symbolic
/// link, and refusing anything that is not a regular file (a FIFO, a
/// device, a directory, a socket).

#include <optional>
#include <string>

namespace rescfg {

/// What is at a path, without following a final symbolic link (lstat).
enum class EntryKind { kMissing, kRegular, kDirectory, kSymlink, kOther };
EntryKind KindOf(const std::string& path);
/// "a FIFO", "a symbolic link", ... for messages about a KindOf result.
std::string DescribeKind(const std::string& path);

/// Opens `path` with O_NONBLOCK and O_NOFOLLOW (plus `flags`, e.g.
/// O_RDONLY, O_WRONLY | O_APPEND | O_CREAT) and checks with fstat that it
/// is a regular file; blocking is switched back on for the reads and writes
/// that follow. Returns the descriptor, or -1 with `error` set ("PATH: is
/// a FIFO; state files must be regular files"). `missing` (when given) is
/// set when the path does not exist, and `error` is then set too.
int OpenStateFile(const std::string& path, int flags, std::string* error, bool* missing = nullptr);

/// Reads a whole state file through OpenStateFile. nullopt with `error`
/// set when it is missing, not a regular file or unreadable.
std::optional<std::string> ReadStateFile(const std::string& path, std::string* error,
                                         bool* missing = nullptr);

}  // namespace rescfg
