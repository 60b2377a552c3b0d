#include "player/sample.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_split.h"
#include "data/builtin.h"
#include "gtest/gtest.h"
#include "player/player.h"
#include "rules/game/game.h"
#include "table/sha256.h"
#include "table/table.h"

namespace mnk {
namespace {

Table TicTacToe() {
  return *Table::FromBytes(std::string(*BuiltinTable("3x3k3")));
}

TEST(SampleTest, DrawsDistinctReachablePositionsByPlyAndTheSameEachTime) {
  const Game game = *Game::Create({4, 4, 4, true});
  const std::vector<Position> drawn = DrawSample(game, 1000, 7);
  ASSERT_EQ(drawn.size(), 1000u);
  absl::flat_hash_set<std::string> seen;
  std::vector<int> by_ply(17, 0);
  for (size_t i = 0; i < drawn.size(); ++i) {
    EXPECT_TRUE(game.IsReachable(drawn[i])) << game.Format(drawn[i]);
    EXPECT_TRUE(seen.insert(game.Format(drawn[i])).second);
    if (i > 0) {
      EXPECT_LE(drawn[i - 1].stones(), drawn[i].stones());
    }
    ++by_ply[drawn[i].stones()];
  }
  // Every ply has its share, but for those with fewer positions: one
  // empty board, four first moves, sixteen of ply 2.
  EXPECT_EQ(by_ply[0], 1);
  EXPECT_EQ(by_ply[1], 4);
  EXPECT_EQ(by_ply[2], 16);
  for (int ply = 4; ply <= 12; ++ply) EXPECT_GE(by_ply[ply], 55) << ply;
  EXPECT_EQ(DrawSample(game, 1000, 7), drawn);
  EXPECT_NE(DrawSample(game, 1000, 8), drawn);
}

TEST(SampleTest, AGameWithFewerPositionsGivesThemAll) {
  const Game game = *Game::Create({3, 3, 3});
  // Tic-tac-toe has 5,478 reachable positions: a sample of 10,000 finds
  // nearly all and repeats none.
  const std::vector<Position> drawn = DrawSample(game, 10000, 1);
  EXPECT_GT(drawn.size(), 5000u);
  EXPECT_LE(drawn.size(), 5478u);
}

TEST(SampleTest, TheFileNamesItsTableAndHoldsItsAnswers) {
  const Table table = TicTacToe();
  absl::StatusOr<std::string> text = TableSample(table, 12, 1);
  ASSERT_TRUE(text.ok()) << text.status();
  const std::vector<std::string> lines =
      absl::StrSplit(*text, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 4u + 12u);
  EXPECT_EQ(lines[0],
            "# 3,3,3: 12 random reachable positions, spread over the plies, "
            "with the table's answers");
  EXPECT_EQ(lines[1], "# table SHA-256 " + Sha256(table));
  EXPECT_EQ(lines[2], "# drawn by: sample --table=FILE --count=12 --seed=1");
  EXPECT_EQ(lines[4], ".../.../... draw 9 0");
  // Each line is the table's answer, as play gives it.
  const Oracle oracle(table);
  for (size_t i = 4; i < lines.size(); ++i) {
    const std::vector<std::string> f = absl::StrSplit(lines[i], ' ');
    ASSERT_EQ(f.size(), 4u) << lines[i];
    const Analysis a = *oracle.Analyze(*table.game().Parse(f[0]));
    EXPECT_EQ(f[1], ValueName(a.record.value)) << lines[i];
    EXPECT_EQ(f[2], std::to_string(a.record.remoteness)) << lines[i];
    EXPECT_EQ(f[3], a.record.best_move == kNoMove
                        ? "none"
                        : std::to_string(a.record.best_move))
        << lines[i];
  }
}

}  // namespace
}  // namespace mnk
