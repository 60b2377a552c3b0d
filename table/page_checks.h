// Checksums of a table file's 4096-byte pages, so that a program can map a
// big table and start answering at once: each page is checked the first
// time a probe reads it, never again, and a damaged page is reported
// instead of trusted. `verify` checks every page (CheckAll).
//
//   // Writing: the checksums of the bytes [0, D), appended after them.
//   mnk::PageChecksumWriter w;
//   w.Add(header, 64); w.Add(sections, n);  // the D bytes, in pieces
//   std::string trailer = w.Finish();       // 4 bytes a page
//   // Reading: `file` holds the D bytes, then the trailer.
//   mnk::PageChecks checks(file, D);
//   if (!checks.Check(file + offset, size)) { /* damaged: kDataLoss */ }
//
// The trailer, D = bytes before it, P = ceil(D / 4096) pages:
//   offset    size  field
//   D + 4*j   4     CRC-32 (zlib) of bytes [4096*j, min(4096*(j+1), D)),
//                   little-endian, for j = 0 .. P-1
#ifndef MNK_TABLE_PAGE_CHECKS_H_
#define MNK_TABLE_PAGE_CHECKS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace mnk {

inline constexpr uint64_t kPageBytes = 4096;

// zlib's CRC-32 of `size` bytes, continuing from `crc` (0 to start): the
// checksum of the pages and of the whole file.
uint32_t Crc32(uint32_t crc, const void* data, uint64_t size);

// The trailer's size for D bytes of data.
inline uint64_t PageChecksumBytes(uint64_t data_bytes) {
  return 4 * ((data_bytes + kPageBytes - 1) / kPageBytes);
}

class PageChecksumWriter {
 public:
  void Add(const void* data, uint64_t size);
  // The trailer for every byte added.
  std::string Finish();

 private:
  std::string trailer_;
  uint32_t crc_ = 0;     // of the page being filled
  uint64_t filled_ = 0;  // its bytes so far
};

// Thread-safe; the bytes must outlive it and stay unchanged.
class PageChecks {
 public:
  PageChecks(const uint8_t* file, uint64_t data_bytes);

  // Whether every page holding a byte of [begin, begin + size) matches its
  // checksum (size > 0, inside the D bytes). A page found damaged stays
  // unchecked, and damaged_page() names it.
  bool Check(const void* begin, uint64_t size) const {
    if (all_checked_.load(std::memory_order_acquire)) return true;
    const uint64_t at = static_cast<const uint8_t*>(begin) - file_;
    const uint64_t last = (at + size - 1) / kPageBytes;
    for (uint64_t page = at / kPageBytes; page <= last; ++page) {
      if ((checked_[page >> 6].load(std::memory_order_acquire) >> (page & 63) &
           1) == 0 &&
          !CheckPage(page)) {
        return false;
      }
    }
    return true;
  }
  // Whether CheckAll() has passed.
  bool all_checked() const {
    return all_checked_.load(std::memory_order_acquire);
  }
  // Checks every page: false when one is damaged.
  bool CheckAll() const;
  // A page found damaged so far, or -1.
  int64_t damaged_page() const {
    return damaged_.load(std::memory_order_relaxed);
  }
  // How many reads of a damaged page this thread has made, of any table,
  // and the last such page: a caller compares the count before and after
  // its work to learn whether any of it read damaged bytes (a page that
  // fails its check is read as nothing, and what is derived from it is not
  // to be trusted).
  static uint64_t DamagedReadsOnThisThread();
  static int64_t LastDamagedPageOnThisThread();
  uint64_t pages() const { return pages_; }

 private:
  bool CheckPage(uint64_t page) const;

  const uint8_t* file_;
  uint64_t data_bytes_;
  uint64_t pages_;
  std::unique_ptr<std::atomic<uint64_t>[]> checked_;  // a bit a page
  mutable std::atomic<int64_t> damaged_{-1};
  mutable std::atomic<bool> all_checked_{false};  // CheckAll passed
};

}  // namespace mnk

#endif  // MNK_TABLE_PAGE_CHECKS_H_
