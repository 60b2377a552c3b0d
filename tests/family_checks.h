// Independent checks of solved games, shared by the family tests: a
// depth-first enumeration of reachable positions, and comparisons of solver
// records with live alpha-beta search.
//
//   EXPECT_EQ(solution.stats.reachable, mnk::EnumerateReachable(game));
//   mnk::CheckRandomAgainstSearch(solution, 100000, /*seed=*/1);
#ifndef MNK_TESTS_FAMILY_CHECKS_H_
#define MNK_TESTS_FAMILY_CHECKS_H_

#include <cstdint>

#include "rules/game/game.h"
#include "search/search.h"
#include "solver/retrograde/solver.h"
#include "table/table.h"
#include "tests/naive_solver.h"

namespace mnk {

// The best move policy applied to live-searched children: best value,
// fewest plies to a win / most plies to a loss, lowest cell; kNoMove when
// the game is over. `search(position)` returns a SearchResult.
// The comparator is the naive solver's (tests/naive_solver.h), not the
// solver's.
template <typename Search>
int PolicyMoveBySearch(const Game& game, const Position& p, Search&& search) {
  int best_cell = kNoMove;
  Value best_value = Value::kUnreachable;
  int best_plies = 0;
  for (int cell : game.LegalMoves(p)) {
    const SearchResult child = search(Game::Play(p, cell));
    const Value v = Negate(child.value);
    if (best_cell == kNoMove ||
        naive::BetterMove(v, child.remoteness + 1, best_value, best_plies)) {
      best_cell = cell;
      best_value = v;
      best_plies = child.remoteness + 1;
    }
  }
  return best_cell;
}

// Every record of `solution` against the naive solver (tests/naive_solver.h):
// the set of positions marked reachable, and every value, remoteness and best
// move. Reports failures through GoogleTest; returns the positions checked.
uint64_t CheckAgainstOracle(const Solution& solution);

// Positions reachable from the empty board by legal moves, stopping at
// terminal ones, counted with a hash set.
uint64_t EnumerateReachable(const Game& game);

// Every reachable record against live search: value, remoteness and the
// policy's best move over searched children. Reports failures through
// GoogleTest; returns the positions checked.
uint64_t CheckAllAgainstSearch(const Solution& solution);

// `count` random reachable records against alpha-beta with a transposition
// table: value, remoteness, and that the stored move reaches a child that
// search scores as the record says. Returns the positions checked.
uint64_t CheckRandomAgainstSearch(const Solution& solution, uint64_t count,
                                  uint64_t seed);

// The same for a compact or compressed table: `count` random reachable
// positions (with X to move for a compact one) against alpha-beta with a
// transposition table: the value (ValueOf); from a compressed table also
// the probe's value, remoteness (when stored) and that its move reaches a
// child that search scores as the record says. Returns the positions
// checked.
uint64_t CheckTableAgainstSearch(const Table& table, uint64_t count,
                                 uint64_t seed);

}  // namespace mnk

#endif  // MNK_TESTS_FAMILY_CHECKS_H_
