// A dense index of the positions of one game, layer by layer: every position
// with L stones gets a number in [layer_offset(L), layer_offset(L + 1)), so a
// table can store one record per index and find it in O(1).
//
//   mnk::PositionIndex index(game);
//   uint64_t i = index.Index(pos);          // 0 <= i < index.size()
//   assert(index.At(i) == pos);
//
// Ranking. A layer L holds ceil(L/2) X stones and floor(L/2) O stones. A
// position is a *shape* (which cells are occupied) and a *pattern* (which of
// the occupied cells hold O):
//
//   Index(p) = layer_offset(L) + ShapeRank(occupied) * patterns(L)
//                              + PatternRank(O among occupied)
//
//   patterns(L) = C(L, floor(L/2)); the pattern is the set of slots j (the
//   j-th occupied cell in cell order) that hold O, ranked in colex order:
//   sum over the O slots s_0 < s_1 < ... of C(s_i, i + 1).
//
//   Without gravity a shape is any L-subset of the cells, ranked in colex
//   order the same way: sum over occupied cells c_0 < c_1 < ... of
//   C(c_i, i + 1). Colex order is numeric order of the bit masks, so the
//   solver walks a layer with Gosper's next-combination step.
//
//   With gravity a shape is a vector of column heights (h_0, ..., h_{m-1}),
//   0 <= h_c <= n, summing to L, ranked in lexicographic order: floating
//   stones have no index at all.
//
// Worked example, tic-tac-toe, "X.O/X.X/OO." (6 stones, layer 6):
//   occupied cells 0 2 3 5 6 7 -> shape rank C(0,1)+C(2,2)+C(3,3)+C(5,4)
//     +C(6,5)+C(7,6) = 0+1+1+5+6+7 = 20; O on cells 2, 6, 7 = slots 1, 4, 5
//     -> pattern rank C(1,1)+C(4,2)+C(5,3) = 1+6+10 = 17; patterns(6) = 20;
//   Index = layer_offset(6) + 20 * 20 + 17 = 2350 + 417 = 2767.
// Tic-tac-toe has 6,046 indices for its 5,478 reachable positions.
//
// Worked example with gravity, 3 wide and 2 high, ".X./XO." (3 stones):
//   column heights (1, 2, 0). ways[c][s] counts height vectors of columns
//   c..2 summing to s: ways[2][s] = 1 for s = 0..2; ways[1][s] = 1 2 3 2 1
//   for s = 0..4. The rank adds, for each column c and each t < h_c,
//   ways[c + 1][left - t] (left = stones not yet placed in columns < c):
//     column 0, h = 1, left 3: ways[1][3]                 = 2
//     column 1, h = 2, left 2: ways[2][2] + ways[2][1]     = 2
//   shape rank 4: the shapes of layer 3 in lexicographic order are (0,1,2)
//   (0,2,1) (1,0,2) (1,1,1) (1,2,0) ... The occupied cells 1 3 4 are slots
//   0 1 2; O on cell 4 is slot 2 -> pattern rank C(2,1) = 2 of C(3,1) = 3.
//   Layers 0-2 hold 1 + 3*1 + 6*2 = 16 indices, so
//   Index = 16 + 4 * 3 + 2 = 30.
#ifndef MNK_RULES_INDEX_INDEX_H_
#define MNK_RULES_INDEX_INDEX_H_

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <vector>

#include "absl/numeric/bits.h"
#include "rules/game/game.h"

namespace mnk {
namespace index_internal {

// Pascal's triangle up to 32, built at compile time.
struct BinomialTable {
  uint64_t c[kMaxCells + 1][kMaxCells + 1];
  constexpr BinomialTable() : c() {
    for (int n = 0; n <= kMaxCells; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
    }
  }
};
inline constexpr BinomialTable kBinomial{};

}  // namespace index_internal

class PositionIndex {
 public:
  explicit PositionIndex(const Game& game);

  // Whether the index has at most 2^64 - 1 entries. When it has more (7x6
  // without gravity: about 3^42), size() and the offsets are meaningless:
  // no table or solve can use it, and they say so.
  bool fits() const { return fits_; }
  // Number of indices, over all layers.
  uint64_t size() const { return offsets_.back(); }
  int cells() const { return cells_; }
  uint64_t layer_offset(int stones) const { return offsets_[stones]; }
  uint64_t layer_size(int stones) const {
    return offsets_[stones + 1] - offsets_[stones];
  }
  // The most indices a layer has; of the even layers alone (the first
  // player's turns, whose symbols a compressed table keeps).
  uint64_t widest_layer() const { return Widest(1); }
  uint64_t widest_even_layer() const { return Widest(2); }
  uint64_t shapes(int stones) const { return shapes_[stones]; }
  uint64_t patterns(int stones) const { return Binomial(stones, stones / 2); }

