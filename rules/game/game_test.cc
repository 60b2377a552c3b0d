#include "rules/game/game.h"

#include <algorithm>
#include <optional>
#include <string>
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
  EXPECT_EQ((GameSpec{3, 3, 3, false, true}).Name(), "3,3,3 mis\xc3\xa8re");
  EXPECT_EQ(GameSpec().Title(), "Tic-tac-toe");
  EXPECT_EQ((GameSpec{3, 3, 3, false, true}).Title(),
            "Mis\xc3\xa8re tic-tac-toe");
  EXPECT_EQ((GameSpec{7, 6, 4, true}).Title(), "Connect Four");
  EXPECT_EQ((GameSpec{6, 6, 4, true}).Title(), "Connect-style 6x6");
  EXPECT_EQ((GameSpec{5, 5, 4}).Title(), "5,5,4: four in a row on 5x5");
  EXPECT_EQ((GameSpec{4, 4, 3, false, true}).Title(),
            "4,4,3 mis\xc3\xa8re: three in a row loses, on 4x4");
  EXPECT_EQ((GameSpec{4, 4, 4, true, true}).Title(),
            "4,4,4 gravity mis\xc3\xa8re: four in a row loses, on 4x4");
  EXPECT_EQ((GameSpec{9, 9, 7}).Title(), "9,9,7: 7 in a row on 9x9");
  EXPECT_EQ((GameSpec{3, 3, 3, false, true}).FileStem(), "3x3k3m");
  EXPECT_NE((GameSpec{3, 3, 3, false, true}), GameSpec());
}

// The primitive outcome, for the side to move: the maker of a line wins the
// normal game and loses misère; a full board without a line is a draw.
TEST(GameTest, PrimitiveNormalAndMisere) {
  const Game normal = MakeGame(3, 3, 3);
  const Game misere = *Game::Create({3, 3, 3, false, true});
  const Position x_line = *normal.Parse("XXX/OO./...");  // O to move
  EXPECT_EQ(normal.Primitive(x_line), Value::kLoss);
  EXPECT_EQ(misere.Primitive(x_line), Value::kWin);
  const Position full = *normal.Parse("XOX/XOO/OXX");
  EXPECT_EQ(normal.Primitive(full), Value::kDraw);
  EXPECT_EQ(misere.Primitive(full), Value::kDraw);
  const Position open = *normal.Parse("XO./.../...");
  EXPECT_EQ(normal.Primitive(open), std::nullopt);
  EXPECT_EQ(misere.Primitive(open), std::nullopt);
  EXPECT_EQ(misere.LegalMask(x_line), 0u);
  EXPECT_EQ(misere.LegalMoves(open).size(), 7u);
}

TEST(GameTest, CheckNamesTheBrokenRule) {
  const Game game = MakeGame(3, 3, 3);
  auto check = [&](uint32_t x, uint32_t o) { return game.Check({x, o}); };
  EXPECT_EQ(check(0b000000111, 0b000011000), Illegal::kLegal);
  EXPECT_EQ(check(0b000000111, 0b000111000), Illegal::kBothLines);
  EXPECT_EQ(check(0b1, 0b1), Illegal::kOffBoard);
  EXPECT_EQ(check(1u << 9, 0), Illegal::kOffBoard);
  EXPECT_EQ(check(0b11, 0), Illegal::kCounts);
  EXPECT_EQ(check(0b000000111, 0b100011000), Illegal::kMoverLine);
  EXPECT_EQ(check(0b001000111, 0b100011000), Illegal::kLegal);
  // 4,4,3: X has two lines sharing no stone (rows 0 and 3): no single last
  // move made both.
  const Game four = MakeGame(4, 4, 3);
  EXPECT_EQ(four.Check({0x7007, (1u << 4) | (1u << 5) | (1u << 7) | (1u << 9) |
                                    (1u << 11)}),
            Illegal::kUnexplainedLines);
  const Game gravity = MakeGame(3, 3, 3, true);
  EXPECT_EQ(gravity.Check({0b000000001, 0}), Illegal::kFloating);
  EXPECT_EQ(gravity.Check({0b001000000, 0}), Illegal::kLegal);
  EXPECT_FALSE(gravity.reachability_is_local());
  // Locally legal, but O under X in one column needs O to have moved first.
  const Game c4 = MakeGame(4, 4, 4, true);
  const Position o_under_x{1u << 8, 1u << 12};
  EXPECT_TRUE(c4.IsLegal(o_under_x));
  EXPECT_FALSE(c4.IsReachable(o_under_x));
  EXPECT_TRUE(c4.IsReachable({1u << 12, 1u << 8}));
}

