#include "rules/game/moves.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "rules/game/printable.h"

namespace mnk {
namespace {

absl::Status NeedsGravity(Notation notation) {
  return absl::InvalidArgumentError(
      absl::StrCat("the ", NotationName(notation),
                   " notation names moves by column, which only a game with "
                   "gravity does: give cells"));
}

// kInvalidArgument once the game at `p` is over: no move is legal.
absl::Status InPlay(const Game& game, const Position& p) {
  const Winner w = WinnerOf(game, p);
  if (w == Winner::kNone) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "the game is over (",
      w == Winner::kDraw ? "a draw" : absl::StrCat(WinnerName(w), " won"),
      "): no move is legal"));
}

// The moves of a sequence as written: the numbers of `moves`, each a cell
// or a 0-based column.
absl::StatusOr<std::vector<int>> SplitMoves(const Game& game,
                                            absl::string_view moves,
                                            Notation notation) {
  std::vector<int> numbers;
  if (notation == Notation::kDigits) {
    if (game.width() > 9) {
      return absl::InvalidArgumentError(
          absl::StrCat("the digits notation takes at most 9 columns; this "
                       "board has ",
                       game.width(), ": give columns"));
    }
    for (size_t i = 0; i < moves.size(); ++i) {
      const char c = moves[i];
      if (c < '1' || c > '0' + game.width()) {
        return absl::InvalidArgumentError(
            absl::StrCat("move ", i + 1, " is '", Printable(moves.substr(i, 1)),
                         "': expected a column from 1 to ", game.width()));
      }
      numbers.push_back(c - '1');
    }
    return numbers;
  }
  int index = 0;
  for (absl::string_view word :
       absl::StrSplit(moves, absl::ByAnyChar(" ,\t\n"), absl::SkipEmpty())) {
    ++index;
    int n = 0;
    if (!absl::SimpleAtoi(word, &n) || !absl::ascii_isdigit(word[0])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", index, " is '", Printable(word), "': expected a ",
          notation == Notation::kCells ? "cell" : "column", " number"));
    }
    numbers.push_back(n);
  }
  return numbers;
}

}  // namespace

absl::StatusOr<Notation> NotationNamed(absl::string_view name) {
  for (Notation n : {Notation::kCells, Notation::kColumns, Notation::kDigits}) {
    if (name == NotationName(n)) return n;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "notation '", Printable(name), "': expected cells, columns or digits"));
}

absl::string_view NotationName(Notation notation) {
  switch (notation) {
    case Notation::kCells:
      return "cells";
    case Notation::kColumns:
      return "columns";
    case Notation::kDigits:
      return "digits";
  }
  return "";
}

absl::StatusOr<Position> ReadPosition(const Game& game,
                                      absl::string_view text) {
  absl::StatusOr<Position> p = game.Parse(text);
  if (p.ok()) return p;
  return absl::InvalidArgumentError(
      absl::StrCat("position '", Printable(text), "': ", p.status().message()));
}

std::vector<int> BoardOrderMoves(const Game& game, const Position& p) {
  std::vector<int> cells = game.LegalMoves(p);
  if (!game.spec().gravity) return cells;
  const int width = game.width();  // a cell a column
  std::sort(cells.begin(), cells.end(),
            [width](int a, int b) { return a % width < b % width; });
  return cells;
}

absl::StatusOr<Position> PlayMove(const Game& game, const Position& p,
                                  int cell) {
  if (cell < 0 || cell >= game.cells()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cell ", cell, " is off the board: expected 0 to ", game.cells() - 1));
  }
  if (absl::Status over = InPlay(game, p); !over.ok()) return over;
  const Mask bit = Mask{1} << cell;
  if ((p.occupied() & bit) != 0) {
    return absl::InvalidArgumentError(absl::StrCat("cell ", cell, " is taken"));
  }
  if ((game.Playable(p.occupied()) & bit) == 0) {
    const int column = cell % game.width();
    return absl::InvalidArgumentError(absl::StrCat(
        "cell ", cell,
        " is not playable: with gravity a stone goes to the lowest empty "
        "cell of its column (column ",
        column, "'s is cell ", *game.DropCell(p, column), ")"));
  }
  return Game::Play(p, cell);
}

