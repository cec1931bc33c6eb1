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
  // An older kernel: touch each page, writing back what it holds.
  auto* const stop = reinterpret_cast<unsigned char*>(end);
  for (auto* p = reinterpret_cast<volatile unsigned char*>(begin); p < stop; p += page) *p = *p;
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
