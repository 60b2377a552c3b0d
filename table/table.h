// Perfect-play table files: one file per game holding a record (value,
// remoteness, best move) for every index of the game's PositionIndex.
//
//   absl::Status s = mnk::WriteTable("3x3k3.mnk", spec, records.view(), n);
//   absl::StatusOr<mnk::Table> t = mnk::Table::Load("3x3k3.mnk", spec);
//   absl::StatusOr<mnk::Record> r = t->Probe(position);  // O(1)
//
// File format, version 3 (version 1 had layouts 1 and 2 only, version 2
// had no page checksums; their files are refused with a message naming
// both versions). All integers little-endian; every byte is determined by
// the game, so the same game always gives the same file.
//
// Every layout ends the same way: its D bytes (header and sections), then
//   D       4P    CRC-32 of each 4096-byte page of the D bytes, P =
//                 ceil(D / 4096) (table/page_checks.h): a reader checks
//                 the pages it reads, not the whole file
//   D+4P    4     CRC-32 (zlib's crc32) of every byte before it
//
// Layout 1 (full records: value, remoteness, best move for every index):
//
//   offset  size  field
//   0       8     magic "MNKTABLE"
//   8       4     format version: 3
//   12      1     width m
//   13      1     height n
//   14      1     k
//   15      1     flags: bit 0 = gravity, bit 1 = misère, bit 2 = remoteness
//                 stored (layout 3 only); other bits 0
//   16      1     indexing scheme: 1 = layered shape/pattern ranks
//                 (solver/index/index.h)
//   17      1     record layout: 1 = the two sections below (2: compact)
//   18      2     reserved, 0
//   20      4     header size: 64
//   24      8     E = number of indices (PositionIndex::size())
//   32      8     reachable positions (indices whose value is not 0)
//   40      8     offset of the value section: 64
//   48      8     offset of the details section: 64 + V
//   56      8     0 (reserved)
//   64      V     values, V = ceil(E / 4): 2 bits an index
//   64+V    2E    details, two bytes an index (value, remoteness, best move)
//                 (both sections are drawn bit by bit in table/record.h)
//   D = 64+V+2E   page checksums and checksum, as above
//
// Size: D + 4P + 4 bytes, about 2.25 bytes an index. Tic-tac-toe: E =
// 6046, 5478 reachable, 13,688 bytes in all, 2.50 bytes a reachable
// position.
//
// Layout 2 (compact, for boards whose full records do not fit): the same
// header with byte 17 = 2, offsets 48 and 56 = 0, then
//   64      C     the values of the even layers in base 3, five a byte
//                 (CompactLayout in table/record.h), C = ceil(E_even / 5)
//   D = 64+C      page checksums and checksum, as above
// Size: D + 4P + 4 bytes, 1.6 bits an even-layer index. Probes derive odd
// layers' values from their children and best moves from the values
// (best value, then lowest cell); remoteness is not available.
//
// Layout 3 (compressed, table/compressed.h): the same header with byte
// 17 = 3, flags bit 2 when remoteness is stored, and
//   40      8     64: offset of the section directory
//   48      8     S: number of sections (2 or 3 for each even layer)
//   56      8     D: where the sections end
//   64      16*S  directory: offset (8) and size (8) of each section, in
//                 order, one after the other from 64 + 16*S
//   ...           the sections (run-coded, table/run_coder.h)
//   D             page checksums and checksum, as above
// Only positions with X to move that are reachable, not over and canonical
// are stored; probes canonicalize, and derive odd layers from children.
#ifndef MNK_TABLE_TABLE_H_
#define MNK_TABLE_TABLE_H_

#include <sys/types.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "solver/game/game.h"
#include "solver/index/index.h"
#include "table/compressed.h"
#include "table/page_checks.h"
#include "table/record.h"