absl::StatusOr<Position> PlayColumn(const Game& game, const Position& p,
                                    int column) {
  if (!game.spec().gravity) return NeedsGravity(Notation::kColumns);
  if (absl::Status over = InPlay(game, p); !over.ok()) return over;
  absl::StatusOr<int> cell = game.DropCell(p, column);
  if (!cell.ok()) return absl::InvalidArgumentError(cell.status().message());
  return Game::Play(p, *cell);
}

Winner WinnerOf(const Game& game, const Position& p) {
  const std::optional<Value> end = game.Primitive(p);
  if (!end.has_value()) return Winner::kNone;
  if (*end == Value::kDraw) return Winner::kDraw;
  const bool mover_won = *end == Value::kWin;
  return (p.side_to_move() == 0) == mover_won ? Winner::kX : Winner::kO;
}

absl::string_view WinnerName(Winner winner) {
  switch (winner) {
    case Winner::kX:
      return "X";
    case Winner::kO:
      return "O";
    case Winner::kDraw:
      return "draw";
    case Winner::kNone:
      break;
  }
  return "none";
}

absl::StatusOr<Position> FromCells(const Game& game,
                                   absl::Span<const int> cells) {
  Position p;
  for (size_t i = 0; i < cells.size(); ++i) {
    absl::StatusOr<Position> next = PlayMove(game, p, cells[i]);
    if (!next.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", i + 1, " (cell ", cells[i], "): ", next.status().message()));
    }
    p = *next;
  }
  return p;
}

absl::StatusOr<Position> FromMoves(const Game& game, absl::string_view moves,
                                   Notation notation) {
  if (notation != Notation::kCells && !game.spec().gravity) {
    return NeedsGravity(notation);
  }
  absl::StatusOr<std::vector<int>> numbers = SplitMoves(game, moves, notation);
  if (!numbers.ok()) return numbers.status();
  if (notation == Notation::kCells) return FromCells(game, *numbers);
  Position p;
  for (size_t i = 0; i < numbers->size(); ++i) {
    const int column = (*numbers)[i];
    absl::StatusOr<Position> next = PlayColumn(game, p, column);
    if (!next.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (column ",
                       notation == Notation::kDigits ? column + 1 : column,
                       notation == Notation::kDigits ? ", counted from 1" : "",
                       "): ", next.status().message()));
    }
    p = *next;
  }
  return p;
}

absl::StatusOr<std::string> FormatMoves(const Game& game,
                                        absl::Span<const int> cells,
                                        Notation notation) {
  if (notation != Notation::kCells && !game.spec().gravity) {
    return NeedsGravity(notation);
  }
  if (notation == Notation::kDigits && game.width() > 9) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the digits notation takes at most 9 columns; this board has ",
        game.width(), ": give columns"));
  }
  const int width = game.width();
  switch (notation) {
    case Notation::kCells:
      return absl::StrJoin(cells, " ");
    case Notation::kColumns:
      return absl::StrJoin(cells, " ", [width](std::string* out, int cell) {
        absl::StrAppend(out, cell % width);
      });
    case Notation::kDigits:
      return absl::StrJoin(cells, "", [width](std::string* out, int cell) {
        absl::StrAppend(out, cell % width + 1);
      });
  }
  return absl::InternalError("unknown notation");
}

absl::StatusOr<std::string> ToMoves(const Game& game, const Position& p,
                                    Notation notation) {
  const std::optional<std::vector<int>> order = game.MoveOrder(p);
  if (!order.has_value()) {
    if (absl::Status why = game.Validate(p); !why.ok()) return why;
    return absl::InvalidArgumentError(
        "no order of moves reaches this position");
  }
  return FormatMoves(game, *order, notation);
}

}  // namespace mnk
