#pragma once
/// The text of an input file read whole: copied into memory, or, for a
/// large regular file, mapped from the page cache where reading it has put
/// it already. A copy takes a fresh page of memory for every 4 KB of the
/// file, which the kernel must clear first; on a virtual machine that hands
/// freed memory back to its host (free page reporting), every such page is
/// also a fault of the host. A mapping reads the cached pages in place.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rescfg {

/// Files at least this large are mapped rather than copied.
constexpr size_t kMapBytes = size_t(8) << 20;

class FileText {
 public:
  FileText() = default;
  explicit FileText(std::string text) : owned_(std::move(text)) {}
  FileText(FileText&& other) noexcept { *this = std::move(other); }
  FileText& operator=(FileText&& other) noexcept;
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText() { Unmap(); }

  /// Maps `size` bytes of the regular file open on `fd`, with at least
  /// kReadSlack zero bytes readable past its end (a JSON parser's
  /// padding). The pages are private: writing to them changes no file.
  /// `name` is what a message says if the file is cut short while mapped.
  static std::optional<FileText> Map(int fd, size_t size, const std::string& name, std::string* error);

  std::string_view view() const { return {data(), size()}; }
  const char* data() const { return map_ ? static_cast<const char*>(map_) : owned_.data(); }
  /// The text to change in place (a fix-up of line ends). A mapping stays
  /// read-only until this is first asked for: most inputs are only read,
  /// and making 371 MB of mapped pages writable costs 15-25 ms. Its pages
  /// are private: only a page written to is copied, and the file never
  /// changes. Throws std::bad_alloc when the pages cannot be made writable.
  char* writable_data();
  size_t size() const { return map_ ? size_ : owned_.size(); }
  bool empty() const { return size() == 0; }
  /// Whether the text is mapped rather than copied.
  bool mapped() const { return map_ != nullptr; }
  /// The copy, to be moved from; nullptr when mapped.
  std::string* owned() { return map_ ? nullptr : &owned_; }

 private:
  void Unmap();

  std::string owned_;
  void* map_ = nullptr;
  size_t size_ = 0;       ///< of the file, when mapped
  size_t map_bytes_ = 0;  ///< of the whole mapping
  bool writable_ = false;  ///< the mapped file's pages, made so by writable_data()
};

/// Reads `path` ("-" is standard input) as ReadWholeFile does, mapping a
/// regular file of kMapBytes or more instead of copying it (and reading it
/// where its file system cannot map it).
std::optional<FileText> ReadFileText(const std::string& path, std::string* error, uint64_t max_bytes,
                                     const char** code = nullptr);

}  // namespace rescfg
