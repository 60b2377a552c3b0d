// Walks the positions of one layer in index order and gives the index of
// every child in O(1): what the solver and verify loop over.
//
//   mnk::LayerWalker walker(game, index, /*stones=*/2);
//   walker.Walk(0, index.shapes(2), [&](uint64_t i, const mnk::Position& p) {
//     walker.PrepareChildren();
//     for (Mask s = walker.legal(); s != 0; s &= s - 1) {
//       uint64_t child = walker.Child(absl::countr_zero(s));  // == Index(...)
//     }
//   });
//
// How a child's index is found in O(1) (see index.h for the ranking). A
// child adds one stone at cell c, which becomes slot jc among the occupied
// cells (jc = occupied cells below c). Without gravity the child's shape
// rank is a sum over the occupied cells c_0 < c_1 < ...: the cells below c
// keep their terms C(c_i, i + 1), the new stone adds C(c, jc + 1), and every
// cell above c moves up one slot, so its term becomes C(c_i, i + 2). Two
// arrays per shape hold those prefix sums ("low") and suffix sums ("high").
// The pattern works the same way over the O slots s_0 < s_1 < ...: O slots
// below jc keep C(s_i, i + 1); those above move up one slot (C(s_i + 1, ...))
// and, when the new stone is an O (O to move), also up one O rank. So the
// child's pattern is the parent's rank plus one suffix sum over the O slots
// above the new stone (PrepareChildren).
//
// Worked example, tic-tac-toe, "X.O/X.X/OO." (index 2767, see index.h), X
// plays cell 4:
//   occupied cells 0 2 3 5 6 7, the new stone is slot jc = 3 (cells 0 2 3
//   are below it). Child shape = low[3] + C(4, 4) + high[3]
//     low[3]  = C(0,1) + C(2,2) + C(3,3)         = 0 + 1 + 1  = 2
//     new     = C(4,4)                                        = 1
//     high[3] = C(5,5) + C(6,6) + C(7,7)         = 1 + 1 + 1  = 3
//   = 6 (cells 0 2 3 4 5 6 7 -> C(0,1)+C(2,2)+C(3,3)+C(4,4)+C(5,5)+C(6,6)
//   +C(7,7) = 6, the same). The child's pattern: O slots were 1 4 5; the new
//   X stone is slot 3, so O slots become 1 5 6 -> C(1,1)+C(5,2)+C(6,3) =
//   1 + 10 + 20 = 31 (the parent's rank 17 plus C(4,1) + C(5,2) for the
//   two O slots above it). Child index = layer_offset(7) + 6 * patterns(7) + 31
//   = 4030 + 6 * 35 + 31 = 4271 = Index("X.O/XXX/OO.").
#ifndef MNK_RULES_INDEX_LAYER_WALKER_H_
#define MNK_RULES_INDEX_LAYER_WALKER_H_

#include <algorithm>
#include <cstdint>

#include "absl/base/attributes.h"
#include "absl/numeric/bits.h"
#include "rules/game/game.h"
#include "rules/index/index.h"

namespace mnk {

// The positions of layer `stones`, shape by shape, with O(1) child indices:
// prefix and suffix sums are prepared once per shape (and once per pattern).
class LayerWalker {
 public:
  LayerWalker(const Game& game, const PositionIndex& index, int stones)
      : game_(game),
        index_(index),
        stones_(stones),
        x_moves_(stones % 2 == 0),
        patterns_(index.patterns(stones)),
        child_patterns_(stones < index.cells() ? index.patterns(stones + 1)
                                               : 0),
        child_offset_(stones < index.cells() ? index.layer_offset(stones + 1)
                                             : 0),
        slot_bytes_((stones + 7) / 8) {}

  // Calls visit(global_index, position) for every position of the shapes
  // [begin, end). Inside visit, legal() refers to that position, and after
  // PrepareChildren() so does Child().
  template <typename Visit>
  void Walk(uint64_t begin, uint64_t end, Visit&& visit) {
    WalkIndices(begin * patterns_, end * patterns_, visit);
  }

