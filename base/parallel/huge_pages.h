// Huge pages (2 MiB) for large arrays: fewer TLB misses when they are read
// at random, and one page fault per 2 MiB instead of one per 4 KiB when
// they are first written.
//
//   std::vector<uint8_t> layer;
//   mnk::ReserveHugePages(layer, n);  // before the first write
//   layer.resize(n);
#ifndef MNK_BASE_PARALLEL_HUGE_PAGES_H_
#define MNK_BASE_PARALLEL_HUGE_PAGES_H_

#include <cstddef>
#include <vector>

namespace mnk {

// Asks the kernel to back the memory [data, data + bytes) with huge pages
// where it can. Call it before the memory is first written. A hint:
// refused is fine.
void AdviseHugePages(const void* data, size_t bytes);

// v.reserve(n) on an empty vector, the memory advised as above.
template <typename T>
void ReserveHugePages(std::vector<T>& v, size_t n) {
  if (v.capacity() >= n) return;
  v.reserve(n);
  AdviseHugePages(v.data(), n * sizeof(T));
}

}  // namespace mnk

#endif  // MNK_BASE_PARALLEL_HUGE_PAGES_H_
