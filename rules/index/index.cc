#include "rules/index/index.h"

#include <cassert>

#include "absl/numeric/bits.h"

namespace mnk {

PositionIndex::PositionIndex(const Game& game)
    : gravity_(game.spec().gravity),
      width_(game.width()),
      height_(game.height()),
      cells_(game.cells()) {
  // Every count below is checked for overflow: a board whose index passes
  // 2^64 entries is marked as not fitting.
  auto add = [&](uint64_t a, uint64_t b) {
    uint64_t sum = 0;
    fits_ &= !__builtin_add_overflow(a, b, &sum);
    return sum;
  };
  if (gravity_) {
    column_mask_.assign(width_, 0);
    for (int cell = 0; cell < cells_; ++cell) {
      column_mask_[cell % width_] |= Mask{1} << cell;
    }
    ways_.assign(width_ + 1, std::vector<uint64_t>(cells_ + 1, 0));
    ways_[width_][0] = 1;
    for (int c = width_ - 1; c >= 0; --c) {
      for (int s = 0; s <= cells_; ++s) {
        for (int h = 0; h <= height_ && h <= s; ++h) {
          ways_[c][s] = add(ways_[c][s], ways_[c + 1][s - h]);
        }
      }
    }
  }
  offsets_.push_back(0);
  for (int stones = 0; stones <= cells_; ++stones) {
    shapes_.push_back(gravity_ ? ways_[0][stones] : Binomial(cells_, stones));
    uint64_t layer = 0;
    fits_ &= !__builtin_mul_overflow(shapes_.back(), patterns(stones), &layer);
    offsets_.push_back(add(offsets_.back(), layer));
  }
}

uint64_t PositionIndex::ShapeRank(Mask occupied) const {
  uint64_t rank = 0;
  if (!gravity_) {
    int i = 1;
    for (Mask s = occupied; s != 0; s &= s - 1, ++i) {
      rank += Binomial(absl::countr_zero(s), i);
    }
    return rank;
  }
  int left = absl::popcount(occupied);
  for (int c = 0; c < width_; ++c) {
    const int h = Height(occupied, c);
    for (int t = 0; t < h; ++t) rank += ways_[c + 1][left - t];
    left -= h;
  }
  return rank;
}

Mask PositionIndex::Shape(int stones, uint64_t rank) const {
  assert(rank < shapes_[stones]);
  Mask occupied = 0;
  if (!gravity_) {
    int cell = cells_ - 1;
    for (int i = stones; i >= 1; --i) {
      while (Binomial(cell, i) > rank) --cell;
      occupied |= Mask{1} << cell;
      rank -= Binomial(cell, i);
      --cell;
    }
    return occupied;
  }
  int left = stones;
  for (int c = 0; c < width_; ++c) {
    int h = 0;
    while (rank >= ways_[c + 1][left - h]) rank -= ways_[c + 1][left - h++];
    for (int row = height_ - 1; row >= height_ - h; --row) {
      occupied |= Mask{1} << (row * width_ + c);
    }
    left -= h;
  }
  return occupied;
}

Mask PositionIndex::NextShape(Mask occupied) const {
  if (!gravity_) return NextCombination(occupied);
  const int stones = absl::popcount(occupied);
  return Shape(stones, ShapeRank(occupied) + 1);
}

Position PositionIndex::At(uint64_t index) const {
  assert(index < size());
  int stones = 0;
  while (offsets_[stones + 1] <= index) ++stones;
  index -= offsets_[stones];
  const uint64_t pattern_count = patterns(stones);
  const Mask occupied = Shape(stones, index / pattern_count);
  const Mask slots = UnrankPattern(stones, index % pattern_count);
  Position p;
  p.o = Deposit(slots, occupied);
  p.x = occupied & ~p.o;
  return p;
}

}  // namespace mnk