  // The same over the layer's indices [begin, end) (counted from the
  // layer's first), which may start and end inside a shape.
  template <typename Visit>
  void WalkIndices(uint64_t begin, uint64_t end, Visit&& visit) {
    if (begin >= end) return;
    uint64_t shape = begin / patterns_;
    uint64_t r = begin % patterns_;
    Mask occupied = index_.Shape(stones_, shape);
    uint64_t global = index_.layer_offset(stones_) + begin;
    for (uint64_t left = end - begin;;) {
      PrepareShape(occupied);
      // The O slots of pattern r (the lowest stones / 2 of them for r = 0).
      Mask slots = PositionIndex::UnrankPattern(stones_, r);
      const uint64_t stop = std::min<uint64_t>(patterns_, r + left);
      left -= stop - r;
      for (; r < stop; ++r, ++global) {
        visit(global, PositionOf(slots, r));
        if (r + 1 < stop) slots = PositionIndex::NextCombination(slots);
      }
      if (left == 0) break;
      r = 0;
      occupied = index_.NextShape(occupied);
    }
  }

  // The same over the layer's indices [begin, end) whose bit is set in
  // `reached` (bit j % 64 of word j / 64 - first_word for the layer's index
  // j: the bits may start at any word of the layer): the others are
  // skipped a 64-bit word at a time, so that an unreachable index costs
  // next to nothing. A short gap is stepped over, a long one jumped by
  // unranking.
  template <typename Visit>
  void WalkReached(uint64_t begin, uint64_t end, const uint64_t* reached,
                   uint64_t first_word, Visit&& visit) {
    constexpr uint64_t kMaxSteps = 16;  // a step costs ~1/16 of an unrank
    assert(begin >> 6 >= first_word);
    uint64_t j = NextReached(reached, first_word, begin, end);
    if (j == end) return;
    // The current shape's first index: a division only on a new shape.
    uint64_t shape_first = j / patterns_ * patterns_;
    uint64_t r = j - shape_first;
    PrepareShape(index_.Shape(stones_, shape_first / patterns_));
    Mask slots = PositionIndex::UnrankPattern(stones_, r);
    const uint64_t offset = index_.layer_offset(stones_);
    for (;;) {
      visit(offset + j, PositionOf(slots, r));
      j = NextReached(reached, first_word, j + 1, end);
      if (j == end) return;
      if (j - shape_first >= patterns_) {
        shape_first = j / patterns_ * patterns_;
        PrepareShape(index_.Shape(stones_, shape_first / patterns_));
        r = j - shape_first;
        slots = PositionIndex::UnrankPattern(stones_, r);
        continue;
      }
      const uint64_t next = j - shape_first;
      if (next - r <= kMaxSteps) {
        for (; r < next; ++r) slots = PositionIndex::NextCombination(slots);
      } else {
        slots = PositionIndex::UnrankPattern(stones_, next);
      }
      r = next;
    }
  }

  // The first j in [from, end) with bit j set (bit j % 64 of
  // bits[j / 64 - first_word]), or `end`.
  static uint64_t NextReached(const uint64_t* bits, uint64_t first_word,
                              uint64_t from, uint64_t end) {
    if (from >= end) return end;
    uint64_t w = from >> 6;
    uint64_t word = bits[w - first_word] & (~uint64_t{0} << (from & 63));
    while (word == 0) {
      if (++w << 6 >= end) return end;
      word = bits[w - first_word];
    }
    return std::min(end, (w << 6) + absl::countr_zero(word));
  }

  // The cells a move can go to from the current shape (ignoring whether the
  // position is terminal).
  Mask legal() const { return legal_; }

  // Global index of the current position's child after a move to `cell`.
  uint64_t Child(int cell) const {
    const int jc = slot_[cell];
    const int t = absl::popcount(slots_ & ((Mask{1} << jc) - 1));
    const uint64_t pattern =
        rank_ + above_[t] + (x_moves_ ? 0 : PositionIndex::Binomial(jc, t + 1));
    return child_base_[cell] + pattern;
  }

  // Makes Child() work for the current position (not the full board).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void PrepareChildren() {
    // O slots s_0 < s_1 < ..., pattern rank r = sum of C(s_i, i + 1). A
    // stone added at slot jc, above t of them, moves every O slot above it
    // up by one: C(s_i + 1, i + 1) - C(s_i, i + 1) = C(s_i, i) more for each
    // i >= t. An O stone also takes index t (C(jc, t + 1)) and moves those
    // above up one index: C(s_i + 1, i + 2) - C(s_i, i + 1) = C(s_i, i + 2).
    // So the child's pattern is r + above_[t], above_[t] = the sum over
    // i >= t of C(s_i, i + shift).
    //
    // The O slots above the highest slot that changed since the last call
    // keep their index and their terms: only the sums below it are redone.
    // From one pattern to the next in colex order (NextCombination) that is
    // one or two slots on average, however many O stones there are.
    const Mask changed = slots_ ^ prepared_;
    if (changed == 0) return;
    const int top = kMaskBits - 1 - absl::countl_zero(changed);
    const Mask low =
        top == kMaskBits - 1 ? slots_ : slots_ & ((Mask{2} << top) - 1);
    int s[kMaxCells];
    int count = 0;
    for (Mask b = low; b != 0; b &= b - 1) s[count++] = absl::countr_zero(b);
    const int shift = x_moves_ ? 0 : 2;
    for (int i = count - 1; i >= 0; --i) {
      above_[i] = above_[i + 1] + PositionIndex::Binomial(s[i], i + shift);
    }
    prepared_ = slots_;
  }

