// The built tic-tac-toe table against independent search, published counts
// and the seed tutorials' examples.
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "search/search.h"
#include "table/table.h"
#include "tests/family_checks.h"
#include "tests/test_tables.h"

namespace mnk {
namespace {

class TicTacToeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<Table> table = LoadBuiltTable("3x3k3.mnk");
    ASSERT_TRUE(table.ok()) << table.status();
    table_ = new Table(*std::move(table));
  }
  static void TearDownTestSuite() { delete table_; }

  const Game& game() const { return table_->game(); }
  Record Probe(absl::string_view text) const {
    absl::StatusOr<Position> p = game().Parse(text);
    EXPECT_TRUE(p.ok()) << p.status();
    absl::StatusOr<Record> r = table_->Probe(*p);
    EXPECT_TRUE(r.ok()) << r.status();
    return *r;
  }

  static Table* table_;
};
Table* TicTacToeTest::table_ = nullptr;

// Every position reachable from the empty board, found by a plain
// depth-first walk with a set (independent of the solver's index).
absl::flat_hash_set<Position> Enumerate(const Game& game) {
  absl::flat_hash_set<Position> seen;
  std::vector<Position> stack = {Position{}};
  seen.insert(Position{});
  while (!stack.empty()) {
    const Position p = stack.back();
    stack.pop_back();
    for (int cell : game.LegalMoves(p)) {
      const Position child = Game::Play(p, cell);
      if (seen.insert(child).second) stack.push_back(child);
    }
  }
  return seen;
}

TEST_F(TicTacToeTest, PublishedCounts) {
  const absl::flat_hash_set<Position> all = Enumerate(game());
  EXPECT_EQ(all.size(), 5478u);
  EXPECT_EQ(table_->reachable(), 5478u);
  std::vector<int> per_ply(10, 0);
  int terminal = 0, x_wins = 0, o_wins = 0, draws = 0;
  for (const Position& p : all) {
    ++per_ply[p.stones()];
    if (!game().IsTerminal(p)) continue;
    ++terminal;
    if (game().HasLine(p.x)) {
      ++x_wins;
    } else if (game().HasLine(p.o)) {
      ++o_wins;
    } else {
      ++draws;
    }
  }
  EXPECT_EQ(per_ply,
            (std::vector<int>{1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78}));
  EXPECT_EQ(terminal, 958);
  EXPECT_EQ(x_wins, 626);
  EXPECT_EQ(o_wins, 316);
  EXPECT_EQ(draws, 16);
  // The table marks exactly these positions reachable.
  int marked = 0;
  for (uint64_t i = 0; i < table_->index().size(); ++i) {
    const bool reachable = table_->view().GetValue(i) != Value::kUnreachable;
    marked += reachable;
    EXPECT_EQ(reachable, all.contains(table_->index().At(i))) << i;
  }
  EXPECT_EQ(marked, 5478);
}

// Plain alpha-beta, as a callable for PolicyMoveBySearch.
SearchResult PlainSearch(const Game& game, const Position& p) {
  return AlphaBeta(game, p);
}

TEST_F(TicTacToeTest, EveryPositionMatchesLiveSearch) {
  auto search = [&](const Position& p) { return PlainSearch(game(), p); };
  int checked = 0;
  for (const Position& p : Enumerate(game())) {
    const std::string text = game().Format(p);
    absl::StatusOr<Record> r = table_->Probe(p);
    ASSERT_TRUE(r.ok()) << text << ": " << r.status();
    const SearchResult live = AlphaBeta(game(), p);
    ASSERT_EQ(r->value, live.value) << text;
    ASSERT_EQ(r->remoteness, live.remoteness) << text;
    const int minimax = Minimax(game(), p);
    ASSERT_EQ(r->value, minimax > 0    ? Value::kWin
                        : minimax == 0 ? Value::kDraw
                                       : Value::kLoss)
        << text;
    // The stored move is the policy's choice among live-searched children:
    // best value, fastest win / slowest loss, lowest cell.
    ASSERT_EQ(r->best_move, PolicyMoveBySearch(game(), p, search)) << text;
    ++checked;
  }
  EXPECT_EQ(checked, 5478);
}

TEST_F(TicTacToeTest, SeedExamples) {
  // freeCodeCamp: ["X", 1, "O", "X", 4, "X", "O", "O", 8], X to move plays
  // the centre and wins.
  EXPECT_EQ(Probe("X.OX.XOO."), (Record{Value::kWin, 1, 4}));
  // DataCamp: X 0, O 1 -> get_best_move() == 3; then X 3, O 4 -> 6.
  EXPECT_EQ(Probe("XO......."), (Record{Value::kWin, 5, 3}));
  EXPECT_EQ(Probe("XO.XO...."), (Record{Value::kWin, 1, 6}));
  // HE-Arc report: the first move is the top-left corner (all draw).
  EXPECT_EQ(Probe("........."), (Record{Value::kDraw, 9, 0}));
  // After X in a corner, the centre is O's only drawing reply.
  for (const char* corner :
       {"X........", "..X......", "......X..", "........X"}) {
    const Position p = *game().Parse(corner);
    EXPECT_EQ(Probe(corner).best_move, 4) << corner;
    for (int cell : game().LegalMoves(p)) {
      const Record child = *table_->Probe(Game::Play(p, cell));
      EXPECT_EQ(child.value == Value::kDraw, cell == 4) << corner << cell;
    }
  }
}

// Every sequence of the person's moves against an opponent that plays
// choose(p): counts games by outcome for the person, {win, draw, loss}.
template <typename Choose>
void PlayAll(const Game& game, const Position& p, int opponent_side,
             Choose& choose, std::vector<int>* outcomes) {
  if (game.IsTerminal(p)) {
    const bool line = game.HasLine(p.last_mover());
    const bool opponent_won = line && p.side_to_move() != opponent_side;
    ++(*outcomes)[!line ? 1 : opponent_won ? 2 : 0];
    return;
  }
  if (p.side_to_move() == opponent_side) {
    PlayAll(game, Game::Play(p, choose(p)), opponent_side, choose, outcomes);
    return;
  }
  for (int cell : game.LegalMoves(p)) {
    PlayAll(game, Game::Play(p, cell), opponent_side, choose, outcomes);
  }
}

TEST_F(TicTacToeTest, NeverLoses) {
  auto search = [&](const Position& p) { return PlainSearch(game(), p); };
  auto from_table = [&](const Position& p) {
    return table_->Probe(p)->best_move;
  };
  // The same policy by live search: the games must be the very same.
  auto from_search = [&](const Position& p) {
    return PolicyMoveBySearch(game(), p, search);
  };
  for (int side : {0, 1}) {
    std::vector<int> table_games(3, 0), search_games(3, 0);
    PlayAll(game(), Position{}, side, from_table, &table_games);
    PlayAll(game(), Position{}, side, from_search, &search_games);
    EXPECT_EQ(table_games[0], 0) << "the person won a game, side " << side;
    EXPECT_EQ(table_games, search_games) << side;
  }
  // As X the table allows the person 73 different games (2 draws, 71
  // losses); as O, 569 (183 draws, 386 losses).
  std::vector<int> as_x(3, 0), as_o(3, 0);
  PlayAll(game(), Position{}, 0, from_table, &as_x);
  PlayAll(game(), Position{}, 1, from_table, &as_o);
  EXPECT_EQ(as_x, (std::vector<int>{0, 2, 71}));
  EXPECT_EQ(as_o, (std::vector<int>{0, 183, 386}));
}

}  // namespace
}  // namespace mnk
