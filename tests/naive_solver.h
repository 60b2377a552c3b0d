// The naive solver: the tests' yardstick that shares nothing with the
// solver, not even the game seam: a naive line checker that walks the
// board cell by cell, its own move generation, a forward enumeration of
// every reachable position from the empty board, and a memoised negamax
// over it with its own best-move comparator. Boards are strings of 'X', 'O' and
// '.', row-major from the top-left, as position strings without '/'.
//
//   mnk::naive::Solved s = mnk::naive::SolveNaively({3, 3, 3});
//   s.size();                    // 5478 reachable positions
//   s.at(".........").value;     // kDraw
#ifndef MNK_TESTS_NAIVE_SOLVER_H_
#define MNK_TESTS_NAIVE_SOLVER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "rules/game/game.h"

namespace mnk::naive {

// k in a row of `mark` anywhere on the board, found by trying every cell
// and direction.
bool NaiveHasLine(const GameSpec& spec, const std::string& board, char mark);

// The cells the side to move may play (ascending), ignoring whether the
// game is over: every empty cell, or with gravity the lowest empty cell of
// each column.
std::vector<int> NaiveMoves(const GameSpec& spec, const std::string& board);

struct Result {
  Value value;     // for the side to move
  int remoteness;  // plies to the end under perfect play
  int best_move;   // kNoBestMove when the game is over
};
inline constexpr int kNoBestMove = -1;

// The best-move policy, written apart from the solver's: true when moving to
// a child worth `a` (for the mover, `a` plies to the end) beats one worth
// `b`. Better value first; among wins the fewest plies, among losses the
// most. Ties keep the earlier (lower) cell, so callers scan cells upwards.
bool BetterMove(Value a_value, int a_plies, Value b_value, int b_plies);

// Every position reachable from the empty board, with its result.
using Solved = absl::flat_hash_map<std::string, Result>;
Solved SolveNaively(const GameSpec& spec);

// The images of a board under the symmetries of its rectangle, by row and
// column arithmetic: turns by 90 degrees and reflections on square boards,
// half turns and reflections on others, only the left-right mirror with
// gravity (the floor stays down). Repeats are kept.
std::vector<std::string> NaiveImages(const GameSpec& spec,
                                     const std::string& board);

// The number of symmetry classes among the positions of `solved`.
uint64_t CountClasses(const GameSpec& spec, const Solved& solved);

}  // namespace mnk::naive

#endif  // MNK_TESTS_NAIVE_SOLVER_H_
