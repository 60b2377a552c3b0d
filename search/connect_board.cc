#include "search/connect_board.h"

namespace mnk {

ConnectBoard::ConnectBoard(const Game& game)
    : width_(game.width()),
      height_(game.height()),
      k_(game.spec().k),
      cells_(game.cells()) {
  const int column = height_ + 1;
  for (int c = 0; c < width_; ++c) {
    bottom_ |= uint64_t{1} << (c * column);
  }
  board_ = bottom_ * ((uint64_t{1} << height_) - 1);
  for (int c = 0; c < width_; ++c) {
    column_[c] = ((uint64_t{1} << height_) - 1) << (c * column);
  }
  for (int r = 1; r < height_; r += 2) odd_rows_ |= bottom_ << r;
  for (int i = 0; i < width_ * column; ++i) {
    mirror_bit_[i] = uint64_t{1}
                     << ((width_ - 1 - i / column) * column + i % column);
  }
  // The directions a line of k fits in: up, right, right and down, right
  // and up. Their shifts times k - 1 stay under 64 (see the header).
  const bool fits[4] = {k_ <= height_, k_ <= width_,
                        k_ <= std::min(width_, height_),
                        k_ <= std::min(width_, height_)};
  const int shifts[4] = {1, column, column - 1, column + 1};
  for (int d = 0; d < 4; ++d) {
    if (fits[d]) shift_[directions_++] = shifts[d];
  }
  for (int i = 0; i < width_; ++i) {
    // Centre first, then outwards, left before right.
    const int step = i % 2 == 0 ? i / 2 : -(i + 1) / 2;
    order_.push_back(width_ / 2 + step);
  }
}

ConnectBoard::Bits ConnectBoard::ToBits(const Position& p) const {
  Bits b{0, 0, 0, 0, p.stones()};
  const Mask mover = p.mover();
  for (Mask s = p.occupied(); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const int row = cell / width_, col = cell % width_;
    const int i = col * (height_ + 1) + (height_ - 1 - row);
    b.mask |= uint64_t{1} << i;
    b.mirror_mask |= mirror_bit_[i];
    if ((mover >> cell & 1) != 0) {
      b.mover |= uint64_t{1} << i;
      b.mirror_mover |= mirror_bit_[i];
    }
  }
  return b;
}

uint64_t ConnectBoard::CompletingCells(uint64_t stones) const {
  switch (k_) {
    case 1:
      return ~uint64_t{0};
    case 2:
      return connect_internal::CompletingCells<2>(stones, shift_, directions_);
    case 3:
      return connect_internal::CompletingCells<3>(stones, shift_, directions_);
    case 4:
      return connect_internal::CompletingCells<4>(stones, shift_, directions_);
    case 5:
      return connect_internal::CompletingCells<5>(stones, shift_, directions_);
    default:
      uint64_t cells = 0;
      for (int d = 0; d < directions_; ++d) {
        cells |= connect_internal::CompletingCellsAny(stones, shift_[d], k_);
      }
      return cells;
  }
}

}  // namespace mnk
