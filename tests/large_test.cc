// The largest boards: published values and counts, and 100,000 random
// reachable positions each against alpha-beta with a transposition table.
// Minutes and gigabytes, so not part of `bazel test //...`:
//
//   bazel test //tests:large_test --test_output=all
#include <cstdio>
#include <vector>

#include "gtest/gtest.h"
#include "solver/game/game.h"
#include "solver/retrograde/solver.h"
#include "table/table.h"
#include "tests/family_checks.h"

namespace mnk {
namespace {

struct Published {
  GameSpec spec;
  Value start;  // for the first player
  uint64_t reachable;
};

class LargeTest : public ::testing::TestWithParam<Published> {};

TEST_P(LargeTest, PublishedAndAgainstSearch) {
  const Published& p = GetParam();
  const Game game = *Game::Create(p.spec);
  absl::StatusOr<Solution> s = Solve(game, {2});
  ASSERT_TRUE(s.ok()) << s.status();
  std::printf(
      "%s: %s, %llu reachable, solved in %.1f s\n", game.spec().Name().c_str(),
      std::string(ValueName(s->records.view().Get(0).value)).c_str(),
      static_cast<unsigned long long>(s->stats.reachable), s->stats.seconds);
  EXPECT_EQ(s->records.view().Get(0).value, p.start);
  EXPECT_EQ(s->stats.reachable, p.reachable);
  EXPECT_EQ(CheckRandomAgainstSearch(*s, 100000, /*seed=*/p.spec.width),
            100000u);
}

// m,n,k 5,4,4: draw, 674,794,169 positions. Connect-style (John Tromp's
// counts): 6x4 second-player win with 94,910,577 positions, 5x5 draw with
// 69,763,700; 5x4 has 3,945,711 positions (its value, a draw, is as solved
// here).
INSTANTIATE_TEST_SUITE_P(
    Boards, LargeTest,
    ::testing::Values(Published{{5, 4, 4}, Value::kDraw, 674794169},
                      Published{{6, 4, 4, true}, Value::kLoss, 94910577},
                      Published{{5, 5, 4, true}, Value::kDraw, 69763700},
                      Published{{5, 4, 4, true}, Value::kDraw, 3945711}));

// Connect-style 6x5 (Tromp: 2,818,972,642 positions), in the compact layout:
// about 5 GB and several minutes.
TEST(LargeCompactTest, SixByFiveGravity) {
  const GameSpec spec{6, 5, 4, true};
  SolveOptions options;
  options.compact = true;
  absl::StatusOr<Solution> s = Solve(*Game::Create(spec), options);
  ASSERT_TRUE(s.ok()) << s.status();
  std::printf("6,5,4 gravity: %s, %llu reachable, solved in %.1f s\n",
              std::string(ValueName(s->stats.start_value)).c_str(),
              static_cast<unsigned long long>(s->stats.reachable),
              s->stats.seconds);
  EXPECT_EQ(s->stats.reachable, 2818972642u);
  absl::StatusOr<Table> table = Table::FromBytes(
      SerializeCompactTable(spec, s->compact, s->stats.reachable));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(CheckCompactAgainstSearch(*table, 100000, /*seed=*/65), 100000u);
}

}  // namespace
}  // namespace mnk