// Square boards have the 8 symmetries of the square, other rectangles 4,
// gravity boards 2 (the mirror), one-cell-wide strips fewer.
TEST(GameTest, Symmetries) {
  EXPECT_EQ(MakeGame(3, 3, 3).symmetries().size(), 8u);
  EXPECT_EQ(MakeGame(4, 3, 3).symmetries().size(), 4u);
  EXPECT_EQ(MakeGame(4, 4, 4, true).symmetries().size(), 2u);
  EXPECT_EQ(MakeGame(5, 1, 3).symmetries().size(), 2u);
  EXPECT_EQ(MakeGame(1, 1, 1).symmetries().size(), 1u);
  const Game game = MakeGame(3, 3, 3);
  const Position p = *game.Parse("X.O/.X./...");
  std::vector<std::string> images;
  for (const Symmetry& s : game.symmetries()) {
    images.push_back(game.Format(game.Transform(p, s)));
  }
  EXPECT_EQ(images[0], "X.O/.X./...");  // the identity comes first
  std::sort(images.begin(), images.end());
  // Eight different images: X on each corner, O on either corner next to it.
  EXPECT_EQ(images,
            (std::vector<std::string>{
                ".../.X./O.X", ".../.X./X.O", "..O/.X./..X", "..X/.X./..O",
                "O../.X./X..", "O.X/.X./...", "X../.X./O..", "X.O/.X./..."}));
  // Gravity: the mirror keeps stones on the floor.
  const Game c4 = MakeGame(4, 4, 4, true);
  const Position q = *c4.Parse("..../..../X.../XO..");
  EXPECT_EQ(c4.Format(c4.Transform(q, c4.symmetries()[1])),
            "..../..../...X/..OX");
}

// The byte-table transforms agree with the cell-by-cell one on every
// board shape, and Canonical picks one image for the whole class.
TEST(GameTest, FastTransformsAndCanonical) {
  EXPECT_EQ(MakeGame(3, 3, 3).Format(MakeGame(3, 3, 3).Canonical(
                *MakeGame(3, 3, 3).Parse("..O/.X./..X"))),
            "X.O/.X./...");  // the least (x, o): X on cells 0, 4; O on 2
  uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525 + 1013904223; };
  for (const Game& game :
       {MakeGame(3, 3, 3), MakeGame(4, 4, 4), MakeGame(5, 4, 4),
        MakeGame(6, 5, 4, true), MakeGame(5, 6, 4, true), MakeGame(7, 1, 3)}) {
    const uint32_t full = (uint32_t{1} << game.cells()) - 1;
    for (int trial = 0; trial < 1000; ++trial) {
      const uint32_t x = next() & full;
      const Position p{x, next() & full & ~x};
      const Position canonical = game.Canonical(p);
      for (size_t s = 0; s < game.symmetries().size(); ++s) {
        const Position image = game.Transform(p, game.symmetries()[s]);
        EXPECT_EQ(game.Transform(p, static_cast<int>(s)), image);
        EXPECT_EQ(game.Canonical(image), canonical);
        // Exactly one image of a class is canonical (images may repeat).
        EXPECT_EQ(game.IsCanonical(image), image == canonical);
      }
    }
  }
}

// HasLine's doubling runs against a plain cell-by-cell scan, for every k
// from 1 to the longest side, on random dense and sparse masks.
TEST(GameTest, HasLineMatchesAScan) {
  uint64_t seed = 777;  // splitmix64: every bit of a 64-cell board random
  auto next = [&seed] {
    uint64_t z = seed += 0x9e3779b97f4a7c15;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  };
  const std::pair<int, int> kBoards[] = {
      {3, 3}, {4, 4}, {5, 4}, {7, 3}, {30, 1}, {1, 30}, {6, 5},
      {5, 6}, {6, 6}, {7, 5}, {7, 6}, {8, 8},  {64, 1}, {1, 64}};
  for (const auto& board : kBoards) {
    // Copies: a lambda cannot capture a structured binding in C++17.
    const int m = board.first, n = board.second;
    for (int k = 1; k <= std::max(m, n); ++k) {
      // Gravity changes nothing in the lines.
      absl::StatusOr<Game> game = Game::Create({m, n, k, m * n > 20});
      ASSERT_TRUE(game.ok()) << m << "x" << n << " k=" << k;
      auto scan = [&](Mask stones) {
        const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
        for (int r = 0; r < n; ++r) {
          for (int c = 0; c < m; ++c) {
            for (int d = 0; d < 4; ++d) {
              int i = 0;
              for (; i < k; ++i) {
                const int rr = r + i * dr[d], cc = c + i * dc[d];
                if (rr >= n || cc < 0 || cc >= m) break;
                if (!(stones >> (rr * m + cc) & 1)) break;
              }
              if (i == k) return true;
            }
          }
        }
        return false;
      };
      const Mask full = game->full_mask();
      for (int trial = 0; trial < 2000; ++trial) {
        // Dense masks (three random words ORed) make lines of every length.
        const Mask stones = (next() | next() | next()) & full;
        ASSERT_EQ(game->HasLine(stones), scan(stones))
            << m << "x" << n << " k=" << k << " stones=" << stones;
        const Mask sparse = stones & next();
        ASSERT_EQ(game->HasLine(sparse), scan(sparse))
            << m << "x" << n << " k=" << k << " stones=" << sparse;
      }
    }
  }
}