  // The index of `p`, which must have a legal piece count (and, with gravity,
  // no floating stone).
  uint64_t Index(const Position& p) const {
    const Mask occ = p.occupied();
    const int stones = absl::popcount(occ);
    return offsets_[stones] + ShapeRank(occ) * patterns(stones) +
           PatternRank(p.o, occ);
  }
  // The position at `index` < size().
  Position At(uint64_t index) const;

  // Shapes: the occupied cells, ranked as in the file comment.
  uint64_t ShapeRank(Mask occupied) const;
  Mask Shape(int stones, uint64_t rank) const;
  // The shape after `occupied` in rank order (undefined after the last).
  Mask NextShape(Mask occupied) const;

  // Patterns: bit j set when the j-th occupied cell holds O.
  uint64_t PatternRank(Mask o, Mask occupied) const {
    uint64_t rank = 0;
    int i = 1;
    for (Mask s = o; s != 0; s &= s - 1, ++i) {
      const int slot = absl::popcount(occupied & ((s & -s) - 1));
      rank += Binomial(slot, i);
    }
    return rank;
  }
  // The O slots of the pattern of rank `rank` < patterns(stones) (colex
  // unrank: the lowest stones / 2 slots for rank 0).
  static Mask UnrankPattern(int stones, uint64_t rank) {
    Mask slots = 0;
    int slot = stones - 1;
    for (int i = stones / 2; i >= 1; --i) {
      while (Binomial(slot, i) > rank) --slot;
      slots |= Mask{1} << slot;
      rank -= Binomial(slot, i);
      --slot;
    }
    return slots;
  }
  // The rank, among the patterns of layer stones + 1, of pattern `rank` of
  // layer `stones` once a stone is added as slot `slot` (0 <= slot <=
  // stones): the O slots from `slot` up move up one, and the new stone is an
  // O when `stones` is odd (O to move). Both steps keep colex order, so the
  // children through one move of a run of consecutive patterns of a shape
  // lie between the children of its first and its last:
  //
  //   patterns of shape S:  p0 < p1 < ... < pn      (one tier's run)
  //   children in S + c:    f(p0) < f(p1) < ... < f(pn)
  //
  // Example, layer 3 (one O among three slots, O to move), an O added as
  // slot 1: O slots {0} {1} {2} (ranks 0 1 2) become {0,1} {1,2} {1,3},
  // of ranks 0 2 4 among the six patterns of layer 4.
  static uint64_t ChildPattern(int stones, uint64_t rank, int slot) {
    const Mask slots = UnrankPattern(stones, rank);
    const Mask below = slots & ((Mask{1} << slot) - 1);
    Mask child = below | (slots ^ below) << 1;
    if (stones % 2 == 1) child |= Mask{1} << slot;
    uint64_t child_rank = 0;
    int i = 1;
    for (Mask s = child; s != 0; s &= s - 1, ++i) {
      child_rank += Binomial(absl::countr_zero(s), i);
    }
    return child_rank;
  }
  // The O stones (as cells) of pattern `slots` over `occupied`.
  static Mask Deposit(Mask slots, Mask occupied) {
    Mask cells = 0;
    for (int j = 0; occupied != 0; occupied &= occupied - 1, ++j) {
      if (slots >> j & 1) cells |= occupied & -occupied;
    }
    return cells;
  }

  // Gosper's step: the next larger mask with as many bits set, which is the
  // next subset of that size in colex order. `set` must not be 0.
  static Mask NextCombination(Mask set) {
    const Mask low = set & -set;
    const Mask ripple = set + low;
    return ripple | ((set ^ ripple) >> (2 + absl::countr_zero(low)));
  }

  // C(n, k) for 0 <= n, k <= kMaxCells; 0 when k > n. No branch: the
  // solver's inner loop uses it.
  static uint64_t Binomial(int n, int k) {
    assert(n >= 0 && n <= kMaxCells && k >= 0 && k <= kMaxCells);
    return index_internal::kBinomial.c[n][k];
  }

 private:
  // The most indices of layers 0, step, 2 * step, ...
  uint64_t Widest(int step) const {
    uint64_t widest = 0;
    for (int l = 0; l <= cells_; l += step) {
      widest = std::max(widest, layer_size(l));
    }
    return widest;
  }
  int Height(Mask occupied, int column) const {
    return absl::popcount(occupied & column_mask_[column]);
  }

  bool gravity_;
  bool fits_ = true;
  int width_, height_, cells_;
  std::vector<uint64_t> offsets_;  // cells_ + 2 entries
  std::vector<uint64_t> shapes_;   // per layer
  std::vector<Mask> column_mask_;
  // ways_[c][s]: height vectors of columns c..m-1 summing to s (gravity).
  std::vector<std::vector<uint64_t>> ways_;
};

}  // namespace mnk

#endif  // MNK_RULES_INDEX_INDEX_H_
