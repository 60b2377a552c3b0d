// The board of the Connect search (search/connect.h draws its bits): a
// position as bitboards, a move, the cells that complete a line, the moves
// that hand the opponent no win, a position's key shared with its mirror
// image, how promising a move looks, and the score's bounds from the lines
// each side can still make. Header-only: every node of the search calls
// these, and they must inline.
//
//   const mnk::ConnectBoard board(game);           // 7x6, 4 in a row
//   mnk::ConnectBoard::Bits b = board.ToBits(pos);
//   uint64_t threats = board.WinningCells(b.mover ^ b.mask, b.mask);
//   uint64_t safe = board.SafeMoves(b.mask, threats);
//   uint64_t moves[2] = {..., ...}, after[2];      // each child's own threats
//   board.WinningCellsAfter(b.mover, b.mask, moves, 2, after);
#ifndef MNK_SEARCH_CONNECT_BOARD_H_
#define MNK_SEARCH_CONNECT_BOARD_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/numeric/bits.h"
#include "rules/game/game.h"

namespace mnk {

class ConnectBoard {
 public:
  // A position: the stones of the side to move, every stone, the same two
  // of its mirror image, and the stones' number.
  struct Bits {
    uint64_t mover;
    uint64_t mask;
    uint64_t mirror_mover;
    uint64_t mirror_mask;
    int moves;
  };

  // A gravity board of at most 64 bits as drawn (ConnectSearch::Create
  // checks).
  explicit ConnectBoard(const Game& game);

  int width() const { return width_; }
  int cells() const { return cells_; }
  // Columns, centre first: the order of moves that score the same.
  const std::vector<int>& order() const { return order_; }
  // The cells of column c.
  uint64_t column(int c) const { return column_[c]; }
  // The column of a move (one bit).
  int ColumnOf(uint64_t move) const {
    return absl::countr_zero(move) / (height_ + 1);
  }

  Bits ToBits(const Position& p) const;
  // The position after the side to move plays `move` (one bit).
  Bits Child(const Bits& b, uint64_t move) const {
    return {b.mover ^ b.mask, b.mask | move, b.mirror_mover ^ b.mirror_mask,
            b.mirror_mask | mirror_bit_[absl::countr_zero(move)], b.moves + 1};
  }
  uint64_t Playable(uint64_t mask) const { return (mask + bottom_) & board_; }
  // The empty cells where a stone of `stones` would complete k in a row.
  uint64_t WinningCells(uint64_t stones, uint64_t mask) const;
  // WinningCells(stones | moves[i], mask | moves[i]) for each of n moves,
  // into after[i]: the threats each move leaves its maker, for k = 4 two
  // moves at a time in vector lanes.
  void WinningCellsAfter(uint64_t stones, uint64_t mask, const uint64_t* moves,
                         int n, uint64_t* after) const;
  // The moves that do not hand the opponent a win on the next ply, given
  // the opponent's winning cells: 0 when every move loses at once.
  uint64_t SafeMoves(uint64_t mask, uint64_t threats) const;
  bool CanWinNext(const Bits& b) const {
    return (WinningCells(b.mover, b.mask) & Playable(b.mask)) != 0;
  }
  // The position's key, the same for its mirror image: never 0.
  uint64_t Key(const Bits& b) const;
  // Whether `key` (Key(b)) is b's mirror image's.
  bool Mirrored(const Bits& b, uint64_t key) const {
    return key != b.mover + b.mask + bottom_;
  }
  // How promising a move looks, for ordering, from the stones after it
  // and the winning cells it leaves its maker.
  int MoveScore(uint64_t mask, uint64_t threats,
                uint64_t opponent_threats) const;
  // True when `stones` hold k in a row.
  bool HasLine(uint64_t stones) const;
  // A bound no score reaches.
  static constexpr int kNoBound = 64;
  // Whether claimeven can bound a score: on boards of an even height.
  bool HasClaimeven() const { return height_ % 2 == 0; }
  // The best score of the side to move (`mover`'s stones) when its
  // opponent plays claimeven, at a position with an even number of stones
  // `mask`: 0 or -1 when the side to move cannot win against it, kNoBound
  // when it may.
  int ClaimevenUpper(uint64_t mover, uint64_t opponent, uint64_t mask) const;
  // The score's bounds at a node with no win on the next two plies (the
  // search's checks): the soonest wins, narrowed by the lines each player
  // can still make where that can reach the window (alpha, beta).
  void StaticBounds(const Bits& b, int alpha, int beta, int* lower,
                    int* upper) const;

