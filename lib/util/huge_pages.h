#pragma once
/// Transparent huge pages for the few large blocks of a big input
/// (huge_pages.cc replaces `operator new` for that; prefault.h advises the
/// buffers it populates).

namespace rescfg {

/// Whether this build's `operator new` advises blocks of 4 MB or more for
/// huge pages (false under the sanitizers, whose allocator stays).
bool LargeBlocksAdvised();

}  // namespace rescfg
