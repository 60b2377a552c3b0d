// The memory a solve needs (Solve and SolveBytes in solver.h): what the
// layout keeps, the layers or tiers being worked on, the reachable bits.
// Internal to the solver.
//
//   uint64_t bytes = BytesNeeded(game, index, options, /*forward=*/true);
#ifndef MNK_SOLVER_RETROGRADE_SOLVE_BYTES_H_
#define MNK_SOLVER_RETROGRADE_SOLVE_BYTES_H_

#include <cstdint>

#include "rules/game/game.h"
#include "rules/index/index.h"
#include "solver/retrograde/solver.h"

namespace mnk::retrograde_internal {

// `forward`: reachable positions are marked by a forward pass.
uint64_t BytesNeeded(const Game& game, const PositionIndex& index,
                     const SolveOptions& options, bool forward);

}  // namespace mnk::retrograde_internal

#endif  // MNK_SOLVER_RETROGRADE_SOLVE_BYTES_H_
