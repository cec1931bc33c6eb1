/// The program's `operator new`: the standard one (malloc, the new-handler,
/// std::bad_alloc), except that a block of 4 MB or more is offered to the
/// kernel for transparent huge pages.
///
/// Why: the large arrays of a big input (queued jobs, order keys, holdings)
/// come from malloc's own mappings, which the kernel backs with 4 KB pages
/// unless asked; on a machine whose huge pages are on request only
/// ("madvise", a common default) each of those pages costs a fault, and
/// faults were a third of a million jobs' time. Where huge pages are off
/// ("never") the advice does nothing; where they are always on it is
/// already the case.
///
/// Left out under the sanitizers, whose own `operator new` must stay.

#include "util/huge_pages.h"

#include <stdlib.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

void rescfg::AdviseHugePages(void* data, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  const auto first = reinterpret_cast<uintptr_t>(data);
  const uintptr_t begin = (first + kHuge - 1) / kHuge * kHuge;
  const uintptr_t end = (first + bytes) / kHuge * kHuge;
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define RESCFG_SANITIZED_NEW 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RESCFG_SANITIZED_NEW 1
#endif

#ifdef RESCFG_SANITIZED_NEW

bool rescfg::LargeBlocksAdvised() { return false; }

#else

bool rescfg::LargeBlocksAdvised() { return true; }

namespace {

constexpr std::size_t kLarge = std::size_t(4) << 20;

/// `align` 0: malloc; otherwise posix_memalign (the over-aligned forms, such
/// as a table of cache-line slots), whose blocks the standard library's
/// aligned `operator delete` frees with free() as it does its own.
void* Allocate(std::size_t n, std::size_t align) {
  if (n == 0) n = 1;
  for (;;) {
    void* p = nullptr;
    const bool got = align == 0 ? (p = std::malloc(n)) != nullptr
                                : ::posix_memalign(&p, std::max(align, sizeof(void*)), n) == 0;
    if (got) {
      if (n >= kLarge) rescfg::AdviseHugePages(p, n);
      return p;
    }
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t n) { return Allocate(n, 0); }
void* operator new[](std::size_t n) { return Allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t align) { return Allocate(n, static_cast<std::size_t>(align)); }
void* operator new[](std::size_t n, std::align_val_t align) { return Allocate(n, static_cast<std::size_t>(align)); }

#endif
