// The sparse solver: retrograde analysis over the reachable positions alone,
// for boards whose dense index (rules/index/index.h) is far larger than
// their reachable set, such as tall narrow boards with gravity: 1x40 with
// gravity has 41 reachable positions but 2.8e11 indices. It writes a table
// in the book layout (layout 4, table/table.h) that holds every reachable
// position in play.
//
//   absl::StatusOr<mnk::Solution> s = mnk::SolveSparse(game, options);
//   s->book.keys;     // PositionIndex::Index of each canonical position
//   s->book.records;  // its value (bits 7-6) and remoteness (bits 5-0)
//   s->stats;         // the same counts as Solve() gives
//
// Layers. Layer L is the ascending list of the keys of the canonical images
// (Game::Canonical) of the reachable positions with L stones on which the
// game goes on. A forward pass makes layer L + 1 from layer L: every legal
// move's child, canonical, sorted, repeats dropped (children that end the
// game are only counted). The backward pass gives each position of layer L
// the policy's best move (PolicyScore) over its children: found in layer
// L + 1 by binary search, or valued by the rules when the move ends the
// game. The index orders positions by stones first, so the layers one after
// the other are the book's ascending keys.
//
// A frontier (SolveOptions::frontier, a book of every position in play of
// one layer F): layers 0 to F alone are listed, layer F's records are the
// book's, and the book written holds every position up to F (not complete:
// the header's flag says so).
//
// Memory: 9 bytes a canonical position in play (its key and record), plus 8
// bytes a child of the layer being listed, and up to twice the 9 bytes while
// the layers are joined into the book at the end; one thread.
#ifndef MNK_SOLVER_RETROGRADE_SPARSE_H_
#define MNK_SOLVER_RETROGRADE_SPARSE_H_

#include "absl/status/statusor.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"

namespace mnk {

// Solves `game` over its reachable positions; Solution::layout is the book
// layout and Solution::book holds every reachable position in play (up to
// the frontier's layer). Of the options only max_bytes, progress and
// frontier count; kInvalidArgument when the frontier holds positions of
// more than one layer, kFailedPrecondition when it lacks one of its
// layer's. kResourceExhausted, naming the
// ply reached, once the positions listed need more than options.max_bytes;
// the errors of CheckSolvable.
absl::StatusOr<Solution> SolveSparse(const Game& game,
                                     const SolveOptions& options);

}  // namespace mnk

#endif  // MNK_SOLVER_RETROGRADE_SPARSE_H_
