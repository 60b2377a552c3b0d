#include "solver/retrograde/solver.h"

#include "gtest/gtest.h"
#include "solver/search/search.h"

namespace mnk {
namespace {

TEST(SolverTest, TicTacToeCounts) {
  const Game game = *Game::Create({3, 3, 3});
  absl::StatusOr<Solution> s = Solve(game, {});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->stats.reachable, 5478u);
  EXPECT_EQ(s->stats.terminal, 958u);
  EXPECT_EQ(s->stats.x_wins, 626u);
  EXPECT_EQ(s->stats.o_wins, 316u);
  EXPECT_EQ(s->stats.full_draws, 16u);
  const Record start = s->records.view().Get(0);
  EXPECT_EQ(start.value, Value::kDraw);
  EXPECT_EQ(start.remoteness, 9);
  EXPECT_EQ(start.best_move, 0);
}

TEST(SolverTest, RefusesTooLargeGames) {
  const Game game = *Game::Create({4, 4, 4});
  SolveOptions options;
  options.max_bytes = 1 << 20;
  EXPECT_EQ(Solve(game, options).status().code(),
            absl::StatusCode::kResourceExhausted);
}

// Every reachable position of small boards, with and without gravity, and
// with one and two threads, agrees with live alpha-beta.
void ExpectMatchesSearch(const GameSpec& spec, int threads) {
  const Game game = *Game::Create(spec);
  absl::StatusOr<Solution> s = Solve(game, {threads});
  ASSERT_TRUE(s.ok()) << s.status();
  const RecordView view = s->records.view();
  uint64_t checked = 0;
  for (uint64_t i = 0; i < view.size; ++i) {
    const Record r = view.Get(i);
    const Position p = s->index.At(i);
    const bool valid = game.IsReachable(p);
    ASSERT_EQ(r.value != Value::kUnreachable, valid) << game.Format(p);
    if (!valid) continue;
    const SearchResult live = AlphaBeta(game, p);
    ASSERT_EQ(r.value, live.value) << game.Format(p);
    ASSERT_EQ(r.remoteness, live.remoteness) << game.Format(p);
    ++checked;
  }
  EXPECT_EQ(checked, s->stats.reachable);
}

TEST(SolverTest, SmallBoardsMatchSearch) {
  ExpectMatchesSearch({3, 3, 3}, 1);
  ExpectMatchesSearch({4, 3, 3}, 2);
  ExpectMatchesSearch({3, 3, 2}, 2);
  ExpectMatchesSearch({4, 3, 3, true}, 1);
  ExpectMatchesSearch({4, 4, 4, true}, 2);
}

}  // namespace
}  // namespace mnk