 private:
  const int width_, height_, k_, cells_;
  uint64_t bottom_ = 0;  // the lowest cell of each column
  uint64_t board_ = 0;   // every cell (no sentinel)
  // The steps of the directions a line fits in (up, right, right and
  // down, right and up), directions_ of them.
  int shift_[4];
  int directions_ = 0;
  std::vector<int> order_;
  uint64_t mirror_bit_[64] = {};  // bit i's image in the mirror
  uint64_t column_[64] = {};      // the cells of each column
  uint64_t odd_rows_ = 0;         // rows 1, 3, ... from the bottom (row 0)

  // The cells where a stone of `stones` would complete k in a row, filled
  // or not, for any k.
  uint64_t CompletingCells(uint64_t stones) const;
  // Four in a row on a board of 4 by 4 or more (Connect Four): the lines
  // are found inline, in every direction at once.
  bool FourEverywhere() const { return k_ == 4 && directions_ == 4; }
};

namespace connect_internal {

// Two boards in the lanes of one vector register (SSE2 on any x86-64, two
// scalars where there is none): the same shifts and logic on both.
typedef uint64_t Lanes __attribute__((vector_size(16)));

// The cells where a stone completes K in a row along step s: the j cells
// after it and the K - 1 - j cells before it hold stones, for some j.
// after[j] / before[j]: the cells with j stones after / before them.
// K = 4, written out: two stones after and before, each with a third; for
// one board (uint64_t) or two (Lanes).
template <typename T>
inline T CompletingFour(T p, int s) {
  const T before = (p << s) & (p << 2 * s);
  const T after = (p >> s) & (p >> 2 * s);
  return (before & ((p << 3 * s) | (p >> s))) |
         (after & ((p >> 3 * s) | (p << s)));
}

// The same in all four directions (up, then the steps shift[1..3]), filled
// cells included: Connect Four's k = 4 on a board of 4 by 4 or more.
template <typename T>
inline T CompletingFourEverywhere(T p, const int* shift) {
  return ((p << 1) & (p << 2) & (p << 3)) | CompletingFour(p, shift[1]) |
         CompletingFour(p, shift[2]) | CompletingFour(p, shift[3]);
}

template <int K>
inline uint64_t CompletingCells(uint64_t stones, int s) {
  uint64_t after[K], before[K];
  after[0] = before[0] = ~uint64_t{0};
  for (int j = 1; j < K; ++j) {
    after[j] = after[j - 1] & stones >> (j * s);
    before[j] = before[j - 1] & stones << (j * s);
  }
  uint64_t cells = 0;
  for (int j = 0; j < K; ++j) cells |= after[j] & before[K - 1 - j];
  return cells;
}

// The same for any k (up to 64), less fast.
inline uint64_t CompletingCellsAny(uint64_t stones, int s, int k) {
  uint64_t after[64], before[64];
  after[0] = before[0] = ~uint64_t{0};
  for (int j = 1; j < k; ++j) {
    after[j] = after[j - 1] & stones >> (j * s);
    before[j] = before[j - 1] & stones << (j * s);
  }
  uint64_t cells = 0;
  for (int j = 0; j < k; ++j) cells |= after[j] & before[k - 1 - j];
  return cells;
}

template <int K>
inline uint64_t CompletingCells(uint64_t stones, const int* shifts,
                                int directions) {
  uint64_t cells = 0;
  for (int d = 0; d < directions; ++d) {
    cells |= CompletingCells<K>(stones, shifts[d]);
  }
  return cells;
}

}  // namespace connect_internal

ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t ConnectBoard::WinningCells(
    uint64_t stones, uint64_t mask) const {
  // Connect Four's lines inline, in every node; any other k through a call.
  const uint64_t cells =
      FourEverywhere()
          ? connect_internal::CompletingFourEverywhere(stones, shift_)
          : CompletingCells(stones);
  return cells & (board_ ^ mask);
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline void ConnectBoard::WinningCellsAfter(
    uint64_t stones, uint64_t mask, const uint64_t* moves, int n,
    uint64_t* after) const {
  int i = 0;
  if (FourEverywhere()) {
    for (; i + 1 < n; i += 2) {
      const connect_internal::Lanes p = {stones | moves[i],
                                         stones | moves[i + 1]};
      const connect_internal::Lanes cells =
          connect_internal::CompletingFourEverywhere(p, shift_);
      after[i] = cells[0] & (board_ ^ (mask | moves[i]));
      after[i + 1] = cells[1] & (board_ ^ (mask | moves[i + 1]));
    }
  }
  for (; i < n; ++i) {
    after[i] = WinningCells(stones | moves[i], mask | moves[i]);
  }
}

inline uint64_t ConnectBoard::SafeMoves(uint64_t mask, uint64_t threats) const {
  uint64_t possible = Playable(mask);
  const uint64_t forced = possible & threats;
  if (forced != 0) {
    if ((forced & (forced - 1)) != 0) return 0;  // two threats: lost
    possible = forced;
  }
  // Not under an opponent's winning cell (the sentinel takes the bottom's).
  return possible & ~(threats >> 1);
}

inline uint64_t ConnectBoard::Key(const Bits& b) const {
  // mover + mask + bottom: per column, the stones of the side to move below
  // a 1 that marks the column's height. Unique, never 0.
  return std::min(b.mover + b.mask + bottom_,
                  b.mirror_mover + b.mirror_mask + bottom_);
}

inline int ConnectBoard::MoveScore(uint64_t mask, uint64_t threats,
                                   uint64_t opponent_threats) const {
  // Threats not right above one of the opponent's (those the opponent
  // blocks by taking its own), twice those the opponent must not play
  // under at once.
  const uint64_t useful = threats & ~(opponent_threats << 1);
  const uint64_t next = (Playable(mask) << 1) & board_;
  return absl::popcount(useful & next) + absl::popcount(useful);
}

inline bool ConnectBoard::HasLine(uint64_t stones) const {
  for (int d = 0; d < directions_; ++d) {
    const int s = shift_[d];
    uint64_t runs = stones;  // cells starting a run of `length` stones
    int length = 1;
    while (2 * length <= k_) {
      runs &= runs >> (length * s);
      length *= 2;
    }
    if (length < k_) runs &= runs >> ((k_ - length) * s);
    if (runs != 0) return true;
  }
  return false;
}

inline int ConnectBoard::ClaimevenUpper(uint64_t mover, uint64_t opponent,
                                        uint64_t mask) const {
  // With an even number of stones on the board (and an even height), the
  // opponent can answer every move in a column of even height directly
  // above it, and a move in a column of odd height in another column of
  // odd height (they pair up, an even number of them). That takes it every
  // empty cell of the odd rows (counted from 0 at the bottom) but those
  // playable now, and leaves the side to move the rest. If the rest hold
  // no line, the side to move cannot win; if the opponent's cells also
  // hold one, it loses.
  if (!HasClaimeven()) return kNoBound;
  const uint64_t empty = board_ & ~mask;
  const uint64_t claimed = empty & odd_rows_ & ~Playable(mask);
  if (HasLine(mover | (empty & ~claimed))) return kNoBound;
  return HasLine(opponent | claimed) ? -1 : 0;
}

inline void ConnectBoard::StaticBounds(const Bits& b, int alpha, int beta,
                                       int* lower, int* upper) const {
  // The opponent cannot win before its second stone from here, nor the
  // side to move before its second.
  *lower = -(cells_ - 2 - b.moves) / 2;
  *upper = (cells_ - 1 - b.moves) / 2;
  const uint64_t empty = board_ & ~b.mask;
  const uint64_t opponent = b.mover ^ b.mask;
  // A player whose stones and every empty cell hold no line cannot win.
  if (beta > 0 && !HasLine(b.mover | empty)) *upper = std::min(*upper, 0);
  if (alpha < 0 && !HasLine(opponent | empty)) *lower = std::max(*lower, 0);
  if (beta > -1 && *upper > -1 && b.moves % 2 == 0) {
    *upper = std::min(*upper, ClaimevenUpper(b.mover, opponent, b.mask));
  }
}

}  // namespace mnk

#endif  // MNK_SEARCH_CONNECT_BOARD_H_
