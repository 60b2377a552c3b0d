#include "table/header.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/index/index.h"
#include "table/book_keys.h"
#include "table/compressed.h"
#include "table/page_checks.h"
#include "table/record.h"

namespace mnk {
namespace {

// The magic and the version: is this a table this program reads at all?
absl::Status CheckMagicAndVersion(const uint8_t* data, uint64_t size,
                                  absl::string_view source) {
  if (size == 0) {
    return absl::DataLossError(absl::StrCat(source,
                                            " is empty: a table file "
                                            "has at least ",
                                            kTableHeaderSize + 4, " bytes"));
  }
  if (size < 8 || std::memcmp(data, TableHeader::kMagic, 8) != 0) {
    return absl::DataLossError(absl::StrCat(
        source, " is not a table file: it starts with \"",
        absl::CHexEscape(absl::string_view(reinterpret_cast<const char*>(data),
                                           std::min<uint64_t>(size, 8))),
        "\", expected \"MNKTABLE\""));
  }
  if (size < kTableHeaderSize + 4) {
    return absl::DataLossError(absl::StrCat(
        source, " is truncated: ", size, " bytes, shorter than the ",
        kTableHeaderSize + 4, "-byte header and checksum"));
  }
  const TableHeader h = TableHeader::Decode(data);
  if (h.version != kTableVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        source, " has format version ", h.version,
        "; this program reads version ", kTableVersion,
        h.version < kTableVersion
            ? ": solve the game again to write it in the new format"
            : ""));
  }
  return absl::OkStatus();
}

// The game and layout, if the header names valid ones.
absl::StatusOr<std::pair<Game, TableLayout>> GameAndLayout(
    const TableHeader& h, absl::string_view source) {
  const GameSpec spec{h.width, h.height, h.k,
                      (h.flags & TableHeader::kFlagGravity) != 0,
                      (h.flags & TableHeader::kFlagMisere) != 0};
  absl::StatusOr<Game> game = Game::Create(spec);
  const Layout layout = static_cast<Layout>(h.layout);
  const bool compressed = layout == Layout::kCompressed;
  const uint8_t known_flags =
      TableHeader::kFlagGravity | TableHeader::kFlagMisere |
      (compressed ? TableHeader::kFlagRemoteness : 0) |
      (layout == Layout::kBook
           ? TableHeader::kFlagComplete | TableHeader::kFlagPackedKeys
           : 0);
  if (!game.ok() || (h.flags & ~known_flags) != 0 ||
      h.indexing != TableHeader::kIndexingScheme ||
      (layout != Layout::kFull && layout != Layout::kCompact &&
       layout != Layout::kBook && !compressed) ||
      h.reserved != 0 || h.header_size != kTableHeaderSize) {
    return absl::DataLossError(absl::StrFormat(
        "%s has a corrupt header: game %dx%d k=%d flags %d, indexing %d, "
        "layout %d, header size %d; expected a valid game, flags 0 to 3 (0 "
        "to 7 in layout 3; in layout 4, plus 8, 16 or 24), indexing %d, "
        "layout 1 to 4, header size %d",
        source, h.width, h.height, h.k, h.flags, h.indexing, h.layout,
        h.header_size, TableHeader::kIndexingScheme, kTableHeaderSize));
  }
  const TableLayout table_layout =
      compressed ? TableLayout::Compressed(
                       (h.flags & TableHeader::kFlagRemoteness) != 0)
                 : TableLayout::Of(layout);
  return std::make_pair(*std::move(game), table_layout);
}

}  // namespace

TableHeader TableHeader::For(const GameSpec& spec, TableLayout layout,
                             uint64_t entries, uint64_t reachable) {
  TableHeader h;
  std::memset(&h, 0, sizeof(h));
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.version = kTableVersion;
  h.width = static_cast<uint8_t>(spec.width);
  h.height = static_cast<uint8_t>(spec.height);
  h.k = static_cast<uint8_t>(spec.k);
  h.flags = (spec.gravity ? kFlagGravity : 0) |
            (spec.misere ? kFlagMisere : 0) |
            (layout.layout() == Layout::kCompressed && layout.has_remoteness()
                 ? kFlagRemoteness
                 : 0);
  h.indexing = kIndexingScheme;
  h.layout = static_cast<uint8_t>(layout.layout());
  h.header_size = kTableHeaderSize;
  h.entries = entries;
  h.reachable = reachable;
  return h;
}

void TableHeader::Encode(uint8_t out[kTableHeaderSize]) const {
  std::memcpy(out, this, kTableHeaderSize);
}

TableHeader TableHeader::Decode(const uint8_t in[kTableHeaderSize]) {
  TableHeader h;
  std::memcpy(&h, in, kTableHeaderSize);
  return h;
}

uint64_t TableFileBytes(uint64_t data_bytes) {
  return data_bytes + PageChecksumBytes(data_bytes) + 4;
}

