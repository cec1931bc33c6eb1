#include "prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <thread>

#include "joined_thread.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace rescfg {
namespace {

constexpr size_t kSmall = size_t(8) << 20;

void Populate(char* begin, char* end, size_t page) {
  if (begin >= end) return;
  if (::madvise(begin, static_cast<size_t>(end - begin), MADV_POPULATE_WRITE) == 0) return;
  // An older kernel: touch each page, writing back what it holds.
  for (auto* p = reinterpret_cast<volatile unsigned char*>(begin); p < reinterpret_cast<unsigned char*>(end); p += page) *p = *p;
}

}  // namespace

void Prefault(void* data, size_t bytes) {
  if (bytes < kSmall) return;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<uintptr_t>(data);
  char* begin = reinterpret_cast<char*>((first + page - 1) / page * page);
  char* end = reinterpret_cast<char*>((first + bytes) / page * page);
  if (std::thread::hardware_concurrency() < 2) {
    Populate(begin, end, page);
    return;
  }
  char* middle = begin + (end - begin) / 2 / static_cast<ptrdiff_t>(page) * static_cast<ptrdiff_t>(page);
  JoinedThread second([&] { Populate(middle, end, page); });
  Populate(begin, middle, page);
  second.Join();
}

}  // namespace rescfg
