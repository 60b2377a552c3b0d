// The m,n,k family, solved in-process: published values and counts, every
// board of up to 12 cells checked position by position against live
// alpha-beta, larger boards on 100,000 random reachable positions.
#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "search/search.h"
#include "solver/retrograde/solver.h"
#include "tests/family_checks.h"
#include "tests/small_boards.h"

namespace mnk {
namespace {

// Every reachable record equals live alpha-beta (plain below 10 cells, with
// a transposition table above), and the reachable count equals a
// depth-first enumeration from the empty board: the normal game and misère.
void CheckSmallBoardsAgainstSearch(bool misere) {
  uint64_t positions = 0;
  SmallBoardFilter filter;
  filter.normal = !misere;
  filter.misere = misere;
  const std::vector<GameSpec> boards = SmallBoards(filter);
  for (const GameSpec& spec : boards) {
    SCOPED_TRACE(spec.Name());
    const Solution& s = SolvedSmallBoard(spec);
    ASSERT_EQ(s.stats.reachable, EnumerateReachable(s.game));
    positions += CheckAllAgainstSearch(s);
  }
  EXPECT_EQ(boards.size(), 408u);
  std::printf("checked %zu boards, %llu positions\n", boards.size(),
              static_cast<unsigned long long>(positions));
}

TEST(FamilyTest, EveryBoardUpTo12CellsMatchesLiveSearch) {
  CheckSmallBoardsAgainstSearch(/*misere=*/false);
}

TEST(FamilyTest, EveryMisereBoardUpTo12CellsMatchesLiveSearch) {
  CheckSmallBoardsAgainstSearch(/*misere=*/true);
}

// The naive solver, which shares nothing with the solver: the set of reachable
// positions and every record, normal and misère, on every small board.
TEST(FamilyTest, EveryBoardUpTo12CellsMatchesTheNaiveSolver) {
  uint64_t positions = 0;
  int boards = 0;
  for (const GameSpec& spec : SmallBoards()) {
    SCOPED_TRACE(spec.Name());
    positions += CheckAgainstOracle(SolvedSmallBoard(spec));
    ++boards;
  }
  EXPECT_EQ(boards, 816);
  // Normal and misère reach the same positions: play stops at the first
  // line either way.
  EXPECT_EQ(positions, 2 * 8336004u);
}

// Published: misère tic-tac-toe is a draw, and the centre is the first
// player's only opening move that does not lose.
TEST(FamilyTest, MisereTicTacToe) {
  const Game game = *Game::Create({3, 3, 3, false, /*misere=*/true});
  absl::StatusOr<Solution> s = Solve(game, {2});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->stats.start_value, Value::kDraw);
  EXPECT_EQ(s->stats.reachable, 5478u);
  const PositionIndex& index = s->index;
  const RecordView view = s->records().view();
  EXPECT_EQ(view.Get(0).best_move, 4);
  for (int cell = 0; cell < 9; ++cell) {
    const Record r = view.Get(index.Index(Game::Play(Position{}, cell)));
    EXPECT_EQ(Negate(r.value), cell == 4 ? Value::kDraw : Value::kLoss)
        << "X opens on cell " << cell;
  }
}

struct Published {
  GameSpec spec;
  Value start;         // for the first player
  uint64_t reachable;  // 0: not published
};

// Published values: m,n,k-games (3,3,3 draw; 4,3,3 and 4,4,3 first-player
// wins; 4,4,4 draw) and Connect-style 4x4 (Tromp: 161,029 positions, draw).
TEST(FamilyTest, PublishedValues) {
  for (const Published& p : std::vector<Published>{
           {{3, 3, 3}, Value::kDraw, 5478},
           {{4, 3, 3}, Value::kWin, 0},
           {{4, 4, 3}, Value::kWin, 0},
           {{4, 4, 4}, Value::kDraw, 9722011},
           {{4, 4, 4, true}, Value::kDraw, 161029},
       }) {
    const Game game = *Game::Create(p.spec);
    SCOPED_TRACE(game.spec().Name());
    absl::StatusOr<Solution> s = Solve(game, {2});
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->records().view().Get(0).value, p.start);
    if (p.reachable != 0) {
      EXPECT_EQ(s->stats.reachable, p.reachable);
    }
  }
}

// 4,4,4 has 16 cells: its count against enumeration, and 100,000 random
// reachable positions against alpha-beta with a transposition table.
TEST(FamilyTest, FourByFourAgainstSearch) {
  const Game game = *Game::Create({4, 4, 4});
  absl::StatusOr<Solution> s = Solve(game, {2});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(EnumerateReachable(game), 9722011u);
  EXPECT_EQ(CheckRandomAgainstSearch(*s, 100000, /*seed=*/44), 100000u);
}

// Forward marking (used with gravity) and the local test (used without)
// agree on which positions are reachable.
TEST(FamilyTest, ForwardMarkingAgreesWithLocalTest) {
  for (const GameSpec& spec :
       std::vector<GameSpec>{{4, 4, 3}, {5, 3, 3}, {3, 4, 3}, {4, 4, 4}}) {
    const Game game = *Game::Create(spec);
    SolveOptions options;
    absl::StatusOr<Solution> local = Solve(game, options);
    options.forward_reachability = true;
    absl::StatusOr<Solution> forward = Solve(game, options);
    ASSERT_TRUE(local.ok() && forward.ok());
    EXPECT_EQ(local->stats.reachable, forward->stats.reachable);
    EXPECT_EQ(local->stats.per_ply, forward->stats.per_ply);
    const RecordView a = local->records().view(), b = forward->records().view();
    for (uint64_t i = 0; i < a.size; ++i) {
      ASSERT_EQ(a.Get(i), b.Get(i)) << game.Format(local->index.At(i));
    }
  }
}

}  // namespace
}  // namespace mnk

namespace mnk {
namespace {

// The seam's symmetries are symmetries of the game: every reachable position
// and each of its images have the same value and remoteness (and the image
// is reachable too), on square, rectangular, gravity and misère boards.
TEST(FamilyTest, SymmetricPositionsHaveTheSameRecord) {
  for (const GameSpec& spec :
       {GameSpec{3, 3, 3}, GameSpec{4, 3, 3}, GameSpec{4, 4, 4, true},
        GameSpec{3, 3, 3, false, true}, GameSpec{5, 2, 3}}) {
    const Game game = *Game::Create(spec);
    SCOPED_TRACE(spec.Name());
    absl::StatusOr<Solution> s = Solve(game, {2});
    ASSERT_TRUE(s.ok()) << s.status();
    const RecordView view = s->records().view();
    uint64_t images = 0;
    for (uint64_t i = 0; i < view.size; ++i) {
      const Record r = view.Get(i);
      if (r.value == Value::kUnreachable) continue;
      const Position p = s->index.At(i);
      for (const Symmetry& sym : game.symmetries()) {
        const Record image = view.Get(s->index.Index(game.Transform(p, sym)));
        ASSERT_EQ(image.value, r.value) << game.Format(p);
        ASSERT_EQ(image.remoteness, r.remoteness) << game.Format(p);
        ++images;
      }
    }
    EXPECT_EQ(images, s->stats.reachable * game.symmetries().size());
  }
}

}  // namespace
}  // namespace mnk
