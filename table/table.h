// Perfect-play table files: one file per game holding a record (value,
// remoteness, best move) for every index of the game's PositionIndex.
// Reading them: Table (here); writing them: store/write.h.
//
//   absl::StatusOr<mnk::Table> t = mnk::Table::Load("3x3k3.mnk", spec);
//   absl::StatusOr<mnk::Record> r = t->Probe(position);  // O(1)
//
// File format, version 3 (version 1 had layouts 1 and 2 only, version 2
// had no page checksums; their files are refused with a message naming
// both versions). All integers little-endian; every byte is determined by
// the game, so the same game always gives the same file.
//
//   0       64    the header (table/header.h): game, layout, counts, and
//                 where the data lies
//   64            the layout's sections (below), D bytes in all with the
//                 header
//   D       4P    CRC-32 of each 4096-byte page of the D bytes, P =
//                 ceil(D / 4096) (table/page_checks.h): a reader checks
//                 the pages it reads, not the whole file
//   D+4P    4     CRC-32 (zlib's crc32) of every byte before it
//
// Layout 1 (full records: value, remoteness and best move of every index):
//   64      V     values, V = ceil(E / 4): 2 bits an index
//   64+V    2E    details, two bytes an index (value, remoteness, best move)
//                 (both sections are drawn bit by bit in table/record.h)
// Size: D + 4P + 4 bytes, about 2.25 bytes an index. Tic-tac-toe: E =
// 6046, 5478 reachable, 13,688 bytes in all, 2.50 bytes a reachable
// position.
//
// Layout 2 (compact, for boards whose full records do not fit):
//   64      C     the values of the even layers in base 3, five a byte
//                 (CompactLayout in table/record.h), C = ceil(E_even / 5)
// Size: D + 4P + 4 bytes, 1.6 bits an even-layer index. Probes derive odd
// layers' values from their children and best moves from the values
// (best value, then lowest cell); remoteness is not available.
//
// Layout 3 (compressed, table/compressed.h), S sections:
//   64      16*S  directory: offset (8) and size (8) of each section, in
//                 order, one after the other from 64 + 16*S
//   ...           the sections (run-coded, table/run_coder.h), ending at D
// Only positions with X to move that are reachable, not over and canonical
// are stored; probes canonicalize, and derive odd layers from children
// (table/compressed_reader.h).
//
// Layout 4 (a book: chosen positions only, such as an opening book of a
// game too big to tabulate, or every reachable position in play, flag bit
// 3 in the header; `reachable` in the header is their number N). The keys
// are PositionIndex::Index of each position's canonical image
// (Game::Canonical), ascending, packed (flag bit 4, table/book_keys.h):
//   64      16B   directory, B = ceil(N / 64): each block of 64 keys' first
//                 key (8) and where its gaps begin (8)
//   64+16B  G     gaps: each other key's distance from the key before, less
//                 one, as a varint (a byte up to 127)
//   64+16B+G  N   one byte each: the value (bits 7-6) and remoteness (bits
//                 5-0), as the first byte of a full record (table/record.h)
// Probes find a position by binary search over the blocks' first keys, then
// along one block, and its best move from its children's entries: a book
// answers a position only with all its moves. Size: D + 4P + 4 bytes; a
// book of whole layers (Connect Four's opening table) takes about 2.5
// bytes a position. Books written before the keys were packed (no bit 4)
// hold 8 bytes a key at 64, the records at 64 + 8N, and are read as well.
#ifndef MNK_TABLE_TABLE_H_
#define MNK_TABLE_TABLE_H_

#include <sys/types.h>
#include <time.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "table/compressed.h"
#include "table/compressed_reader.h"
#include "table/header.h"
#include "table/layout.h"
#include "table/readers.h"
#include "table/record.h"

namespace mnk {

// For main(): a table file cut short by another program while mapped
// raises SIGBUS when a probe reads past its new end. This handler says so
// on standard error ("PROGRAM: a table file was cut short while in use")
// and ends the program with `exit_code`.
void ExitOnTruncatedTable(const char* program, int exit_code);

class Table {
 public:
  // Opens and checks a table file: magic, version and header first (from
  // the first 68 bytes), then the file's size against the header, before
  // anything is mapped; then the checksums (see below) and, when `expected`
  // is given, the game. Errors:
  //   kNotFound          no such file
  //   kPermissionDenied  the file cannot be read
  //   kFailedPrecondition a directory, a FIFO, a device or another special
  //                      file; another format version; another game
  //   kDataLoss          not a table file, truncated, wrong size, bad header
  //                      (naming the field), checksum mismatch
  //   kResourceExhausted not enough address space to map the table
  // The file is mapped, not read: a table of up to 1 MiB is checked whole
  // (every checksum), a bigger one only in its header, directory and each
  // page a probe reads, the first time it reads it (CheckAll checks all).
  // kInMemory reads the whole file into memory of the process's own
  // instead, on 2 MiB pages where the kernel gives them: a load of seconds
  // for a big table and its size in memory, then faster probes (5,5,4's
  // 14 GB: 2.6 us against 2.9 mapped, the TLB misses of 4 KiB pages);
  // kResourceExhausted when that memory cannot be had.
  enum class Placement { kMapped, kInMemory };
  static absl::StatusOr<Table> Load(const std::string& path,
                                    std::optional<GameSpec> expected = {},
                                    Placement placement = Placement::kMapped);
  // Tables up to this size are checked whole when opened.
  static constexpr uint64_t kCheckWholeBelow = uint64_t{1} << 20;

