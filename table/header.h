// The 64-byte header that opens every table file, as a struct whose fields
// are the bytes (table/table.h draws what follows it in each layout).
//
//   mnk::TableHeader h = mnk::TableHeader::For(spec, TableLayout::Full(),
//                                              index.size(), reachable);
//   h.data.full = {64, 64 + values_bytes, 0};
//   uint8_t bytes[64];
//   h.Encode(bytes);
//   absl::StatusOr<mnk::CheckedHeader> c = mnk::CheckHeader(bytes, 68, "t");
//
// Byte by byte (all integers little-endian; version 3):
//
//   offset  size  field
//   0       8     magic "MNKTABLE"
//   8       4     format version: 3
//   12      1     width m
//   13      1     height n
//   14      1     k
//   15      1     flags: bit 0 = gravity, bit 1 = misère, bit 2 = remoteness
//                 stored (layout 3 only), bit 3 = complete: the book holds
//                 every reachable position in play (layout 4 only, written
//                 by solve --layout=book), bit 4 = keys packed (layout 4
//                 only, always written; table/book_keys.h); other bits 0
//   16      1     indexing scheme: 1 = layered shape/pattern ranks
//                 (rules/index/index.h)
//   17      1     record layout (table/layout.h): 1 full, 2 compact,
//                 3 compressed, 4 book
//   18      2     reserved, 0
//   20      4     header size: 64
//   24      8     E = number of indices (PositionIndex::size())
//   32      8     reachable positions (indices whose value is not 0); in
//                 a book, the positions it holds (N)
//   40      24    where the data lies, by layout:
//                   full:       values offset (64), details offset
//                               (64 + V), 0
//                   compact:    values offset (64), 0, 0
//                   compressed: directory offset (64), section count S,
//                               where the sections end (D)
//                   book:       directory offset (64), gaps offset
//                               (64 + 16 * ceil(N / 64)), records offset
//                               (where the gaps end); unpacked keys (no
//                               bit 4): keys offset (64), records
//                               offset (64 + 8N), 0
//
// Tic-tac-toe, full layout: 4d 4e 4b 54 41 42 4c 45 | 03 00 00 00 | 03 03
// 03 00 | 01 01 00 00 | 40 00 00 00 | E = 6046 | 5478 | 64 | 1576 | 0.
#ifndef MNK_TABLE_HEADER_H_
#define MNK_TABLE_HEADER_H_

#include <cstddef>
#include <cstdint>

#include "absl/base/config.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game/game.h"
#include "table/layout.h"

namespace mnk {

inline constexpr uint32_t kTableVersion = 3;
inline constexpr size_t kTableHeaderSize = 64;

// The header's bytes, field by field, in file order. Encode/Decode copy it
// whole: the struct is the layout on a little-endian machine.
struct TableHeader {
  static constexpr char kMagic[8] = {'M', 'N', 'K', 'T', 'A', 'B', 'L', 'E'};
  static constexpr uint8_t kIndexingScheme = 1;
  static constexpr uint8_t kFlagGravity = 1;
  static constexpr uint8_t kFlagMisere = 2;
  static constexpr uint8_t kFlagRemoteness = 4;   // layout 3 only
  static constexpr uint8_t kFlagComplete = 8;     // layout 4 only
  static constexpr uint8_t kFlagPackedKeys = 16;  // layout 4 only

  // The header of a table for `spec` in `layout`, its data fields zero.
  static TableHeader For(const GameSpec& spec, TableLayout layout,
                         uint64_t entries, uint64_t reachable);
  void Encode(uint8_t out[kTableHeaderSize]) const;
  static TableHeader Decode(const uint8_t in[kTableHeaderSize]);

  char magic[8];
  uint32_t version;
  uint8_t width, height, k;
  uint8_t flags;
  uint8_t indexing;
  uint8_t layout;
  uint16_t reserved;
  uint32_t header_size;
  uint64_t entries;
  uint64_t reachable;
  union {
    struct {
      uint64_t values_offset, details_offset, zero;
    } full;  // and compact, details_offset 0
    struct {
      uint64_t directory_offset, section_count, sections_end;
    } compressed;
    struct {
      // Unpacked keys: keys offset, records offset, 0.
      uint64_t keys_offset, gaps_offset, records_offset;
    } book;
  } data;
};
static_assert(ABSL_IS_LITTLE_ENDIAN, "table files are read by copying bytes");
static_assert(sizeof(TableHeader) == kTableHeaderSize, "drawn above");
static_assert(offsetof(TableHeader, flags) == 15, "drawn above");
static_assert(offsetof(TableHeader, header_size) == 20, "drawn above");
static_assert(offsetof(TableHeader, entries) == 24, "drawn above");
static_assert(offsetof(TableHeader, data) == 40, "drawn above");

// The size of a file with `data_bytes` bytes before its page checksums
// (header and sections): the checksums and the final CRC added.
uint64_t TableFileBytes(uint64_t data_bytes);

// What a header says, once checked against itself and its game.
struct CheckedHeader {
  Game game;
  TableLayout layout;
  bool complete;  // a table; or a book with kFlagComplete
  uint64_t reachable;
  uint64_t data_bytes;  // D: the bytes before the page checksums
  uint64_t file_bytes;  // what the whole file must measure
};

// Checks the first `size` bytes of a file (at least the header and CRC if
// the file has them): magic, version, then every header field against the
// game it names. kDataLoss naming what is wrong (not a table, truncated,
// a field and what it should be), kFailedPrecondition for another format
// version. `source` names the file in messages.
absl::StatusOr<CheckedHeader> CheckHeader(const uint8_t* data, uint64_t size,
                                          absl::string_view source);

}  // namespace mnk

#endif  // MNK_TABLE_HEADER_H_
