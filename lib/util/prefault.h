#pragma once
/// Fresh memory costs most when first written: the kernel faults its pages
/// in one at a time (on this project's machines more than 1 GB/s slower
/// than filling them). For the few buffers of hundreds of MB that a large
/// input needs (the file, its entries, their outcomes), the pages are
/// populated up front in one request per half, on two threads.

#include <cstddef>
#include <vector>

namespace rescfg {

/// Populates the pages of [data, data + bytes) for writing; contents are
/// unchanged. Small ranges (under 8 MB) are left to fault as usual.
void Prefault(void* data, size_t bytes);

/// Populates [data, data + bytes) in the calling thread, whatever its size.
void PrefaultHere(void* data, size_t bytes);

/// `v->resize(n)`, with the new elements' memory populated first.
template <typename T>
void ResizePrefaulted(std::vector<T>* v, size_t n) {
  if (n > v->size()) {
    v->reserve(n);
    Prefault(v->data() + v->size(), (n - v->size()) * sizeof(T));
  }
  v->resize(n);
}

}  // namespace rescfg