  // The same checks on bytes already in memory (`source` names them in
  // messages). Tables bigger than `check_whole_below` bytes are checked page
  // by page, as Load does past kCheckWholeBelow (tests lower it to reach
  // that path with small tables).
  static absl::StatusOr<Table> FromBytes(
      std::string bytes, std::optional<GameSpec> expected = {},
      absl::string_view source = "table",
      uint64_t check_whole_below = kCheckWholeBelow);

  // The same on bytes that live as long as the program (the tables
  // compiled in, data/builtin.h): read where they are, never copied, and
  // checked as a mapped file is (whole up to kCheckWholeBelow, else page by
  // page as probes read them). `bytes` must be 8-byte aligned.
  static absl::StatusOr<Table> FromStatic(absl::string_view bytes,
                                          std::optional<GameSpec> expected = {},
                                          absl::string_view source = "table");

  // kFailedPrecondition naming both games unless this table is for
  // `expected`; `source` names the table.
  absl::Status ExpectGame(const GameSpec& expected,
                          absl::string_view source) const;

  const Game& game() const { return t_->game; }
  const PositionIndex& index() const { return t_->index; }
  uint64_t reachable() const { return t_->reachable; }
  uint64_t file_bytes() const { return t_->size; }
  Layout layout() const { return t_->layout.layout(); }
  // "full", "compact", "compressed" or "book".
  const char* layout_name() const { return t_->layout.name(); }
  // Whether the table answers every reachable position: true but for an
  // opening book (a book written by solve --layout=book is complete).
  bool complete() const { return t_->complete; }
  // Whether probes give remoteness (not from compact tables, nor compressed
  // ones written without it).
  bool has_remoteness() const { return t_->layout.has_remoteness(); }
  // The sections of a compressed table; nullptr for other layouts.
  const CompressedSections* compressed() const {
    const auto* r = std::get_if<CompressedReader>(&reader_);
    return r != nullptr ? &r->sections() : nullptr;
  }
  // The reader of a book; nullptr for other layouts.
  const BookReader* book() const { return std::get_if<BookReader>(&reader_); }
  // The records of a full table.
  const RecordView& view() const {
    return std::get<FullReader>(reader_).view();
  }
  // The stored value of index `i` (a position with `stones` stones, an even
  // number) of a compact table; kUnreachable when its page is damaged.
  Value CompactValue(uint64_t i, int stones) const {
    return std::get<CompactReader>(reader_).Stored(i, stones);
  }

  // kDataLoss once the file this table was loaded from has been changed in
  // place (its size, modification or change time differ from when it was
  // opened): the mapping then shows the new bytes, unchecked. A file renamed
  // over the path (`mv`) is no change: the table keeps the file it opened.
  // One fstat(); always OK for a table made from bytes in memory.
  absl::Status CheckUnchanged() const;

  // Every byte of the file, unchecked (table/sha256.h names them).
  absl::string_view bytes() const {
    return {reinterpret_cast<const char*>(t_->data()), t_->size};
  }

  // Checks every byte: the whole file's checksum and every page's. Load
  // does this for small tables; bigger ones are checked page by page as
  // probes read them (and view() reads nothing unchecked only after this).
  absl::Status CheckAll() const;

  // The stored record of a valid position of a full table, unchecked: one
  // index computation and one two-byte load (after CheckAll()).
  Record Lookup(const Position& p) const {
    return std::get<FullReader>(reader_).Lookup(p);
  }

  // The record of a valid position of this game. kNotFound when the table
  // marks it unreachable; kDataLoss when the record is impossible for the
  // position (a best move that is not legal, a remoteness past the end).
  // From a compact table the remoteness is kUnknownRemoteness and the best
  // move the lowest cell with the best value (up to m + m * m lookups).
  // From a compressed one: table/compressed_reader.h. kDataLoss naming the
  // page whenever the probe read a page that fails its checksum, whatever
  // it would have derived from it.
  absl::StatusOr<Record> Probe(const Position& p) const;

  // The value of a valid position, by the rules when it is over, else from
  // the table (a compact one derives odd layers from the children);
  // kUnreachable when the table lacks it or its page is damaged.
  Value ValueOf(const Position& p) const;

 private:
  using Reader =
      std::variant<FullReader, CompactReader, CompressedReader, BookReader>;
  static absl::StatusOr<Table> FromMemory(
      std::shared_ptr<const uint8_t> bytes, uint64_t size,
      std::optional<GameSpec> expected, absl::string_view source,
      uint64_t check_whole_below = kCheckWholeBelow);
  Table(std::shared_ptr<const TableBytes> t, Reader reader)
      : t_(std::move(t)), reader_(std::move(reader)) {}
  // The reader of t's layout (a compressed table's directory checked).
  static absl::StatusOr<Reader> OpenReader(const TableBytes& t);
  // The whole file's checksum and every page's (CheckAll).
  static absl::Status CheckEveryByte(const TableBytes& t);

  std::shared_ptr<const TableBytes> t_;  // never moves: readers point to it
  Reader reader_;
  // The file a loaded table came from, as it was when opened.
  struct FileStamp {
    int fd;
    off_t size;
    timespec mtime;
    timespec ctime;
  };
  std::shared_ptr<const FileStamp> opened_;
};

}  // namespace mnk

#endif  // MNK_TABLE_TABLE_H_
