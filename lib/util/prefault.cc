#include "util/prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#include "util/joined_thread.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace rescfg {
namespace {

constexpr size_t kSmall = size_t(8) << 20;

void Populate(char* begin, char* end, size_t page) {
  if (begin >= end) return;
  if (::madvise(begin, static_cast<size_t>(end - begin), MADV_POPULATE_WRITE) == 0) return;
  // An older kernel: touch each page for writing without changing it. An
  // atomic add of nothing, as another thread may be writing its own records
  // on the same page (a plain read and write back could undo its byte).
  for (char* p = begin; p < end; p += page) __atomic_fetch_add(reinterpret_cast<unsigned char*>(p), 0, __ATOMIC_RELAXED);
}

}  // namespace

void PrefaultHere(void* data, size_t bytes) {
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<uintptr_t>(data);
  char* begin = reinterpret_cast<char*>((first + page - 1) / page * page);
  char* end = reinterpret_cast<char*>((first + bytes) / page * page);
  Populate(begin, end, page);
}

void Prefault(void* data, size_t bytes) {
  if (bytes < kSmall) return;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<uintptr_t>(data);
  char* begin = reinterpret_cast<char*>((first + page - 1) / page * page);
  char* end = reinterpret_cast<char*>((first + bytes) / page * page);
  // By whole pages: n pages from `begin`, the two halves at once.
  const size_t pages = static_cast<size_t>(end - begin) / page;
  SplitAcrossCores(pages, 2, [&](size_t, size_t from, size_t to) {
    Populate(begin + from * page, begin + to * page, page);
  });
}

}  // namespace rescfg
