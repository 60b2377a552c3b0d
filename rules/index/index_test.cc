#include "rules/index/index.h"

#include <cstdint>
#include <random>
#include <vector>

#include "absl/numeric/bits.h"
#include "gtest/gtest.h"
#include "rules/index/layer_walker.h"

namespace mnk {
namespace {

TEST(PositionIndexTest, TicTacToeSizes) {
  const Game game = *Game::Create({3, 3, 3});
  const PositionIndex index(game);
  EXPECT_EQ(index.size(), 6046u);
  const std::vector<uint64_t> sizes = {1,    9,    72,   252, 756,
                                       1260, 1680, 1260, 630, 126};
  for (int l = 0; l <= 9; ++l) EXPECT_EQ(index.layer_size(l), sizes[l]) << l;
  EXPECT_EQ(index.widest_layer(), 1680u);       // layer 6
  EXPECT_EQ(index.widest_even_layer(), 1680u);  // layer 6
}

TEST(PositionIndexTest, WidestEvenLayerSkipsOddOnes) {
  // One column of three with gravity: one shape a layer, so layers of 1, 1,
  // 2 and 3 indices (the patterns of 0, 1, 2 and 3 stones).
  const Game game = *Game::Create({1, 3, 3, /*gravity=*/true});
  const PositionIndex index(game);
  EXPECT_EQ(index.widest_layer(), 3u);
  EXPECT_EQ(index.widest_even_layer(), 2u);
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

TEST(PositionIndexTest, GravityWorkedExampleFromTheHeader) {
  const Game game = *Game::Create({3, 2, 3, /*gravity=*/true});
  const PositionIndex index(game);
  const Position p = *game.Parse(".X./XO.");
  EXPECT_EQ(index.shapes(3), 7u);
  EXPECT_EQ(index.layer_offset(3), 16u);
  EXPECT_EQ(index.ShapeRank(p.occupied()), 4u);
  EXPECT_EQ(index.PatternRank(p.o, p.occupied()), 2u);
  EXPECT_EQ(index.Index(p), 30u);
  EXPECT_EQ(index.At(30), p);
}

// ChildPattern on its example from index.h, then against Index() for every
// pattern of a 4x4 gravity shape through every move: the child's pattern,
// increasing with the parent's (the order ChildTiers relies on).
TEST(PositionIndexTest, ChildPatternKeepsColexOrder) {
  EXPECT_EQ(PositionIndex::ChildPattern(3, 0, 1), 0u);
  EXPECT_EQ(PositionIndex::ChildPattern(3, 1, 1), 2u);
  EXPECT_EQ(PositionIndex::ChildPattern(3, 2, 1), 4u);
  const Game game = *Game::Create({4, 4, 4, /*gravity=*/true});
  const PositionIndex index(game);
  int checked = 0;
  for (int stones = 0; stones < 16; ++stones) {
    const Mask shape = index.Shape(stones, index.shapes(stones) / 2);
    for (Mask m = game.Playable(shape); m != 0; m &= m - 1) {
      const int slot = absl::popcount(shape & ((m & -m) - 1));
      uint64_t previous = 0;
      for (uint64_t r = 0; r < index.patterns(stones); ++r) {
        const Position p =
            index.At(index.layer_offset(stones) +
                     index.ShapeRank(shape) * index.patterns(stones) + r);
        const Position child = Game::Play(p, absl::countr_zero(m));
        const uint64_t f = PositionIndex::ChildPattern(stones, r, slot);
        ASSERT_EQ(f, index.PatternRank(child.o, child.occupied()));
        if (r > 0) {
          ASSERT_GT(f, previous);
        }
        previous = f;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 21578);
}

// The O(1) child index of layer_walker.h, on its worked example and on
// every child of every position of a few boards.
TEST(LayerWalkerTest, WorkedExampleFromTheHeader) {
  const Game game = *Game::Create({3, 3, 3});
  const PositionIndex index(game);
  EXPECT_EQ(index.layer_offset(7), 4030u);
  EXPECT_EQ(index.patterns(7), 35u);
  const Position child = *game.Parse("X.O/XXX/OO.");
  EXPECT_EQ(index.ShapeRank(child.occupied()), 6u);
  EXPECT_EQ(index.PatternRank(child.o, child.occupied()), 31u);
  EXPECT_EQ(index.Index(child), 4271u);
  LayerWalker walker(game, index, 6);
  bool seen = false;
  walker.Walk(0, index.shapes(6), [&](uint64_t i, const Position& p) {
    if (i != 2767) return;
    seen = true;
    EXPECT_EQ(p, *game.Parse("X.O/X.X/OO."));
    walker.PrepareChildren();
    EXPECT_EQ(walker.Child(4), 4271u);
  });
  EXPECT_TRUE(seen);
}

TEST(LayerWalkerTest, ChildIndicesMatchTheRanking) {
  for (const GameSpec& spec :
       {GameSpec{3, 3, 3}, GameSpec{4, 3, 3}, GameSpec{3, 4, 3, true},
        GameSpec{4, 2, 2, true}}) {
    const Game game = *Game::Create(spec);
    const PositionIndex index(game);
    uint64_t children = 0;
    for (int stones = 0; stones < game.cells(); ++stones) {
      LayerWalker walker(game, index, stones);
      uint64_t expected = index.layer_offset(stones);
      walker.Walk(0, index.shapes(stones), [&](uint64_t i, const Position& p) {
        ASSERT_EQ(i, expected++);
        ASSERT_EQ(index.Index(p), i);
        walker.PrepareChildren();
        for (uint32_t s = walker.legal(); s != 0; s &= s - 1) {
          const int cell = absl::countr_zero(s);
          ASSERT_EQ(walker.Child(cell), index.Index(Game::Play(p, cell)))
              << game.Format(p) << " + " << cell;
          ++children;
        }
      });
      EXPECT_EQ(expected, index.layer_offset(stones + 1));
    }
    EXPECT_GT(children, 0u) << spec.Name();
  }
}

// The walker stands at index i, position p: they agree, and so do p's
// children's indices, O(1) and ranked.
void ExpectWalkerAt(const PositionIndex& index, LayerWalker& walker, uint64_t i,
                    const Position& p) {
  ASSERT_EQ(index.At(i), p);
  walker.PrepareChildren();
  for (Mask s = walker.legal(); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    ASSERT_EQ(walker.Child(cell), index.Index(Game::Play(p, cell)));
  }
}

// Walking any range of a layer's indices, starting and ending inside
// shapes, visits exactly those indices, each with its position and children.
TEST(LayerWalkerTest, WalksAnyRangeOfIndices) {
  for (const GameSpec& spec : {GameSpec{4, 3, 3}, GameSpec{3, 4, 3, true}}) {
    const Game game = *Game::Create(spec);
    const PositionIndex index(game);
    for (int stones = 0; stones < game.cells(); ++stones) {
      const uint64_t size = index.layer_size(stones);
      for (uint64_t step : {uint64_t{1}, uint64_t{7}, uint64_t{100}, size}) {
        uint64_t expected = index.layer_offset(stones);
        for (uint64_t begin = 0; begin < size; begin += step) {
          LayerWalker walker(game, index, stones);
          walker.WalkIndices(begin, std::min(size, begin + step),
                             [&](uint64_t i, const Position& p) {
                               ASSERT_EQ(i, expected++);
                               ExpectWalkerAt(index, walker, i, p);
                             });
        }
        EXPECT_EQ(expected, index.layer_offset(stones + 1))
            << spec.Name() << " layer " << stones << " step " << step;
      }
    }
  }
}

// Walking only the indices whose bit is set, over any range, visits exactly
// those, in order, each with its position and children: dense and sparse
// bits, runs of empty words, gaps inside a shape and across shapes.
TEST(LayerWalkerTest, WalksOnlyTheReachedIndices) {
  std::mt19937_64 random(20261124);
  for (const GameSpec& spec : {GameSpec{4, 3, 3}, GameSpec{3, 4, 3, true}}) {
    const Game game = *Game::Create(spec);
    const PositionIndex index(game);
    for (int stones = 0; stones < game.cells(); ++stones) {
      const uint64_t size = index.layer_size(stones);
      for (const uint64_t one_in : {1, 2, 50, 1000}) {
        std::vector<uint64_t> bits((size + 63) / 64 + 1, 0);
        std::vector<uint64_t> expected;
        for (uint64_t j = 0; j < size; ++j) {
          if (random() % one_in == 0) {
            bits[j / 64] |= uint64_t{1} << (j % 64);
            expected.push_back(index.layer_offset(stones) + j);
          }
        }
        for (uint64_t step : {uint64_t{1}, uint64_t{37}, uint64_t{200}, size}) {
          std::vector<uint64_t> visited;
          for (uint64_t begin = 0; begin < size; begin += step) {
            LayerWalker walker(game, index, stones);
            // The bits handed over start at the range's first word.
            walker.WalkReached(begin, std::min(size, begin + step),
                               bits.data() + begin / 64, begin / 64,
                               [&](uint64_t i, const Position& p) {
                                 visited.push_back(i);
                                 ExpectWalkerAt(index, walker, i, p);
                               });
          }
          EXPECT_EQ(visited, expected)
              << spec.Name() << " layer " << stones << " one in " << one_in
              << " step " << step;
        }
      }
    }
  }
}

// Every index maps to a position with the right counts and back.
void ExpectBijection(const GameSpec& spec, uint64_t expected_size) {
  const Game game = *Game::Create(spec);
  const PositionIndex index(game);
  EXPECT_EQ(index.size(), expected_size);
  for (uint64_t i = 0; i < index.size(); ++i) {
    const Position p = index.At(i);
    ASSERT_EQ(p.x & p.o, 0u);
    const int nx = absl::popcount(p.x), no = absl::popcount(p.o);
    ASSERT_TRUE(nx == no || nx == no + 1) << i;
    ASSERT_EQ(index.Index(p), i) << game.Format(p);
  }
  // Walking shapes in order matches their ranks.
  for (int l = 0; l <= game.cells(); ++l) {
    uint32_t occupied = index.Shape(l, 0);
    for (uint64_t r = 0; r < index.shapes(l); ++r) {
      ASSERT_EQ(index.ShapeRank(occupied), r);
      ASSERT_EQ(absl::popcount(occupied), l);
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
