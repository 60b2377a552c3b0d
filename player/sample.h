// A sample of a table's answers: random reachable positions spread over the
// plies, each with its value, remoteness and best move, as the tables too
// big to ship are published (data/samples/), so that anyone can check such
// a table against another solver without having it.
//
//   std::vector<mnk::Position> positions = mnk::DrawSample(game, 10000, 1);
//   absl::StatusOr<std::string> text =
//       mnk::SampleText(oracle, positions, "# the 6,4,4 table\n");
//   absl::StatusOr<std::string> file = mnk::TableSample(table, 10000, 1);
//
// The text: the header's lines ('#' first), then a line a position, by
// ply, in the order drawn:
//
//   X.O/X.X/OO. win 1 4
//   ^position   ^value for the side to move
//                   ^remoteness (plies to the end; "unknown" in a table
//                     without it)
//                     ^best move: a cell, 0 the top left, row by row
//                       ("none" once the game is over)
#ifndef MNK_PLAYER_SAMPLE_H_
#define MNK_PLAYER_SAMPLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "player/player.h"
#include "rules/game/game.h"
#include "table/table.h"

namespace mnk {

// `count` distinct reachable positions of `game` (fewer when the game has
// fewer), sorted by ply, drawn by random games from the empty board (play
// stops at the first line): each ply gets an equal share, and a ply with
// fewer positions than its share leaves the rest to the plies after it.
// The same `seed` draws the same positions on every machine (mt19937_64,
// whose output the C++ standard fixes).
std::vector<Position> DrawSample(const Game& game, int count, uint64_t seed);

// `header` then each position's answer from `oracle`, a line each. The
// oracle's errors (a damaged table).
absl::StatusOr<std::string> SampleText(const Oracle& oracle,
                                       const std::vector<Position>& positions,
                                       absl::string_view header);

// The sample `sample --table=FILE --count=N --seed=S` writes: a header
// naming the game, the table's SHA-256 and the command, then DrawSample's
// positions with the table's answers.
absl::StatusOr<std::string> TableSample(const Table& table, int count,
                                        uint64_t seed);

}  // namespace mnk

#endif  // MNK_PLAYER_SAMPLE_H_
