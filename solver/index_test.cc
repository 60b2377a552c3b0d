#include "solver/index.h"

#include <vector>

#include "gtest/gtest.h"

namespace mnk {
namespace {

TEST(PositionIndexTest, TicTacToeSizes) {
  const Game game = *Game::Create({3, 3, 3});
  const PositionIndex index(game);
  EXPECT_EQ(index.size(), 6046u);
  const std::vector<uint64_t> sizes = {1,    9,    72,   252, 756,
                                       1260, 1680, 1260, 630, 126};
  for (int l = 0; l <= 9; ++l) EXPECT_EQ(index.layer_size(l), sizes[l]) << l;
}

TEST(PositionIndexTest, WorkedExampleFromTheHeader) {
  const Game game = *Game::Create({3, 3, 3});
  const PositionIndex index(game);
  const Position p = *game.Parse("X.O/X.X/OO.");
  EXPECT_EQ(index.layer_offset(6), 2350u);
  EXPECT_EQ(index.ShapeRank(p.occupied()), 20u);
  EXPECT_EQ(index.PatternRank(p.o, p.occupied()), 17u);
  EXPECT_EQ(index.Index(p), 2767u);
}

// Every index maps to a position with the right counts and back.
void ExpectBijection(const GameSpec& spec, uint64_t expected_size) {
  const Game game = *Game::Create(spec);
  const PositionIndex index(game);
  EXPECT_EQ(index.size(), expected_size);
  for (uint64_t i = 0; i < index.size(); ++i) {
    const Position p = index.At(i);
    ASSERT_EQ(p.x & p.o, 0u);
    const int nx = __builtin_popcount(p.x), no = __builtin_popcount(p.o);
    ASSERT_TRUE(nx == no || nx == no + 1) << i;
    ASSERT_EQ(index.Index(p), i) << game.Format(p);
  }
  // Walking shapes in order matches their ranks.
  for (int l = 0; l <= game.cells(); ++l) {
    uint32_t occupied = index.Shape(l, 0);
    for (uint64_t r = 0; r < index.shapes(l); ++r) {
      ASSERT_EQ(index.ShapeRank(occupied), r);
      ASSERT_EQ(__builtin_popcount(occupied), l);
      if (r + 1 < index.shapes(l)) occupied = index.NextShape(occupied);
    }
  }
}

TEST(PositionIndexTest, Bijection) {
  ExpectBijection({3, 3, 3}, 6046);
  ExpectBijection({4, 3, 3}, 143365);
  ExpectBijection({4, 4, 4, true}, 201755);
  ExpectBijection(
      {3, 5, 3, true}, 0 + [] {
        // Height vectors of 3 columns of height <= 5 by stones, times patterns.
        uint64_t total = 0;
        for (int a = 0; a <= 5; ++a)
          for (int b = 0; b <= 5; ++b)
            for (int c = 0; c <= 5; ++c) {
              const int l = a + b + c;
              total += PositionIndex::Binomial(l, l / 2);
            }
        return total;
      }());
}

TEST(PositionIndexTest, GravityShapesHaveNoFloatingStones) {
  const Game game = *Game::Create({4, 3, 3, true});
  const PositionIndex index(game);
  for (int l = 0; l <= game.cells(); ++l) {
    for (uint64_t r = 0; r < index.shapes(l); ++r) {
      const uint32_t occupied = index.Shape(l, r);
      const uint32_t bottom = game.full_mask() & ~(game.full_mask() >> 4);
      EXPECT_EQ(occupied & ~bottom & ~(occupied >> 4), 0u);
    }
  }
}

}  // namespace
}  // namespace mnk
