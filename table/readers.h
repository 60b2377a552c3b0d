// The readers behind mnk::Table (table/table.h), one per record layout,
// and the checked bytes they share. Internal to //table: callers use Table.
//
//   const TableBytes& t = ...;      // mapped, header checked
//   FullReader full(t);
//   absl::StatusOr<Record> r = full.Probe(position);
//   CompactReader compact(t);
//   Value v = compact.ValueOf(position);  // odd layers from the children
//
// The compressed layout's reader, a small search over children and their
// children, has a file of its own: table/compressed_reader.h.
#ifndef MNK_TABLE_READERS_H_
#define MNK_TABLE_READERS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "table/header.h"
#include "table/page_checks.h"
#include "table/record.h"

namespace mnk {

// One table file's bytes (mapped or in memory), its header checked, and
// the page checks its readers go through. Never moves once made: readers
// keep a pointer to it.
struct TableBytes {
  TableBytes(const CheckedHeader& header, std::shared_ptr<const uint8_t> bytes,
             uint64_t size, std::string source)
      : game(header.game),
        index(game),
        layout(header.layout),
        complete(header.complete),
        reachable(header.reachable),
        bytes(std::move(bytes)),
        size(size),
        checks(this->bytes.get(), header.data_bytes),
        source(std::move(source)) {}
  TableBytes(const TableBytes&) = delete;
  TableBytes& operator=(const TableBytes&) = delete;

  const uint8_t* data() const { return bytes.get(); }
  // Whether the `n` bytes at `p` match their pages' checksums.
  bool Readable(const uint8_t* p, uint64_t n) const {
    return checks.Check(p, n);
  }
  // kDataLoss naming `page`, or (-1) the last page found damaged.
  absl::Status DamagedError(int64_t page = -1) const;

  const Game game;
  const PositionIndex index;
  const TableLayout layout;
  const bool complete;
  const uint64_t reachable;
  const std::shared_ptr<const uint8_t> bytes;
  const uint64_t size;
  const PageChecks checks;
  const std::string source;  // names the table in messages
};

// Layout 1: a record for every index.
class FullReader {
 public:
  explicit FullReader(const TableBytes& t);
  const RecordView& view() const { return view_; }
  // The record of index `i` of a position, unchecked (after CheckAll()).
  Record Lookup(const Position& p) const {
    return view_.Get(t_->index.Index(p));
  }
  absl::StatusOr<Record> Probe(const Position& p) const;
  Value ValueOf(const Position& p) const;

 private:
  // Whether the pages of record i are sound.
  bool Readable(uint64_t i) const;
  const TableBytes* t_;
  RecordView view_;
};

// Layout 2: the values of the even layers.
class CompactReader {
 public:
  explicit CompactReader(const TableBytes& t) : t_(&t), layout_(t.index) {}
  // The stored value of index `i` (a position with `stones` stones, an even
  // number); kUnreachable when its page is damaged.
  Value Stored(uint64_t i, int stones) const {
    const uint64_t j = layout_.Entry(i, stones);
    const uint8_t* bytes = t_->data() + kTableHeaderSize;
    return t_->Readable(bytes + j / 5, 1) ? CompactLayout::Get(bytes, j)
                                          : Value::kUnreachable;
  }
  // The best move is the lowest cell keeping the value; no remoteness.
  absl::StatusOr<Record> Probe(const Position& p) const;
  Value ValueOf(const Position& p) const;

 private:
  const TableBytes* t_;
  CompactLayout layout_;
};

// A book's value and remoteness of one position.
struct BookEntry {
  Value value;
  int remoteness;
};

// Layout 4: a book, N positions found by binary search on their keys (over
// the blocks' first keys when the keys are packed, table/book_keys.h, then
// along one block).
class BookReader {
 public:
  explicit BookReader(const TableBytes& t);
  uint64_t size() const { return size_; }
  // The entry of p (or of its mirror image: keys are canonical); nullopt
  // when the book does not hold it or a page it read is damaged.
  std::optional<BookEntry> Find(const Position& p) const;
  // The record of p when the book holds p and every move's outcome (held,
  // or over by the rules): the best move by mnk::PolicyScore; by the rules
  // when the game is over at p. kNotFound otherwise.
  absl::StatusOr<Record> Probe(const Position& p) const;
  Value ValueOf(const Position& p) const;
  // Entry i's key and record byte, for verify (pages unchecked; a packed
  // key whose block is damaged past its bounds reads as its block's
  // first).
  uint64_t Key(uint64_t i) const;
  uint8_t RecordByte(uint64_t i) const { return records_[i]; }

 private:
  // The entry holding `key`: its number, or nullopt.
  std::optional<uint64_t> FindKey(uint64_t key) const;
  std::optional<uint64_t> FindPacked(uint64_t key) const;
  // Block b's first key and the bounds of its gaps.
  uint64_t BlockKey(uint64_t b) const;
  bool BlockGaps(uint64_t b, const uint8_t** begin, const uint8_t** end) const;

  const TableBytes* t_;
  uint64_t size_;
  bool packed_;
  const uint8_t* keys_;  // unpacked: 8 bytes a key; packed: the directory
  const uint8_t* gaps_;  // packed: the gaps, up to records_
  const uint8_t* records_;
};

}  // namespace mnk

#endif  // MNK_TABLE_READERS_H_
