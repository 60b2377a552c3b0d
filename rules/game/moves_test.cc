#include "rules/game/moves.h"

#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"

namespace mnk {
namespace {

using ::absl::StatusCode;

const Game& TicTacToe() {
  static const Game* game = new Game(*Game::Create({3, 3, 3}));
  return *game;
}
const Game& ConnectFour() {
  static const Game* game = new Game(*Game::Create({7, 6, 4, true}));
  return *game;
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(PlayMoveTest, PlaysALegalCellAndRefusesTheRest) {
  const Game& ttt = TicTacToe();
  const Position start;
  EXPECT_EQ(ttt.Format(*PlayMove(ttt, start, 4)), ".../.X./...");
  EXPECT_EQ(Message(PlayMove(ttt, start, 9).status()),
            "cell 9 is off the board: expected 0 to 8");
  EXPECT_EQ(Message(PlayMove(ttt, start, -1).status()),
            "cell -1 is off the board: expected 0 to 8");
  const Position x4 = *ttt.Parse(".../.X./...");
  EXPECT_EQ(Message(PlayMove(ttt, x4, 4).status()), "cell 4 is taken");
  const Position won = *ttt.Parse("XXX/OO./...");
  EXPECT_EQ(PlayMove(ttt, won, 8).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Message(PlayMove(ttt, won, 8).status()),
            "the game is over (X won): no move is legal");
  const Position full = *ttt.Parse("XOX/XOO/OXX");
  EXPECT_EQ(Message(PlayMove(ttt, full, 0).status()),
            "the game is over (a draw): no move is legal");
}

TEST(PlayMoveTest, GravityTakesTheLowestCellOrItsColumn) {
  const Game& c4 = ConnectFour();
  const Position start;
  EXPECT_EQ(*PlayMove(c4, start, 38), *PlayColumn(c4, start, 3));
  EXPECT_EQ(Message(PlayMove(c4, start, 31).status()),
            "cell 31 is not playable: with gravity a stone goes to the lowest "
            "empty cell of its column (column 3's is cell 38)");
  EXPECT_EQ(Message(PlayColumn(c4, start, 7).status()),
            "column 7 is off the board: expected 0 to 6");
  const Position full_column = *FromMoves(c4, "444444", Notation::kDigits);
  EXPECT_EQ(Message(PlayColumn(c4, full_column, 3).status()),
            "column 3 is full");
  EXPECT_EQ(Message(PlayColumn(TicTacToe(), start, 0).status()),
            "the columns notation names moves by column, which only a game "
            "with gravity does: give cells");
}

TEST(BoardOrderTest, ColumnsLeftToRightWithGravity) {
  const Game& c4 = ConnectFour();
  const Position p = *FromMoves(c4, "4453", Notation::kDigits);
  EXPECT_EQ(c4.LegalMoves(p), (std::vector<int>{24, 30, 32, 35, 36, 40, 41}));
  EXPECT_EQ(BoardOrderMoves(c4, p),
            (std::vector<int>{35, 36, 30, 24, 32, 40, 41}));
  EXPECT_EQ(BoardOrderMoves(TicTacToe(), *TicTacToe().Parse("X../.O./...")),
            (std::vector<int>{1, 2, 3, 5, 6, 7, 8}));
  EXPECT_EQ(Message(ReadPosition(TicTacToe(), "X\x01").status()),
            "position 'X\\x01': unknown character byte 0x01 at character 2: "
            "expected 'X', 'O', '.' or '/'");
}

TEST(WinnerTest, NamesWhoWonNormalAndMisere) {
  const Game& ttt = TicTacToe();
  const Game misere = *Game::Create({3, 3, 3, false, true});
  EXPECT_EQ(WinnerOf(ttt, *ttt.Parse("XXX/OO./...")), Winner::kX);
  EXPECT_EQ(WinnerOf(misere, *misere.Parse("XXX/OO./...")), Winner::kO);
  EXPECT_EQ(WinnerOf(ttt, *ttt.Parse("OOO/XX./..X")), Winner::kO);
  EXPECT_EQ(WinnerOf(ttt, *ttt.Parse("XOX/XOO/OXX")), Winner::kDraw);
  EXPECT_EQ(WinnerOf(ttt, *ttt.Parse("X../.../...")), Winner::kNone);
  EXPECT_EQ(WinnerName(Winner::kDraw), "draw");
  EXPECT_EQ(WinnerName(Winner::kNone), "none");
}

TEST(FromMovesTest, ReadsEachNotation) {
  const Game& c4 = ConnectFour();
  const Position digits = *FromMoves(c4, "4453", Notation::kDigits);
  EXPECT_EQ(c4.Format(digits),
            "......./......./......./......./...O.../..OXX..");
  EXPECT_EQ(*FromMoves(c4, "3 3 4 2", Notation::kColumns), digits);
  EXPECT_EQ(*FromMoves(c4, "38,31, 39 37", Notation::kCells), digits);
  EXPECT_EQ(*FromMoves(c4, "", Notation::kDigits), Position());
  const Game& ttt = TicTacToe();
  EXPECT_EQ(ttt.Format(*FromCells(ttt, {4, 0, 8})), "O../.X./..X");
}

TEST(FromMovesTest, NamesTheBadMove) {
  const Game& c4 = ConnectFour();
  EXPECT_EQ(Message(FromMoves(c4, "4483", Notation::kDigits).status()),
            "move 3 is '8': expected a column from 1 to 7");
  EXPECT_EQ(Message(FromMoves(c4, "4444444", Notation::kDigits).status()),
            "move 7 (column 4, counted from 1): column 3 is full");
  EXPECT_EQ(Message(FromMoves(c4, "3 x", Notation::kColumns).status()),
            "move 2 is 'x': expected a column number");
  const Game& ttt = TicTacToe();
  EXPECT_EQ(Message(FromMoves(ttt, "4 4", Notation::kCells).status()),
            "move 2 (cell 4): cell 4 is taken");
  EXPECT_EQ(Message(FromMoves(ttt, "0 3 1 4 2 5", Notation::kCells).status()),
            "move 6 (cell 5): the game is over (X won): no move is legal");
  EXPECT_EQ(Message(FromMoves(ttt, "-1", Notation::kCells).status()),
            "move 1 is '-1': expected a cell number");
  EXPECT_EQ(Message(FromMoves(ttt, "123", Notation::kDigits).status()),
            "the digits notation names moves by column, which only a game "
            "with gravity does: give cells");
  EXPECT_EQ(Message(NotationNamed("pons").status()),
            "notation 'pons': expected cells, columns or digits");
  EXPECT_EQ(*NotationNamed("digits"), Notation::kDigits);
}

// ToMoves gives a sequence that FromMoves turns back into the position, on
// random positions of random games, with and without gravity, each notation.
TEST(ToMovesTest, RoundTripsRandomGames) {
  std::mt19937 rng(7);
  for (const Game* game : {&TicTacToe(), &ConnectFour()}) {
    for (int trial = 0; trial < 300; ++trial) {
      Position p;
      const int plies = static_cast<int>(rng() % (game->cells() + 1));
      for (int ply = 0; ply < plies; ++ply) {
        const std::vector<int> moves = game->LegalMoves(p);
        if (moves.empty()) break;
        p = Game::Play(p, moves[rng() % moves.size()]);
      }
      for (Notation n :
           {Notation::kCells, Notation::kColumns, Notation::kDigits}) {
        if (n != Notation::kCells && !game->spec().gravity) continue;
        const absl::StatusOr<std::string> text = ToMoves(*game, p, n);
        ASSERT_TRUE(text.ok()) << text.status();
        EXPECT_EQ(*FromMoves(*game, *text, n), p) << *text;
      }
    }
  }
  EXPECT_EQ(*ToMoves(TicTacToe(), Position(), Notation::kCells), "");
  // X's line made by its last stone, cell 2, comes last.
  EXPECT_EQ(*ToMoves(TicTacToe(), *TicTacToe().Parse("XXX/OO./..."),
                     Notation::kCells),
            "0 3 1 4 2");
  EXPECT_EQ(ToMoves(TicTacToe(), Position{0b111, 0b111000000}, Notation::kCells)
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mnk
