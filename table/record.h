// The perfect-play record of a position, and the arrays that hold one per
// PositionIndex entry: what the solver produces and a table file stores.
//
//   mnk::RecordArrays records(index.size());
//   records.Set(i, {mnk::Value::kWin, 1, 4});
//   mnk::Record r = records.view().Get(i);  // value, remoteness, best move
//
// Storage, entry i of n:
//   values   (n + 3) / 4 bytes; entry i is bits 2*(i%4)..2*(i%4)+1 of byte
//            i/4: 0 = not reachable, 1 = loss, 2 = draw, 3 = win, for the
//            side to move. Unused high bits of the last byte are zero.
//   details  2n bytes; entry i is bytes 2i and 2i+1, so that one memory
//            access gives the whole record:
//              byte 2i     bits 7-6  the value again (as above)
//                          bits 5-0  remoteness: plies to the end under
//                                    perfect play (the winner takes the
//                                    fastest win, the loser the slowest loss;
//                                    a draw ends when the board is full); 0
//                                    for terminal and unreachable positions
//              byte 2i+1   the cell to play, kNoMove (0xff) when there is
//                          none (terminal or unreachable)
#ifndef MNK_TABLE_RECORD_H_
#define MNK_TABLE_RECORD_H_

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/parallel/huge_pages.h"
#include "rules/game/game.h"
#include "rules/index/index.h"

namespace mnk {

inline constexpr uint8_t kNoMove = 0xff;

// The bit widths of a details entry (drawn above): two bytes, the value in
// the top two bits of the first, remoteness below it, the move in the second.
inline constexpr int kValueBits = 2;
inline constexpr int kRemotenessBits = 6;
inline constexpr int kMaxRemoteness = (1 << kRemotenessBits) - 1;
static_assert(kValueBits + kRemotenessBits == 8,
              "value and remoteness share the first byte of a record");
static_assert(static_cast<int>(Value::kWin) < (1 << kValueBits),
              "every value fits its bits");
// Tables hold boards of up to this many cells: a remoteness (at most the
// cells) fits its 6 bits, a cell the move byte.
inline constexpr int kMaxTableCells = kMaxRemoteness;
static_assert(kMaxTableCells <= kNoMove, "every cell fits the move byte");

// kInvalidArgument, saying why, for a game no table can hold whatever the
// memory: one with more than kMaxTableCells cells, or whose index has 2^64
// entries or more (7x6 without gravity).
inline absl::Status CheckTableCanHold(const Game& game) {
  if (game.cells() > kMaxTableCells) {
    return absl::InvalidArgumentError(
        absl::StrCat(game.spec().Name(), " has ", game.cells(),
                     " cells: tables hold boards of at most ", kMaxTableCells,
                     " (a remoteness takes 6 bits)"));
  }
  if (!PositionIndex(game).fits()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the index of ", game.spec().Name(),
        " would have 2^64 entries or more: no table of it can be made (its "
        "positions can still be played and searched)"));
  }
  return absl::OkStatus();
}

// Remoteness of a record read from a compact table, which does not keep it.
inline constexpr int kUnknownRemoteness = -1;

struct Record {
  Value value = Value::kUnreachable;
  int remoteness = 0;       // or kUnknownRemoteness
  int best_move = kNoMove;  // a cell, or kNoMove
  friend bool operator==(const Record& a, const Record& b) {
    return a.value == b.value && a.remoteness == b.remoteness &&
           a.best_move == b.best_move;
  }
};

// Read-only view of the two arrays (owned by RecordArrays or a table file).
struct RecordView {
  uint64_t size = 0;
  const uint8_t* values = nullptr;
  const uint8_t* details = nullptr;

  static uint64_t ValueBytes(uint64_t n) { return (n + 3) / 4; }
  // The value alone, from the 2-bit section.
  Value GetValue(uint64_t i) const {
    return static_cast<Value>(values[i >> 2] >> (2 * (i & 3)) & 3);
  }
  // The whole record, from the details section.
  Record Get(uint64_t i) const {
    const uint8_t* d = details + 2 * i;
    return {static_cast<Value>(d[0] >> kRemotenessBits), d[0] & kMaxRemoteness,
            d[1]};
  }
};