TEST(GameTest, CreateRejectsBadParameters) {
  EXPECT_EQ(Game::Create({0, 3, 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Game::Create({3, 3, 4}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Game::Create({3, 3, 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Any board of up to 64 cells, with or without gravity.
  EXPECT_TRUE(Game::Create({5, 5, 4}).ok());
  EXPECT_TRUE(Game::Create({7, 6, 4, true}).ok());
  EXPECT_TRUE(Game::Create({8, 8, 5}).ok());
  EXPECT_TRUE(Game::Create({64, 1, 3}).ok());
  EXPECT_EQ(Game::Create({13, 5, 4}).status().code(),
            absl::StatusCode::kInvalidArgument);  // 65 cells
  EXPECT_EQ(Game::Create({65, 1, 3, true}).status().code(),
            absl::StatusCode::kInvalidArgument);
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

TEST(GameTest, LastMoveCellsAndTake) {
  // X moved last; with gravity only X's stone on top of its column (cell 9)
  // can have been the last move, without gravity either of X's.
  const Game gravity = MakeGame(4, 4, 4, /*gravity=*/true);
  const Position p = *gravity.Parse("..../..../.X../OX..");
  EXPECT_EQ(gravity.LastMoveCells(p), Mask{1} << 9);
  EXPECT_EQ(MakeGame(4, 4, 4).LastMoveCells(p), Mask{1} << 9 | Mask{1} << 13);
  EXPECT_EQ(Game::Take(p, 9), *gravity.Parse("..../..../..../OX.."));
  EXPECT_EQ(Game::Take(Game::Play(p, 8), 8), p);
}

// Boards past 32 cells: stones on cells 32 to 63 are bits of the upper half
// of a Mask, in the rules, position strings and symmetries.
TEST(GameTest, BoardsPast32Cells) {
  const Game connect4 = *Game::Create({7, 6, 4, true});
  EXPECT_EQ(connect4.symmetries().size(), 2u);
  // X on the bottom row, columns 0 to 3 (cells 35 to 38), O above it.
  Position p;
  for (int column : {0, 0, 1, 1, 2, 2, 3}) {
    p = Game::Play(p, *connect4.DropCell(p, column));
  }
  EXPECT_EQ(p.x, Mask{0xf} << 35);
  EXPECT_EQ(connect4.Format(p),
            "......./......./......./......./OOO..../XXXX...");
  EXPECT_EQ(connect4.Primitive(p), Value::kLoss);  // O to move, X has four
  EXPECT_EQ(*connect4.Parse(connect4.Format(p)), p);
  // The mirror: column c goes to column 6 - c, cell 35 to cell 41.
  EXPECT_EQ(connect4.Transform(p, 1).x, Mask{0xf} << 38);
  int symmetry = -1;
  EXPECT_EQ(connect4.Canonical(connect4.Transform(p, 1), &symmetry), p);
  EXPECT_EQ(symmetry, 1);
  // A full column, a floating stone.
  Position column;
  for (int i = 0; i < 6; ++i) {
    column = Game::Play(column, *connect4.DropCell(column, 6));
  }
  EXPECT_EQ(connect4.DropCell(column, 6).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(connect4.Parse("X....../......./......./......./......./......O")
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);

  for (const auto& [m, n] : {std::pair{6, 6}, std::pair{7, 5}}) {
    const Game game = *Game::Create({m, n, 4, true});
    Position q;
    for (int i = 0; i < m * n; ++i) {  // fill the board column by column
      q = Game::Play(q, *game.DropCell(q, (i / n) % m));
      if (game.IsTerminal(q)) break;
    }
    ASSERT_TRUE(game.IsReachable(q)) << game.Format(q);
    EXPECT_EQ(*game.Parse(game.Format(q)), q) << m << "x" << n;
  }

  // 8x8 without gravity: the main diagonal's last five cells, 27 to 63.
  const Game eight = *Game::Create({8, 8, 5});
  EXPECT_EQ(eight.symmetries().size(), 8u);
  EXPECT_EQ(eight.full_mask(), ~Mask{0});
  const Mask diagonal = Mask{1} << 27 | Mask{1} << 36 | Mask{1} << 45 |
                        Mask{1} << 54 | Mask{1} << 63;
  EXPECT_TRUE(eight.HasLine(diagonal));
  EXPECT_FALSE(eight.HasLine(diagonal & ~(Mask{1} << 63)));
  const Position line{diagonal,
                      Mask{1} | Mask{1} << 1 | Mask{1} << 2 | Mask{1} << 3};
  EXPECT_EQ(eight.Primitive(line), Value::kLoss);
  EXPECT_EQ(eight.Format(line),
            "OOOO..../......../......../...X..../....X.../.....X../"
            "......X./.......X");
  EXPECT_EQ(*eight.Parse(eight.Format(line)), line);
  // The anti-transpose maps the main diagonal to itself and the top row to
  // the right column.
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(
        eight.Transform(eight.Transform(line, s), s).x == line.x,
        eight.TransformMask(eight.TransformMask(diagonal, s), s) == diagonal);
  }
  EXPECT_EQ(eight.Canonical(line).x,
            eight.Canonical(eight.Transform(line, 5)).x);
  // 64 cells and 63 '/' at most; longer text is refused before it is read.
  EXPECT_EQ(eight.Parse(std::string(128, '.')).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mnk
