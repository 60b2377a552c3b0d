#include "table/page_checks.h"

#include <zlib.h>

#include <algorithm>
#include <cassert>

namespace mnk {
uint32_t Crc32(uint32_t crc, const void* data, uint64_t size) {
  // zlib takes a null buffer as a request for the initial value, 0: an
  // empty vector's data() must leave the checksum as it is.
  if (size == 0) return crc;
  return crc32_z(crc, static_cast<const Bytef*>(data), size);
}

namespace {

thread_local uint64_t t_damaged_reads = 0;
thread_local int64_t t_last_damaged_page = -1;

void PutCrc(std::string& out, uint32_t crc) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(crc >> 8 * i));
}

}  // namespace

void PageChecksumWriter::Add(const void* data, uint64_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const uint64_t n = std::min(size, kPageBytes - filled_);
    crc_ = Crc32(crc_, p, n);
    filled_ += n;
    p += n;
    size -= n;
    if (filled_ == kPageBytes) {
      PutCrc(trailer_, crc_);
      crc_ = 0;
      filled_ = 0;
    }
  }
}

std::string PageChecksumWriter::Finish() {
  if (filled_ > 0) PutCrc(trailer_, crc_);
  crc_ = 0;
  filled_ = 0;
  return std::move(trailer_);
}

PageChecks::PageChecks(const uint8_t* file, uint64_t data_bytes)
    : file_(file),
      data_bytes_(data_bytes),
      pages_(PageChecksumBytes(data_bytes) / 4),
      checked_(new std::atomic<uint64_t>[(pages_ + 63) / 64]) {
  for (uint64_t w = 0; w < (pages_ + 63) / 64; ++w) checked_[w] = 0;
}

bool PageChecks::CheckPage(uint64_t page) const {
  assert(page < pages_);
  const uint64_t begin = page * kPageBytes;
  const uint64_t size = std::min(kPageBytes, data_bytes_ - begin);
  const uint8_t* stored = file_ + data_bytes_ + 4 * page;
  const uint32_t want = stored[0] | stored[1] << 8 | stored[2] << 16 |
                        static_cast<uint32_t>(stored[3]) << 24;
  if (Crc32(0, file_ + begin, size) != want) {
    damaged_.store(static_cast<int64_t>(page), std::memory_order_relaxed);
    ++t_damaged_reads;
    t_last_damaged_page = static_cast<int64_t>(page);
    return false;
  }
  checked_[page >> 6].fetch_or(uint64_t{1} << (page & 63),
                               std::memory_order_release);
  return true;
}

uint64_t PageChecks::DamagedReadsOnThisThread() { return t_damaged_reads; }
int64_t PageChecks::LastDamagedPageOnThisThread() {
  return t_last_damaged_page;
}

bool PageChecks::CheckAll() const {
  bool ok = true;
  for (uint64_t page = 0; page < pages_; ++page) {
    if ((checked_[page >> 6].load(std::memory_order_acquire) >> (page & 63) &
         1) == 0) {
      ok = CheckPage(page) && ok;
    }
  }
  if (ok) all_checked_.store(true, std::memory_order_release);
  return ok;
}

}  // namespace mnk