namespace mnk {

inline constexpr uint32_t kTableVersion = 3;
inline constexpr size_t kTableHeaderSize = 64;

enum class Layout : uint8_t { kFull = 1, kCompact = 2, kCompressed = 3 };

// The exact byte count of a full table file for `entries` indices, and of
// a compact one.
uint64_t TableFileSize(uint64_t entries);
uint64_t CompactTableFileSize(const PositionIndex& index);

// The whole file as bytes, checksum included.
std::string SerializeTable(const GameSpec& spec, const RecordView& records,
                           uint64_t reachable);
std::string SerializeCompactTable(const GameSpec& spec,
                                  const std::vector<uint8_t>& compact,
                                  uint64_t reachable);

// Checks, before a long solve, that a table can be written to `path`:
// kFailedPrecondition when it names a directory or an existing file that is
// not a regular one (a device, FIFO, socket or symbolic link: never
// replaced); the errno's code when its folder is missing or not writable.
absl::Status CheckTableTarget(const std::string& path);

// Writes the table to `path` without ever leaving a partial file there: the
// bytes go to a temporary file beside it (PATH.tmp-XXXXXX, the name cut to
// fit), locked while written, synced, then renamed over `path`. On failure
// the temporary file is removed and `path` is untouched. Temporary files of
// earlier writes to `path` that were killed are removed first. An existing
// table keeps its mode and (where allowed) owner; a new one gets 0666 less
// the umask. Refuses what CheckTableTarget refuses.
absl::Status WriteTable(const std::string& path, const GameSpec& spec,
                        const RecordView& records, uint64_t reachable);
absl::Status WriteCompactTable(const std::string& path, const GameSpec& spec,
                               const std::vector<uint8_t>& compact,
                               uint64_t reachable);
// The compressed layout (3) from its sections (table/compressed.h), or
// from full records; `remoteness`: the sections keep it.
std::string SerializeCompressedTable(const GameSpec& spec,
                                     const std::vector<std::string>& sections,
                                     uint64_t reachable, bool remoteness);
std::string SerializeCompressedTable(const Game& game,
                                     const RecordView& records,
                                     uint64_t reachable, bool remoteness);
// Writes the compressed layout from its sections, as WriteTable does (no
// copy of the whole file is made), and its exact size.
absl::Status WriteCompressedTable(const std::string& path, const GameSpec& spec,
                                  const std::vector<std::string>& sections,
                                  uint64_t reachable, bool remoteness);
uint64_t CompressedTableFileSize(const std::vector<std::string>& sections);
// Writes bytes made by one of the Serialize functions, as WriteTable does.
absl::Status WriteSerializedTable(const std::string& path,
                                  const std::string& bytes);

// For main(): a table file cut short by another program while mapped
// raises SIGBUS when a probe reads past its new end. This handler says so
// on standard error ("PROGRAM: a table file was cut short while in use")
// and ends the program with `exit_code`.
void ExitOnTruncatedTable(const char* program, int exit_code);

// Removes the temporary file of a write in progress, if any: for a SIGINT
// or SIGTERM handler (async-signal-safe), before the program exits.
void RemovePendingTempFile();

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
  static absl::StatusOr<Table> Load(const std::string& path,
                                    std::optional<GameSpec> expected = {});
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

  // kFailedPrecondition naming both games unless this table is for
  // `expected`; `source` names the table.
  absl::Status ExpectGame(const GameSpec& expected,
                          absl::string_view source) const;

  const Game& game() const { return game_; }
  const PositionIndex& index() const { return index_; }
  uint64_t reachable() const { return reachable_; }
  uint64_t file_bytes() const { return size_; }
  Layout layout() const { return layout_; }
  // The sections of a compressed table; nullptr for other layouts.
  const CompressedSections* compressed() const {
    return compressed_.has_value() ? &*compressed_ : nullptr;
  }
  // "full", "compact" or "compressed".
  const char* layout_name() const;
  // Whether probes give remoteness (not from compact tables, nor compressed
  // ones written without it).
  bool has_remoteness() const {
    return layout_ == Layout::kFull ||
           (compressed_.has_value() && compressed_->has_remoteness());
  }
  // The records of a full table.
  RecordView view() const;
  // The stored value of index `i` (a position with `stones` stones, an even
  // number) of a compact table; kUnreachable when its page is damaged.
  Value CompactValue(uint64_t i, int stones) const {
    const uint64_t j = compact_.Entry(i, stones);
    const uint8_t* bytes = data() + kTableHeaderSize;
    return Readable(bytes + j / 5, 1) ? CompactLayout::Get(bytes, j)
                                      : Value::kUnreachable;
  }

  // kDataLoss once the file this table was loaded from has been changed in
  // place (its size, modification or change time differ from when it was
  // opened): the mapping then shows the new bytes, unchecked. A file renamed
  // over the path (`mv`) is no change: the table keeps the file it opened.
  // One fstat(); always OK for a table made from bytes in memory.
  absl::Status CheckUnchanged() const;

  // Checks every byte: the whole file's checksum and every page's. Load
  // does this for small tables; bigger ones are checked page by page as
  // probes read them (and view() reads nothing unchecked only after this).
  absl::Status CheckAll() const;

  // The stored record of a valid position of a full table, unchecked: one
  // index computation and one two-byte load (after CheckAll()).
  Record Lookup(const Position& p) const { return view().Get(index_.Index(p)); }

