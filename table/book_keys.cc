#include "table/book_keys.h"

#include <cassert>

#include "table/file_io.h"

namespace mnk {
namespace {

// The varint's length: a byte per 7 bits, at least one.
uint64_t GapBytes(uint64_t gap) {
  uint64_t bytes = 1;
  for (; gap >= 0x80; gap >>= 7) ++bytes;
  return bytes;
}

void AppendGap(uint64_t gap, std::string* out) {
  for (; gap >= 0x80; gap >>= 7) {
    out->push_back(static_cast<char>(0x80 | (gap & 0x7f)));
  }
  out->push_back(static_cast<char>(gap));
}

}  // namespace

BookKeySections PackBookKeys(const std::vector<uint64_t>& keys) {
  BookKeySections s;
  s.directory.resize(kBookDirectoryEntryBytes * BookBlocks(keys.size()));
  for (uint64_t i = 0; i < keys.size(); ++i) {
    if (i % kBookBlock == 0) {
      char* entry = &s.directory[kBookDirectoryEntryBytes * (i / kBookBlock)];
      PutLittleEndian(entry, keys[i], 8);
      PutLittleEndian(entry + 8, s.gaps.size(), 8);
    } else {
      assert(keys[i] > keys[i - 1]);
      AppendGap(keys[i] - keys[i - 1] - 1, &s.gaps);
    }
  }
  return s;
}

uint64_t PackedBookKeyBytes(const std::vector<uint64_t>& keys) {
  uint64_t bytes = kBookDirectoryEntryBytes * BookBlocks(keys.size());
  for (uint64_t i = 0; i < keys.size(); ++i) {
    if (i % kBookBlock != 0) bytes += GapBytes(keys[i] - keys[i - 1] - 1);
  }
  return bytes;
}

bool ReadGap(const uint8_t** p, const uint8_t* end, uint64_t* gap) {
  uint64_t value = 0;
  const uint8_t* q = *p;
  for (uint64_t n = 0; q < end && n < kMaxGapBytes; ++n, ++q) {
    value |= static_cast<uint64_t>(*q & 0x7f) << (7 * n);
    if ((*q & 0x80) == 0) {
      *gap = value;
      *p = q + 1;
      return true;
    }
  }
  return false;
}

}  // namespace mnk
