#include "util/file_text.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>

#include "util/file_io.h"

namespace rescfg {

namespace {

/// A file truncated while it is mapped makes a read of its lost pages raise
/// SIGBUS, and so does a page the disk fails to read. Within a mapped input
/// that ends rescfg as an unreadable input does (exit 2, with the same
/// form of message), not as a crash. Any other SIGBUS keeps its default action.
struct Guarded {
  std::atomic<uintptr_t> begin{0}, end{0};
  char message[320] = {};
  std::atomic<size_t> length{0};
};
constexpr size_t kGuarded = 16;
Guarded guarded[kGuarded];

void OnBus(int signal, siginfo_t* info, void*) {
  const auto at = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Guarded& g : guarded) {
    if (at >= g.begin.load() && at < g.end.load()) {
      const ssize_t written = ::write(STDERR_FILENO, g.message, g.length.load());
      (void)written;
      ::_exit(2);
    }
  }
  ::signal(signal, SIG_DFL);  // not ours: the faulting access repeats, with the default action
}

std::mutex guard_mutex;  ///< over claiming and freeing slots (the handler only reads them)

void Guard(const void* begin, size_t bytes, const std::string& name) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action {};
    action.sa_sigaction = OnBus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, nullptr);
  });
  const std::lock_guard<std::mutex> lock(guard_mutex);
  for (Guarded& g : guarded) {
    if (g.end.load() != 0) continue;
    const std::string text =
        "rescfg: error: " + name + ": unreadable: the file was cut short or could not be read while it was read\n";
    const size_t length = std::min(text.size(), sizeof g.message);
    std::memcpy(g.message, text.data(), length);
    g.length = length;
    g.begin = reinterpret_cast<uintptr_t>(begin);
    g.end = reinterpret_cast<uintptr_t>(begin) + bytes;  // last: the slot is whole once it has an end
    return;
  }
  // More mappings at once than slots: this one is unguarded (an invocation
  // maps a handful of files).
}

void Unguard(const void* begin) {
  const std::lock_guard<std::mutex> lock(guard_mutex);
  for (Guarded& g : guarded) {
    if (g.end.load() != 0 && g.begin.load() == reinterpret_cast<uintptr_t>(begin)) {
      g.end = 0;
      g.begin = 0;
    }
  }
}

}  // namespace

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this == &other) return *this;
  Unmap();
  owned_ = std::move(other.owned_);
  map_ = std::exchange(other.map_, nullptr);
  size_ = std::exchange(other.size_, 0);
  map_bytes_ = std::exchange(other.map_bytes_, 0);
  writable_ = std::exchange(other.writable_, false);
  return *this;
}

char* FileText::writable_data() {
  if (map_ == nullptr) return owned_.data();
  if (!writable_) {
    if (::mprotect(map_, size_, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    writable_ = true;
  }
  return static_cast<char*>(map_);
}

void FileText::Unmap() {
  if (map_ == nullptr) return;
  Unguard(map_);
  ::munmap(map_, map_bytes_);
  map_ = nullptr;
}

std::optional<FileText> FileText::Map(int fd, size_t size, const std::string& name, std::string* error) {
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t bytes = (size + kReadSlack + page - 1) / page * page;
  // Anonymous zero pages first, for the padding past the file's last page;
  // then the file over their start. It is populated read-only (a writable
  // private mapping would be populated by copying every page) and made
  // writable only if writable_data() is asked for.
  // At a 2 MB boundary: where the page cache holds the file in 2 MB folios,
  // each is then mapped whole (one entry of the page table, not 512; on a
  // virtual machine whose host shadows the page tables, the first read of
  // a 4 KB page costs the host's fault, here 0.2-0.3 s for 371 MB).
  constexpr size_t kHugePage = size_t{2} << 20;
  void* reserved = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (reserved == MAP_FAILED) {
    *error = std::strerror(errno);
    return std::nullopt;
  }
  char* const first = static_cast<char*>(reserved);
  char* const aligned = first + (kHugePage - reinterpret_cast<uintptr_t>(first) % kHugePage) % kHugePage;
  if (aligned != first) ::munmap(first, static_cast<size_t>(aligned - first));
  if (first + kHugePage != aligned) ::munmap(aligned + bytes, static_cast<size_t>(first + kHugePage - aligned));
  void* base = aligned;
  FileText text;
  text.map_ = base;
  text.map_bytes_ = bytes;
  text.size_ = size;
  if (::mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0) == MAP_FAILED) {
    *error = std::strerror(errno);
    return std::nullopt;
  }
  Guard(base, bytes, name);
  return text;
}

std::optional<FileText> ReadFileText(const std::string& path, std::string* error, uint64_t max_bytes,
                                     const char** code) {
  if (path != "-") {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      struct stat st {};
      std::optional<FileText> text;
      if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) >= kMapBytes &&
          static_cast<uint64_t>(st.st_size) <= max_bytes) {
        std::string map_error;  // a file system that cannot map: read as always
        text = FileText::Map(fd, static_cast<size_t>(st.st_size), DisplayName(path), &map_error);
      }
      ::close(fd);
      if (text) return text;
    }
  }
  // Small files, pipes, devices, and every error: read as always.
  std::optional<std::string> content = ReadWholeFile(path, error, max_bytes, code);
  if (!content) return std::nullopt;
  return FileText(std::move(*content));
}

}  // namespace rescfg