  // The record of a valid position of this game. kNotFound when the table
  // marks it unreachable; kDataLoss when the record is impossible for the
  // position (a best move that is not legal, a remoteness past the end).
  // From a compact table the remoteness is kUnknownRemoteness and the best
  // move the lowest cell with the best value (up to m + m * m lookups).
  // From a compressed one: the stored record of the canonical image with
  // its move mapped back (and the lowest tying cell), or for O to move the
  // best child; remoteness unknown when not stored, except at the end.
  // kDataLoss naming the page whenever the probe read a page that fails
  // its checksum, whatever it would have derived from it.
  absl::StatusOr<Record> Probe(const Position& p) const;

  // The value of a valid position, by the rules when it is over, else from
  // the table (a compact one derives odd layers from the children);
  // kUnreachable when the table lacks it or its page is damaged.
  Value ValueOf(const Position& p) const;

 private:
  static absl::StatusOr<Table> FromMemory(
      std::shared_ptr<const uint8_t> bytes, uint64_t size,
      std::optional<GameSpec> expected, absl::string_view source,
      uint64_t check_whole_below = kCheckWholeBelow);
  Table(Game game, std::shared_ptr<const uint8_t> bytes, uint64_t size,
        uint64_t reachable, Layout layout, absl::string_view source)
      : game_(game),
        index_(game_),
        compact_(index_),
        bytes_(std::move(bytes)),
        size_(size),
        reachable_(reachable),
        layout_(layout),
        source_(source) {}
  const uint8_t* data() const { return bytes_.get(); }
  // Whether the `size` bytes at `p` match their pages' checksums.
  bool Readable(const uint8_t* p, uint64_t size) const {
    return checks_->Check(p, size);
  }
  // Whether the pages of record i of a full table are sound.
  bool FullReadable(uint64_t i) const;
  // kDataLoss naming `page`, or (-1) the last page found damaged.
  absl::Status DamagedError(int64_t page = -1) const;
  // Probe's work; Probe fails it when it read a damaged page.
  absl::StatusOr<Record> ProbeRecord(const Position& p) const;
  // Compressed layout: the stored record of a position with an even
  // number of stones that is not over, found by its canonical image; the
  // move is mapped back to `p`. kDataLoss for damaged or impossible data.
  // `parts` says what to decode: the others are left unknown.
  enum class StoredParts { kValue, kValueAndRemoteness, kAll };
  // `symmetry`, if given, receives the symmetry that maps p to its image.
  absl::StatusOr<Record> StoredRecord(const Position& p,
                                      StoredParts parts = StoredParts::kAll,
                                      int* symmetry = nullptr) const;
  // Where such a position is stored: its canonical image's entry in its
  // layer, and the symmetry that maps p there.
  struct StoredAt {
    uint64_t entry;
    int symmetry;
  };
  StoredAt Locate(const Position& p) const;
  absl::StatusOr<Record> StoredRecordAt(const Position& p, StoredAt at,
                                        StoredParts parts) const;
  // The children of a position that is not over (compressed layout, odd
  // layers), each with its end by the rules or where it is stored; their
  // value lookups (and remoteness lookups if asked) are started
  // (RunReader::Prefetch) before any is read, so that their cache misses
  // overlap. Returns how many, at most kMaxMoves.
  static constexpr int kMaxMoves = 32;
  struct Child {
    int cell;
    Position position;
    std::optional<Value> end;
    StoredAt at;
  };
  int Children(const Position& p, bool remoteness, Child* out) const;
  // Starts the lookups of entries[0 .. n) of even layer `stones` in the
  // sections `sections` names (bits: kValueSection, ...), in two steps
  // (RunReader::Prefetch, PrefetchStream).
  enum : int { kValueSection = 1, kMoveSection = 2, kRemotenessSection = 4 };
  void Prefetch(int stones, const uint64_t* entries, int n, int sections) const;
  absl::StatusOr<Record> ProbeCompressed(const Position& p) const;
  // Whether moving to `child` is as good, by the policy, as the best move
  // of its parent, whose record is `parent` (value, remoteness or unknown).
  absl::StatusOr<bool> MoveTies(const Position& child,
                                const Record& parent) const;

  Game game_;
  PositionIndex index_;
  CompactLayout compact_;
  std::shared_ptr<const uint8_t> bytes_;  // mapped, or in memory
  uint64_t size_;
  std::shared_ptr<const PageChecks> checks_;
  uint64_t reachable_;
  Layout layout_;
  std::string source_;                            // names the table in messages
  std::optional<CompressedSections> compressed_;  // layout 3 only
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
