#include "answer/play.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "answer/answer.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "rules/game/moves.h"

namespace mnk {
namespace {

std::unique_ptr<AnswerSource> Open(const GameSpec& spec) {
  absl::StatusOr<std::unique_ptr<AnswerSource>> source =
      AnswerSource::Open(spec, {});
  EXPECT_TRUE(source.ok()) << source.status();
  return *std::move(source);
}

// Every position a game of `game` reaches, the empty board first.
std::vector<Position> Reachable(const Game& game) {
  std::vector<Position> all = {Position()};
  absl::flat_hash_set<Position> seen = {Position()};
  for (size_t i = 0; i < all.size(); ++i) {
    for (int cell : game.LegalMoves(all[i])) {
      const Position next = Game::Play(all[i], cell);
      if (seen.insert(next).second) all.push_back(next);
    }
  }
  return all;
}

// The principal variation of every tic-tac-toe position (normal and
// misère) is as long as the table's remoteness, and ends the game with
// the table's value for the side to move.
TEST(PrincipalVariationTest, EveryTicTacToePositionReplaysToItsValue) {
  for (bool misere : {false, true}) {
    const auto source = Open(GameSpec{3, 3, 3, false, misere});
    const Game& game = source->game();
    int lines = 0;
    for (const Position& p : Reachable(game)) {
      const std::string text = game.Format(p);
      const Analysis a = *source->Answer(text);
      const Line pv = *PrincipalVariation(*source, text);
      ASSERT_TRUE(pv.complete);
      ASSERT_EQ(static_cast<int>(pv.cells.size()), a.record.remoteness) << text;
      Position end = p;
      for (int cell : pv.cells) end = *PlayMove(game, end, cell);
      const Winner w = WinnerOf(game, end);
      const Winner mover = p.side_to_move() == 0 ? Winner::kX : Winner::kO;
      const Winner other = mover == Winner::kX ? Winner::kO : Winner::kX;
      switch (a.record.value) {
        case Value::kWin:
          EXPECT_EQ(w, mover) << text;
          break;
        case Value::kLoss:
          EXPECT_EQ(w, other) << text;
          break;
        default:
          EXPECT_EQ(w, Winner::kDraw) << text;
      }
      ++lines;
    }
    EXPECT_EQ(lines, 5478);
  }
}

TEST(PrincipalVariationTest, ConnectFourFromTheBookAndPastTheLimit) {
  const auto c4 = Open(GameSpec{7, 6, 4, true});
  // The book holds the start: its first move is the centre column's cell.
  AnswerLimits none;
  none.max_nodes = 1;
  const Line cut =
      *PrincipalVariation(*c4, c4->game().Format(Position()), none);
  EXPECT_FALSE(cut.complete);
  ASSERT_FALSE(cut.cells.empty());
  EXPECT_EQ(cut.cells[0], 38);
  const Game& game = c4->game();
  const std::string late = game.Format(
      *FromMoves(game, "444444333335552222266666617771", Notation::kDigits));
  const Line pv = *PrincipalVariation(*c4, late);
  EXPECT_TRUE(pv.complete);
  const Analysis a = *c4->Answer(late);
  EXPECT_EQ(static_cast<int>(pv.cells.size()), a.record.remoteness);
}

TEST(PrincipalVariationTest, RefusesABadPosition) {
  const auto ttt = Open(GameSpec{});
  const absl::Status s = PrincipalVariation(*ttt, "XXXX").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FailureOf(s), AnswerFailure::kBadPosition);
  EXPECT_TRUE(PrincipalVariation(*ttt, "XXX/OO./...")->cells.empty());
}

// The tutorial's board: cell 4 wins at once (+10 - 1), cells 1 and 6 lose
// in two (-10 + 2); two plies down, O's replies.
TEST(GameTreeTest, TheSeedsScores) {
  const auto ttt = Open(GameSpec{});
  const TreeNode root = *GameTree(*ttt, "O.X/X.X/.OO", 2);
  EXPECT_EQ(root.value, Value::kWin);
  EXPECT_EQ(root.score, 9);
  EXPECT_EQ(root.sign, 1);
  ASSERT_EQ(root.children.size(), 3u);
  const std::vector<std::tuple<int, int, bool>> expected = {
      {1, -8, false}, {4, 9, true}, {6, -8, false}};
  for (size_t i = 0; i < 3; ++i) {
    const TreeNode& child = root.children[i];
    EXPECT_EQ(std::make_tuple(child.cell, child.score, child.best),
              expected[i]);
  }
  EXPECT_TRUE(root.children[1].children.empty());   // X won: the game is over
  ASSERT_EQ(root.children[0].children.size(), 2u);  // O's two replies
  EXPECT_EQ(GameTree(*ttt, "O.X/X.X/.OO", -1).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(GameTree(*ttt, ".../.../...", 9).status().message(),
            "the tree has more than 100000 nodes: ask for less depth");
}

// Minimax over the children's scores gives each position's own score, and
// its best child has it, in every tic-tac-toe position.
TEST(GameTreeTest, MinimaxOfTheChildrenIsTheScore) {
  const auto ttt = Open(GameSpec{});
  for (const Position& p : Reachable(ttt->game())) {
    const TreeNode root = *GameTree(*ttt, ttt->game().Format(p), 1);
    if (root.children.empty()) continue;
    int best = -100;
    for (const TreeNode& child : root.children) {
      best = std::max(best, child.score);
      if (child.best) {
        EXPECT_EQ(child.score, root.score);
      }
    }
    EXPECT_EQ(best, root.score) << ttt->game().Format(p);
  }
}

TEST(LevelTest, TemperaturesAndChecks) {
  EXPECT_TRUE(std::isinf(Temperature(1)));
  EXPECT_DOUBLE_EQ(Temperature(2), 4);
  EXPECT_DOUBLE_EQ(Temperature(3), 2.5);
  EXPECT_NEAR(Temperature(9), 0.149, 0.001);
  EXPECT_EQ(Temperature(10), 0);
  EXPECT_EQ(CheckLevel(0, "--level").message(),
            "--level 0: expected a level from 1 (random) to 10 (perfect)");
  EXPECT_TRUE(CheckLevel(10, "level").ok());
  const auto ttt = Open(GameSpec{});
  Level bad;
  bad.level = 11;
  EXPECT_EQ(Choose(*ttt, ".../.../...", bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Choose(*ttt, "XXX/OO./...", Level()).status().message(),
            "position 'XXX/OO./...': the game is over, so there is no move");
}

// Level 10 plays the table's best move; with vary, any equally good move
// (at the start of tic-tac-toe every move draws in 9: all nine); with a
// seed, the same one every time.
TEST(LevelTest, PerfectPlayKeepsTheValue) {
  const auto ttt = Open(GameSpec{});
  for (const Position& p : Reachable(ttt->game())) {
    if (ttt->game().IsTerminal(p)) continue;
    const Analysis a = *ttt->Answer(p);
    EXPECT_EQ(ChooseMove(a, Level()), a.record.best_move);
    Level vary;
    vary.vary = true;
    const int cell = ChooseMove(a, vary);
    for (const MoveEval& m : a.moves) {
      if (m.cell == cell) {
        EXPECT_EQ(m.value, a.record.value);
        EXPECT_EQ(m.remoteness, a.record.remoteness);
      }
    }
  }
  std::set<int> openings;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Level vary;
    vary.vary = true;
    vary.seed = seed;
    const int cell = *Choose(*ttt, ".../.../...", vary);
    EXPECT_EQ(*Choose(*ttt, ".../.../...", vary), cell);
    openings.insert(cell);
  }
  EXPECT_EQ(openings.size(), 9u);
}

// Level 1 is uniform: 9,000 seeds at the start give each cell about 1,000
// times; a middle level prefers the better moves.
TEST(LevelTest, RandomIsUniformAndMiddleLevelsPreferBetterMoves) {
  const auto ttt = Open(GameSpec{});
  std::map<int, int> counts;
  Level random;
  random.level = 1;
  for (uint64_t seed = 0; seed < 9000; ++seed) {
    random.seed = seed;
    ++counts[*Choose(*ttt, ".../.../...", random)];
  }
  ASSERT_EQ(counts.size(), 9u);
  for (const auto& [cell, n] : counts) {
    EXPECT_GT(n, 850) << cell;
    EXPECT_LT(n, 1150) << cell;
  }
  // X to move at "XO./.../...": cells 3, 4 and 6 win; the others draw.
  const Analysis a = *ttt->Answer("XO./.../...");
  std::set<int> winning;
  for (const MoveEval& m : a.moves) {
    if (m.value == Value::kWin) {
      winning.insert(m.cell);
    } else {
      EXPECT_EQ(m.value, Value::kDraw);
    }
  }
  EXPECT_EQ(winning, (std::set<int>{3, 4, 6}));
  int wins = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    Level mid;
    mid.level = 6;
    mid.seed = seed;
    const int cell = ChooseMove(a, mid);
    for (const MoveEval& m : a.moves) {
      if (m.cell == cell && m.value == Value::kWin) ++wins;
    }
  }
  // Each win has weight 1, each of the 4 draws exp(-0.99 / 0.61) = 0.197:
  // 3 / 3.79 = 79% wins; these 1,000 seeds draw 799.
  EXPECT_EQ(wins, 799);
}

}  // namespace
}  // namespace mnk
