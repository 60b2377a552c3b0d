// The live searches on boards past 32 cells: late positions of Connect-style
// 6x6, 7x5 and 7x6 and of 8,8,5, where plain minimax, alpha-beta and
// alpha-beta with a transposition table must agree.
#include "search/search.h"

#include <cstdint>
#include <random>
#include <utility>

#include "absl/numeric/bits.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"

namespace mnk {
namespace {

// A position with `empty` empty cells reached by random legal play (a game
// that ends before is played again).
Position LatePosition(const Game& game, int empty, std::mt19937_64& random) {
  for (;;) {
    Position p;
    while (game.cells() - p.stones() > empty && !game.IsTerminal(p)) {
      const Mask legal = game.LegalMask(p);
      int pick = static_cast<int>(random() % absl::popcount(legal));
      Mask s = legal;
      while (pick-- > 0) s &= s - 1;
      p = Game::Play(p, absl::countr_zero(s));
    }
    if (!game.IsTerminal(p)) return p;
  }
}

TEST(SearchTest, WinInOneOnConnectFour) {
  const Game game = *Game::Create({7, 6, 4, true});
  // X has three on the bottom row (cells 35 to 37) and plays the fourth.
  const Position p =
      *game.Parse("......./......./......./......./OOO..../XXX....");
  // (Plain alpha-beta and minimax would search the whole game tree from
  // this early position: the cached search tries winning moves first.)
  AlphaBetaSearch search(game, 10);
  const SearchResult r = search.Search(p);
  EXPECT_EQ(r.value, Value::kWin);
  EXPECT_EQ(r.remoteness, 1);
}

TEST(SearchTest, SearchesAgreePastThirtyTwoCells) {
  std::mt19937_64 random(2026);
  const GameSpec specs[] = {
      {6, 6, 4, true}, {7, 5, 4, true}, {7, 6, 4, true}, {8, 8, 5, false}};
  for (const GameSpec& spec : specs) {
    const Game game = *Game::Create(spec);
    AlphaBetaSearch cached(game, 16);
    int decided = 0;
    for (int trial = 0; trial < 30; ++trial) {
      const Position p = LatePosition(game, spec.gravity ? 9 : 7, random);
      const SearchResult plain = AlphaBeta(game, p);
      const SearchResult with_table = cached.Search(p);
      ASSERT_EQ(plain.value, with_table.value) << game.Format(p);
      ASSERT_EQ(plain.remoteness, with_table.remoteness) << game.Format(p);
      const int minimax = Minimax(game, p);
      ASSERT_EQ(minimax, plain.value == Value::kWin    ? 1
                         : plain.value == Value::kDraw ? 0
                                                       : -1)
          << game.Format(p);
      decided += plain.value != Value::kDraw;
    }
    // Late positions of these boards are mostly decided: the searches were
    // compared on wins and losses, not only on draws.
    EXPECT_GT(decided, 5) << spec.Name();
  }
}

}  // namespace
}  // namespace mnk
