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

// With a work dir, how many indices of the next layer the forward pass
// marks at a time: every layer whole when the widest one's bits fit in
// options.max_bytes beside the rest; else as many tiers as fit (at least
// one), each parent tier walked once for each window its children reach.
// Shared by `processes` > 1, each holds the bits twice (the all-reduce's
// copy).
uint64_t ReachWindow(const PositionIndex& index, const SolveOptions& options,
                     int processes);

}  // namespace mnk::retrograde_internal

#endif  // MNK_SOLVER_RETROGRADE_SOLVE_BYTES_H_
