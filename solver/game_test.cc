#include "solver/game.h"

#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace mnk {
namespace {

Game MakeGame(int m, int n, int k, bool gravity = false) {
  absl::StatusOr<Game> game = Game::Create({m, n, k, gravity});
  EXPECT_TRUE(game.ok()) << game.status();
  return *game;
}

TEST(GameSpecTest, Names) {
  EXPECT_EQ(GameSpec().Name(), "3,3,3");
  EXPECT_EQ((GameSpec{7, 6, 4, true}).Name(), "7,6,4 gravity");
  EXPECT_EQ((GameSpec{7, 6, 4, true}).FileStem(), "7x6k4g");
}

TEST(GameTest, CreateRejectsBadParameters) {
  EXPECT_EQ(Game::Create({0, 3, 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Game::Create({3, 3, 4}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Game::Create({3, 3, 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Game::Create({5, 5, 4}).status().code(),
            absl::StatusCode::kInvalidArgument);  // 25 cells, no gravity
  EXPECT_TRUE(Game::Create({5, 5, 4, true}).ok());
  EXPECT_EQ(Game::Create({7, 6, 4, true}).status().code(),
            absl::StatusCode::kInvalidArgument);  // 42 cells
  EXPECT_TRUE(Game::Create({20, 1, 3}).ok());
}

TEST(GameTest, LinesInEveryDirection) {
  const Game game = MakeGame(3, 3, 3);
  for (uint32_t line :
       {0007u, 0070u, 0700u, 0111u, 0222u, 0444u, 0421u, 0124u}) {
    EXPECT_TRUE(game.HasLine(line)) << line;
  }
  // Wrapping rows or columns is no line.
  EXPECT_FALSE(game.HasLine(0b000011100));  // cells 2, 3, 4
  EXPECT_FALSE(game.HasLine(0b001010001));  // cells 0, 4, 6
  EXPECT_FALSE(game.HasLine(0b011010000));  // 4, 6, 7
}

TEST(GameTest, LinesOnRectangularBoards) {
  const Game game = MakeGame(5, 4, 4);
  // Cells: row r, column c is 5r + c.
  auto mask = [](std::vector<int> cells) {
    uint32_t m = 0;
    for (int c : cells) m |= 1u << c;
    return m;
  };
  EXPECT_TRUE(game.HasLine(mask({1, 2, 3, 4})));
  EXPECT_FALSE(game.HasLine(mask({3, 4, 5, 6})));  // wraps
  EXPECT_TRUE(game.HasLine(mask({2, 7, 12, 17})));
  EXPECT_TRUE(game.HasLine(mask({1, 7, 13, 19})));
  EXPECT_TRUE(game.HasLine(mask({3, 7, 11, 15})));
  EXPECT_TRUE(game.HasLine(mask({4, 8, 12, 16})));
  EXPECT_FALSE(game.HasLine(mask({5, 9, 13, 17})));  // wraps
  EXPECT_FALSE(game.HasLine(mask({0, 6, 12})));
}

// Found by fuzzing: on one-row and one-column boards the directions with no
// line used to shift the mask past its width (undefined behaviour).
TEST(GameTest, LinesOnOneRowAndOneColumnBoards) {
  const Game row = MakeGame(20, 1, 3);
  EXPECT_TRUE(row.HasLine(0b111u << 17));
  EXPECT_FALSE(row.HasLine(0b1101101101u));
  const Game column = MakeGame(1, 30, 30, /*gravity=*/true);
  EXPECT_TRUE(column.HasLine((1u << 30) - 1));
  EXPECT_FALSE(column.HasLine((1u << 29) - 1));
  const Game wide = MakeGame(30, 1, 2, /*gravity=*/true);
  EXPECT_TRUE(wide.HasLine(0b11u << 28));
  EXPECT_FALSE(wide.HasLine(0x15555555u));
}

TEST(GameTest, ParsesAndFormats) {
  const Game game = MakeGame(3, 3, 3);
  absl::StatusOr<Position> p = game.Parse("X.O/X.X/OO.");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->x, 0b000101001u);
  EXPECT_EQ(p->o, 0b011000100u);
  EXPECT_EQ(p->side_to_move(), 0);
  EXPECT_EQ(game.Format(*p), "X.O/X.X/OO.");
  absl::StatusOr<Position> same = game.Parse("x.oX.xOO.");
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, *p);
  EXPECT_EQ(game.LegalMoves(*p), (std::vector<int>{1, 4, 8}));
}

TEST(GameTest, ParseErrorsNameTheProblem) {
  const Game game = MakeGame(3, 3, 3);
  struct Case {
    const char* text;
    const char* message_part;
  };
  for (const Case& c : std::vector<Case>{
           {"X.O/X.X/OO", "has 8 cells"},
           {"X.O/X.X/OO..", "more than 9 cells"},
           {"", "has 0 cells"},
           {"X.O/X?X/OO.", "unknown character '?' at character 6"},
           {"X.O/X X/OO.", "unknown character byte 0x20"},
           {"X.OX/.X/OO.", "not between two rows"},
           {"/X.OX.XOO.", "not between two rows"},
           {"X.O//X.XOO.", "not between two rows"},
           {"XXX/.../...", "impossible piece counts: X has 3 and O has 0"},
           {"OO./.../...", "impossible piece counts"},
           {"XXX/OOO/...", "both players have 3 in a row"},
           {"XXX/OO./O..", "X has 3 in a row but O moved after it"},
       }) {
    absl::StatusOr<Position> p = game.Parse(c.text);
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_NE(p.status().message().find(c.message_part), std::string::npos)
        << c.text << ": " << p.status();
  }
  // A winning last move that made two lines at once is fine.
  EXPECT_TRUE(game.Parse("XXX/OXO/OOX").ok());
  // Two lines without a common stone cannot come from one last move.
  const Game wide = MakeGame(5, 4, 3);
  absl::StatusOr<Position> two_lines = wide.Parse("XXX../OO.O./XXX../O...O");
  EXPECT_EQ(two_lines.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(two_lines.status().message().find("no single last move"),
            std::string::npos)
      << two_lines.status();
  // Very long input is refused before it is read.
  EXPECT_EQ(game.Parse(std::string(100000, 'X')).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GameTest, Gravity) {
  const Game game = MakeGame(4, 4, 4, /*gravity=*/true);
  absl::StatusOr<Position> p = game.Parse("..../..../.X../OX..");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(game.LegalMoves(*p), (std::vector<int>{5, 8, 14, 15}));
  EXPECT_EQ(*game.DropCell(*p, 1), 5);
  EXPECT_EQ(*game.DropCell(*p, 3), 15);
  EXPECT_EQ(game.DropCell(*p, 4).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<Position> full_column = game.Parse("O.../X.../O.../X...");
  ASSERT_TRUE(full_column.ok()) << full_column.status();
  EXPECT_EQ(game.DropCell(*full_column, 0).status().code(),
            absl::StatusCode::kFailedPrecondition);

  EXPECT_NE(
      game.Parse("..../.X../..../O...").status().message().find("floating"),
      std::string::npos);
  // Counts and support are fine, but O is under X in the only column: X
  // must have played first.
  absl::StatusOr<Position> unreachable = game.Parse("..../..../X.../O...");
  EXPECT_EQ(unreachable.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unreachable.status().message().find("no order of moves"),
            std::string::npos);
  EXPECT_TRUE(game.Parse("..../..../O.../X...").ok());
}

}  // namespace
}  // namespace mnk