class RecordArrays {
 public:
  // Every entry unreachable (value 0, remoteness 0, no move). With
  // `initialize` false the details are left unwritten, for a writer that
  // sets every entry itself.
  // Both arrays on huge pages where the kernel allows: one page fault per
  // 2 MiB when first written, not per 4 KiB.
  explicit RecordArrays(uint64_t n, bool initialize = true)
      : size_(n), details_(new uint8_t[2 * n]) {
    ReserveHugePages(values_, RecordView::ValueBytes(n));
    values_.resize(RecordView::ValueBytes(n));
    AdviseHugePages(details_.get(), 2 * n);
    for (uint64_t i = 0; initialize && i < n; ++i) SetDetails(i, 0, kNoMove);
  }

  uint64_t size() const { return size_; }
  RecordView view() const { return {size_, values_.data(), details_.get()}; }
  // Not thread-safe for entries sharing a byte of `values`.
  void SetValue(uint64_t i, Value v) {
    uint8_t& byte = values_[i >> 2];
    const int shift = 2 * (i & 3);
    byte = (byte & ~(3 << shift)) | static_cast<uint8_t>(v) << shift;
  }
  // Thread-safe for distinct entries.
  void SetDetails(uint64_t i, uint8_t value_and_remoteness, uint8_t move) {
    details_[2 * i] = value_and_remoteness;
    details_[2 * i + 1] = move;
  }
  // The first byte of a details entry.
  static uint8_t Details(Value v, int remoteness) {
    assert(remoteness >= 0 && remoteness <= kMaxRemoteness);
    return static_cast<uint8_t>(static_cast<int>(v) << kRemotenessBits |
                                remoteness);
  }
  void Set(uint64_t i, const Record& r) {
    SetValue(i, r.value);
    SetDetails(i, Details(r.value, r.remoteness), r.best_move);
  }

 private:
  uint64_t size_;
  std::vector<uint8_t> values_;
  std::unique_ptr<uint8_t[]> details_;
};

// The compact layout, for boards whose full records do not fit: the values
// of the even layers only (X to move), in base 3, five a byte. Entry j is
// digit j % 5 of byte j / 5 (byte = d0 + 3 d1 + 9 d2 + 27 d3 + 81 d4): 0 =
// loss, 1 = draw, 2 = win for the side to move; unreachable positions hold
// 0. Odd layers, best moves and remoteness are not stored: a reader derives
// the first two from children (at most m or m * m lookups).
//
//   CompactLayout layout(index);
//   uint64_t j = layout.Entry(index.Index(p), p.stones());  // stones even
//   Value v = CompactLayout::Get(bytes, j);
class CompactLayout {
 public:
  explicit CompactLayout(const PositionIndex& index) {
    uint64_t entries = 0;
    for (int stones = 0; stones <= index.cells(); ++stones) {
      index_offset_.push_back(index.layer_offset(stones));
      even_offset_.push_back(entries);
      if (stones % 2 == 0) entries += index.layer_size(stones);
    }
    entries_ = entries;
  }
  // Entries and bytes of the compact section.
  uint64_t entries() const { return entries_; }
  uint64_t bytes() const { return (entries_ + 4) / 5; }
  // The entry of index `i`, a position with an even number of stones.
  uint64_t Entry(uint64_t i, int stones) const {
    return i - index_offset_[stones] + even_offset_[stones];
  }
  // 3^d: the weight of digit d of a byte.
  static constexpr uint8_t kPower[5] = {1, 3, 9, 27, 81};
  static_assert(3 * 81 - 1 <= 255, "five base-3 digits fit a byte");

  static Value Get(const uint8_t* bytes, uint64_t j) {
    static constexpr Value kValue[3] = {Value::kLoss, Value::kDraw,
                                        Value::kWin};
    return kValue[bytes[j / 5] / kPower[j % 5] % 3];
  }
  // Adds value `v` to entry j, which must still hold 0.
  static void Put(uint8_t* bytes, uint64_t j, Value v) {
    const int digit = v == Value::kWin ? 2 : v == Value::kDraw ? 1 : 0;
    bytes[j / 5] += digit * kPower[j % 5];
  }

 private:
  uint64_t entries_ = 0;
  std::vector<uint64_t> index_offset_;
  std::vector<uint64_t> even_offset_;
};

}  // namespace mnk

#endif  // MNK_TABLE_RECORD_H_