 private:
  static constexpr int kMaskBits = 8 * sizeof(Mask);

  // The position of the current shape whose O slots are `slots` (pattern
  // rank `rank`), made the current one: the O stones deposited a byte of
  // slots at a time (deposit_, built by PrepareShape).
  Position PositionOf(Mask slots, uint64_t rank) {
    slots_ = slots;
    rank_ = rank;
    Position p;
    for (int k = 0; k < slot_bytes_; ++k) {
      p.o |= deposit_[k][(slots >> (8 * k)) & 0xff];
    }
    p.x = occupied_ & ~p.o;
    return p;
  }

  void PrepareShape(Mask occupied) {
    occupied_ = occupied;
    legal_ = game_.Playable(occupied);
    // Occupied cells c_0 < c_1 < ...: low[j] sums C(c_i, i + 1) for i < j,
    // high[j] sums C(c_i, i + 2) for i >= j (their slot moves up by one).
    int cells[kMaxCells];
    int count = 0;
    Mask cell_bit[kMaxCells];
    for (Mask s = occupied; s != 0; s &= s - 1) {
      cells[count] = absl::countr_zero(s);
      cell_bit[count++] = s & -s;
    }
    // deposit_[k][b]: the cells of slots 8k + j for each bit j of b. A
    // pattern has slots below `stones_` only: the last byte's entries
    // stop at 2^(stones_ - 8k).
    for (int k = 0; k < slot_bytes_; ++k) {
      const int entries = 1 << std::min(8, stones_ - 8 * k);
      deposit_[k][0] = 0;
      for (int b = 1; b < entries; ++b) {
        const int slot = 8 * k + absl::countr_zero(static_cast<unsigned>(b));
        deposit_[k][b] = deposit_[k][b & (b - 1)] | cell_bit[slot];
      }
    }
    if (stones_ == index_.cells()) return;
    uint64_t low[kMaxCells + 1], high[kMaxCells + 1];
    low[0] = 0;
    for (int j = 0; j < count; ++j) {
      low[j + 1] = low[j] + PositionIndex::Binomial(cells[j], j + 1);
    }
    high[count] = 0;
    for (int j = count - 1; j >= 0; --j) {
      high[j] = high[j + 1] + PositionIndex::Binomial(cells[j], j + 2);
    }
    for (Mask s = legal_; s != 0; s &= s - 1) {
      const int cell = absl::countr_zero(s);
      const int jc = absl::popcount(occupied & ((Mask{1} << cell) - 1));
      slot_[cell] = jc;
      const uint64_t child_shape =
          game_.spec().gravity
              ? index_.ShapeRank(occupied | Mask{1} << cell)
              : low[jc] + PositionIndex::Binomial(cell, jc + 1) + high[jc];
      child_base_[cell] = child_offset_ + child_shape * child_patterns_;
    }
  }

  const Game& game_;
  const PositionIndex& index_;
  const int stones_;
  const bool x_moves_;
  const uint64_t patterns_;
  const uint64_t child_patterns_;
  const uint64_t child_offset_;
  Mask occupied_ = 0;
  Mask legal_ = 0;
  Mask slots_ = 0;
  uint64_t rank_ = 0;  // the pattern rank of slots_
  const int slot_bytes_;
  Mask deposit_[kMaxCells / 8][256];
  int slot_[kMaxCells];
  uint64_t child_base_[kMaxCells];  // index of the child's block
  // PrepareChildren's sums for the O slots prepared_ (none yet: every bit,
  // which no pattern is); above_[the number of O stones] stays 0.
  Mask prepared_ = ~Mask{0};
  uint64_t above_[kMaxCells + 1] = {};
};

}  // namespace mnk

#endif  // MNK_RULES_INDEX_LAYER_WALKER_H_