namespace {

// The counts (bytes 24 and 32) against the game's index.
absl::Status CheckCounts(const TableHeader& h, const Game& game,
                         const PositionIndex& index, absl::string_view source) {
  if (game.cells() > kMaxTableCells || !index.fits()) {
    return absl::DataLossError(
        absl::StrCat(source, " has a corrupt header: game ", game.spec().Name(),
                     ", which no table can hold"));
  }
  if (h.entries != index.size()) {
    return absl::DataLossError(
        absl::StrCat(source, " has a corrupt header: ", h.entries,
                     " entries (byte 24) for game ", game.spec().Name(),
                     ", expected ", index.size()));
  }
  if (h.reachable > h.entries) {
    return absl::DataLossError(
        absl::StrCat(source, " has a corrupt header: ", h.reachable,
                     " reachable positions (byte 32), more than its ",
                     h.entries, " entries"));
  }
  return absl::OkStatus();
}

// The three data fields (bytes 40, 48, 56) as the layout needs them, and D.
struct DataFields {
  uint64_t expected[3];
  uint64_t data_bytes;
};

// A book's keys packed: the directory, then 1 to kMaxGapBytes bytes of gaps
// a key after its block's first, so the records begin within those bounds.
// (A file of 2^56 positions is corrupt: the sums cannot overflow.)
void PackedBookFields(const TableHeader& h, DataFields& f) {
  const uint64_t blocks = BookBlocks(h.reachable);
  f.expected[1] = kTableHeaderSize + kBookDirectoryEntryBytes * blocks;
  const uint64_t least = f.expected[1] + h.reachable - blocks;
  const uint64_t found = h.data.book.records_offset;
  f.expected[2] = h.reachable < (uint64_t{1} << 56) && found >= least &&
                          found - least <= kMaxGapBytes * h.reachable
                      ? found
                      : least;
}

DataFields ExpectedDataFields(const TableHeader& h, const Game& game,
                              TableLayout layout, const PositionIndex& index) {
  DataFields f = {{kTableHeaderSize, 0, 0}, 0};
  switch (layout.layout()) {
    case Layout::kFull:
      f.expected[1] = kTableHeaderSize + RecordView::ValueBytes(index.size());
      f.data_bytes = f.expected[1] + 2 * h.entries;
      break;
    case Layout::kCompact:
      f.data_bytes = kTableHeaderSize + CompactLayout(index).bytes();
      break;
    case Layout::kCompressed: {
      const uint64_t count =
          CompressedSectionCount(game, layout.has_remoteness());
      f.expected[1] = count;
      f.expected[2] = std::max(h.data.compressed.sections_end,
                               kTableHeaderSize + 16 * count);
      f.data_bytes = h.data.compressed.sections_end;
      break;
    }
    case Layout::kBook:
      if ((h.flags & TableHeader::kFlagPackedKeys) != 0) {
        PackedBookFields(h, f);
        f.data_bytes = f.expected[2] + h.reachable;
      } else {  // 8 bytes a key
        f.expected[1] = kTableHeaderSize + 8 * h.reachable;
        f.data_bytes = f.expected[1] + h.reachable;
      }
      break;
  }
  return f;
}

absl::Status CheckDataFields(const TableHeader& h, const DataFields& f,
                             absl::string_view source) {
  const uint64_t found[3] = {h.data.full.values_offset,
                             h.data.full.details_offset, h.data.full.zero};
  for (int i = 0; i < 3; ++i) {
    if (found[i] != f.expected[i]) {
      return absl::DataLossError(
          absl::StrCat(source, " has a corrupt header: section offset ", i,
                       " (byte ", offsetof(TableHeader, data) + 8 * i, ") is ",
                       found[i], ", expected ", f.expected[i]));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CheckedHeader> CheckHeader(const uint8_t* data, uint64_t size,
                                          absl::string_view source) {
  if (absl::Status s = CheckMagicAndVersion(data, size, source); !s.ok()) {
    return s;
  }
  const TableHeader h = TableHeader::Decode(data);
  absl::StatusOr<std::pair<Game, TableLayout>> named = GameAndLayout(h, source);
  if (!named.ok()) return named.status();
  const auto& [game, layout] = *named;
  const PositionIndex index(game);
  if (absl::Status s = CheckCounts(h, game, index, source); !s.ok()) return s;
  const DataFields fields = ExpectedDataFields(h, game, layout, index);
  if (absl::Status s = CheckDataFields(h, fields, source); !s.ok()) return s;
  const bool complete = layout.layout() != Layout::kBook ||
                        (h.flags & TableHeader::kFlagComplete) != 0;
  return CheckedHeader{game,
                       layout,
                       complete,
                       h.reachable,
                       fields.data_bytes,
                       TableFileBytes(fields.data_bytes)};
}

}  // namespace mnk
