// A book's keys packed (layout 4 with flag bit 4, table/table.h): the
// ascending indices of the positions it holds, in blocks of kBookBlock, each
// block's first key whole in a directory and the others as gaps from the key
// before. What the writer packs and the reader decodes.
//
//   BookKeySections s = PackBookKeys({3, 4, 9, 300});
//   // s.directory: key 3, gaps from 0; s.gaps: 0, 4, 290 (as below)
//
// Directory, 16 bytes a block (block b holds keys kBookBlock * b ...):
//
//   offset  size  field
//   0       8     the block's first key
//   8       8     where its gaps begin, counted from the gaps' first byte
//
// Gaps: for each key after its block's first, key - previous key - 1 as a
// LEB128 varint (7 bits a byte, lowest first; bit 7 set on every byte but
// the last). The keys are unique, so most gaps in a book of whole layers
// are 0 to 127: a byte each, against 8 unpacked. Above, 4 - 3 - 1 = 0,
// 9 - 4 - 1 = 4 and 300 - 9 - 1 = 290 = 0xa2 0x02.
#ifndef MNK_TABLE_BOOK_KEYS_H_
#define MNK_TABLE_BOOK_KEYS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace mnk {

inline constexpr uint64_t kBookBlock = 64;
inline constexpr uint64_t kBookDirectoryEntryBytes = 16;
// The longest varint of a 64-bit gap.
inline constexpr uint64_t kMaxGapBytes = 10;

struct BookKeySections {
  std::string directory;
  std::string gaps;
};

// `keys` must be ascending and unique.
BookKeySections PackBookKeys(const std::vector<uint64_t>& keys);

// The bytes PackBookKeys(keys) gives, directory and gaps, without packing.
uint64_t PackedBookKeyBytes(const std::vector<uint64_t>& keys);

// The number of blocks, so of directory entries, of n keys.
inline uint64_t BookBlocks(uint64_t n) {
  return (n + kBookBlock - 1) / kBookBlock;
}

// Reads the varint at *p, which must end before `end`, into *gap and moves
// *p past it; false (and *p unchanged) when it does not end before `end`
// or is longer than a 64-bit gap's.
bool ReadGap(const uint8_t** p, const uint8_t* end, uint64_t* gap);

}  // namespace mnk

#endif  // MNK_TABLE_BOOK_KEYS_H_
