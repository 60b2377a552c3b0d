#include "base/parallel/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace mnk {

void AdviseHugePages(const void* data, size_t bytes) {
  constexpr uintptr_t kPage = 4096, kHugePage = uintptr_t{2} << 20;
  const uintptr_t start = reinterpret_cast<uintptr_t>(data);
  const uintptr_t begin = (start + kPage - 1) & ~(kPage - 1);
  const uintptr_t end = start + bytes;
  if (end < begin + kHugePage) return;  // no huge page fits
  madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace mnk
