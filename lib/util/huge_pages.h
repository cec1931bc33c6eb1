#pragma once
/// Transparent huge pages for the few large blocks of a big input: the
/// program's `operator new` (huge_pages.cc) advises every block of 4 MB or
/// more, so the file read, the entries, the outcomes and the queued jobs
/// fault in 2 MB at a time instead of 4 KB.

#include <cstddef>

namespace rescfg {

/// Asks the kernel to back the whole 2 MB pages of [data, data + bytes)
/// with transparent huge pages. No effect where huge pages are off.
void AdviseHugePages(void* data, size_t bytes);

/// Whether this build's `operator new` advises blocks of 4 MB or more for
/// huge pages (false under the sanitizers, whose allocator stays).
bool LargeBlocksAdvised();

}  // namespace rescfg
