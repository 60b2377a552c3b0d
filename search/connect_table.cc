#include "search/connect_table.h"

#include <sys/mman.h>

#include <cstring>

namespace mnk {
namespace {

// Zeroed pages for the table, in huge pages where the kernel allows (the
// search reads entries at random: fewer TLB misses). nullptr when there is
// no memory.
void* MapTable(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  madvise(p, bytes, MADV_HUGEPAGE);  // a hint: refused is fine
  return p;
}

}  // namespace

void ConnectTable::Unmap::operator()(Bucket* b) const { munmap(b, bytes); }

ConnectTable::ConnectTable(int bits, bool shared)
    : buckets_(static_cast<Bucket*>(MapTable(kEntryBytes << bits)),
               Unmap{static_cast<size_t>(kEntryBytes << bits)}),
      shift_(64 - bits),
      shared_(shared) {}

void ConnectTable::Clear() {
  std::memset(static_cast<void*>(buckets_.get()), 0, kEntryBytes << bits());
}

}  // namespace mnk
