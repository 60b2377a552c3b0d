// Moves as callers give them: one move checked against the rules, the
// winner of a finished game, and games written as move sequences (as move
// lists, Pons' solver and connect-four-ai write them). Every binding's
// rules calls (legal moves, play, over, winner, from and to moves) are
// these and the Game's own.
//
//   absl::StatusOr<mnk::Position> p = mnk::PlayMove(game, start, 4);
//   mnk::WinnerOf(game, *p);                   // Winner::kNone: in play
//   absl::StatusOr<mnk::Position> c4 =
//       mnk::FromMoves(connect_four, "4453", mnk::Notation::kDigits);
//   *mnk::ToMoves(connect_four, *c4, mnk::Notation::kColumns);  // "3 3 4 2"
//
// A move is a cell (row * width + column, as everywhere); with gravity it
// may be given by its column, the stone dropping to the column's lowest
// empty cell. A move sequence lists the moves from the empty board, X's
// first, in one of three notations:
//
//   cells    "4 0 8"  0-based cells, separated by spaces or commas
//   columns  "3 3 4"  0-based columns, separated likewise (gravity only)
//   digits   "4453"   1-based columns, one digit each (gravity only, at
//                     most 9 columns): Pons' and connect-four-ai's notation
#ifndef MNK_RULES_GAME_MOVES_H_
#define MNK_RULES_GAME_MOVES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "rules/game/game.h"

namespace mnk {

enum class Notation { kCells, kColumns, kDigits };

// "cells", "columns" or "digits" (kInvalidArgument naming the three for
// anything else).
absl::StatusOr<Notation> NotationNamed(absl::string_view name);
absl::string_view NotationName(Notation notation);

// `text` read as a position of `game` (Game::Parse): kInvalidArgument
// "position 'TEXT': why" when it is not one, the text quoted (Printable).
absl::StatusOr<Position> ReadPosition(const Game& game, absl::string_view text);

// The legal moves in board order: cells ascending; with gravity, the
// columns' cells from left to right. None once the game is over.
std::vector<int> BoardOrderMoves(const Game& game, const Position& p);

// The position after the side to move plays `cell` in `p` (a reachable
// position). kInvalidArgument saying why for a cell off the board, taken,
// not playable (with gravity: not the lowest empty cell of its column), or
// once the game is over.
absl::StatusOr<Position> PlayMove(const Game& game, const Position& p,
                                  int cell);
// The same for a stone dropped in `column` (gravity games only).
absl::StatusOr<Position> PlayColumn(const Game& game, const Position& p,
                                    int column);

// Who won a finished game: its rules' result said as a person says it.
enum class Winner { kNone, kX, kO, kDraw };  // kNone: the game goes on
Winner WinnerOf(const Game& game, const Position& p);
// "X", "O", "draw" or "none".
absl::string_view WinnerName(Winner winner);

// The position after `cells` played from the empty board, each checked as
// PlayMove checks it (the message names the move: "move 3 (cell 4): ...").
absl::StatusOr<Position> FromCells(const Game& game,
                                   absl::Span<const int> cells);
// The same for a sequence written in `notation`.
absl::StatusOr<Position> FromMoves(const Game& game, absl::string_view moves,
                                   Notation notation);
// `cells`, played in order from some position, written in `notation`
// ("" for none). kInvalidArgument for columns or digits without gravity,
// or digits on a board wider than 9.
absl::StatusOr<std::string> FormatMoves(const Game& game,
                                        absl::Span<const int> cells,
                                        Notation notation);
// A sequence of moves that builds `p` (a reachable position) from the
// empty board, in `notation`: Game::MoveOrder, written out.
absl::StatusOr<std::string> ToMoves(const Game& game, const Position& p,
                                    Notation notation);

}  // namespace mnk

#endif  // MNK_RULES_GAME_MOVES_H_
