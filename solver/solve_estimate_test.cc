#include "solver/solve_estimate.h"

#include <string>

#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"

namespace mnk {
namespace {

struct Measured {
  GameSpec spec;
  bool tiers;
  double seconds;         // whole process, two threads
  double work_dir_bytes;  // at its fullest (0: not in tiers)
  double table_bytes;     // the compressed table
};

// The boards measured here (docs/results.md, docs/figures.md).
const Measured kMeasured[] = {
    {{5, 4, 4}, false, 24, 0, 114e6},
    {{6, 4, 4}, true, 3209, 23.5e9, 7.55e9},
    {{5, 5, 4}, true, 9420, 15e9, 14.19e9},
    {{5, 5, 4, true}, false, 4.8, 0, 0},
    {{6, 4, 4, true}, false, 6.1, 0, 0},
    {{6, 5, 4, true}, false, 192, 0, 599e6},
    {{6, 5, 4, true}, true, 215, 0, 599e6},
    {{6, 6, 4, true}, true, 5880, 16.2e9, 9.59e9},
    {{7, 5, 4, true}, true, 15300, 25.4e9, 15.63e9},
};

SolveOptions Options(bool tiers, TableLayout layout) {
  SolveOptions options;
  options.threads = 2;
  options.layout = layout;
  if (tiers) options.work_dir = "DIR";
  return options;
}

TEST(SolveEstimateTest, EveryMeasuredBoardFallsInItsRange) {
  for (const Measured& m : kMeasured) {
    const Game game = *Game::Create(m.spec);
    const SolveEstimate e =
        EstimateSolve(game, Options(m.tiers, TableLayout::Compressed(true)));
    SCOPED_TRACE(m.spec.Name());
    EXPECT_LE(e.seconds.low, m.seconds);
    EXPECT_GE(e.seconds.high, m.seconds);
    if (m.work_dir_bytes > 0) {
      EXPECT_LE(e.work_dir_bytes.low, m.work_dir_bytes);
      EXPECT_GE(e.work_dir_bytes.high, m.work_dir_bytes);
    }
    if (m.table_bytes > 0) {
      EXPECT_LE(e.table_bytes.low, m.table_bytes);
      EXPECT_GE(e.table_bytes.high, m.table_bytes);
    }
  }
}

TEST(SolveEstimateTest, SixBySixGravityInTiers) {
  const Game game = *Game::Create({6, 6, 4, true});
  const SolveOptions options = Options(true, TableLayout::Compressed(true));
  const SolveEstimate e = EstimateSolve(game, options);
  EXPECT_EQ(e.indices, 600524301377u);
  EXPECT_EQ(e.memory, SolveBytes(game, options));
  const std::string report = EstimateReport(game, options, e);
  EXPECT_NE(report.find("6,6,4 gravity, compressed, in tiers in --work-dir, "
                        "2 threads:\n  indices   600,524,301,377 boards"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("  time      88 min to 4.5 hours\n"), std::string::npos)
      << report;
}

TEST(SolveEstimateTest, FullTableSizeIsExactAndTimeHalvesWithFourThreads) {
  const Game game = *Game::Create({4, 4, 4});
  SolveOptions options = Options(false, TableLayout::Full());
  const SolveEstimate two = EstimateSolve(game, options);
  EXPECT_EQ(two.table_bytes.low, two.table_bytes.high);
  EXPECT_GT(two.table_bytes.low, 10165779 * 2.0);
  options.threads = 4;
  EXPECT_DOUBLE_EQ(EstimateSolve(game, options).seconds.high,
                   two.seconds.high / 2);
}

TEST(SolveEstimateTest, ABookSaysItCannotBeEstimated) {
  const Game game = *Game::Create({7, 6, 4, true});
  const SolveOptions options = Options(false, TableLayout::Book());
  const SolveEstimate e = EstimateSolve(game, options);
  EXPECT_TRUE(e.reachable_bound);
  EXPECT_EQ(e.indices, 70728639995483u);
  EXPECT_NE(EstimateReport(game, options, e).find("unknown before the solve"),
            std::string::npos);
}

}  // namespace
}  // namespace mnk
