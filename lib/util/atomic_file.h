#pragma once
/// Durable file updates: a reader (or a crash) sees the old content or the
/// new one, never a mix.

#include <string>
#include <string_view>

namespace rescfg {

/// Replaces `path` with `content`: writes a temporary file in the same
/// directory, fsyncs it, renames it over `path` and fsyncs the directory.
/// An existing file's permission bits are kept (not setuid, setgid or
/// sticky bits). The temporary name stays within NAME_MAX. On failure the old file is
/// untouched, the temporary file is removed and `error` says why.
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

/// WriteFileAtomically in steps, for content produced piece by piece (a
/// large output need not be held whole). Until Commit succeeds `path` is
/// untouched; a writer destroyed uncommitted removes its temporary file.
class AtomicFileWriter {
 public:
  AtomicFileWriter() = default;
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  bool Open(const std::string& path, std::string* error);
  bool Write(std::string_view data, std::string* error);
  /// fsyncs, renames over the path and fsyncs the directory.
  bool Commit(std::string* error);

 private:
  void Abort();
  std::string path_, temp_;
  int fd_ = -1;
};

/// True when `name` is the name of a temporary file AtomicFileWriter makes
/// for a file named `base`: ".BASE.tmp-PID-N" (a name too long for that is
/// cut, and never matches).
bool IsTemporaryNameOf(std::string_view name, std::string_view base);

/// Appends `line` (which must end in '\n') with one write and fsyncs it.
/// The file is opened as a state file (OpenStateFile: no symbolic link, no
/// FIFO).
/// A crash can leave at most an incomplete last line, never a gap.
bool AppendDurably(const std::string& path, std::string_view line, std::string* error);

/// Shortens `path` to `size` bytes and fsyncs it.
bool TruncateDurably(const std::string& path, size_t size, std::string* error);

/// fsyncs a directory so that renames and new entries in it survive a crash.
bool SyncDirectory(const std::string& dir, std::string* error);

/// The directory part of a path ("." for a bare file name).
std::string DirectoryOf(const std::string& path);

}  // namespace rescfg
