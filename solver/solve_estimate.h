// What a solve will take before it starts: `solve --estimate`. Memory is
// the solver's own count (SolveBytes, the figure it refuses --memory by);
// time, work-dir disk and a compressed table's size are ranges, the index
// size times the rates of the boards measured here (docs/results.md,
// docs/figures.md): the fastest and the slowest of the measured boards of
// the same kind (with or without gravity, in memory or in tiers).
//
//   SolveEstimate e = EstimateSolve(game, options);
//   std::fputs(EstimateReport(game, options, e).c_str(), stdout);
//
//   solve 6,6,4 gravity, compressed, in tiers in --work-dir, 2 threads:
//     indices   600,524,301,377 boards to test
//     memory    8.84 GiB at most (--memory: 17.66 GiB)
//     time      97 min to 4.5 hours
//     work dir  14.54 GiB to 24.61 GiB at most
//     table     8.39 GiB to 34.12 GiB
#ifndef MNK_SOLVER_SOLVE_ESTIMATE_H_
#define MNK_SOLVER_SOLVE_ESTIMATE_H_

#include <cstdint>
#include <string>

#include "rules/game/game.h"
#include "solver/retrograde/solver.h"

namespace mnk {

// A quantity known only within a range.
struct Range {
  double low = 0;
  double high = 0;
};

struct SolveEstimate {
  uint64_t indices = 0;          // boards the solve tests (the index size)
  uint64_t memory = 0;           // SolveBytes: what --memory is checked against
  Range seconds;                 // whole process, on options.threads threads
  Range work_dir_bytes;          // the work dir at its fullest; 0 without one
  Range table_bytes;             // the table file (exact for full and compact)
  bool reachable_bound = false;  // the book layout: it depends on the
                                 // reachable positions, unknown before
};

// The estimate of solving `game` with `options` (its layout chosen). Only
// for games CheckSolvable accepts.
SolveEstimate EstimateSolve(const Game& game, const SolveOptions& options);

// `r` times `n`; "96 s to 4 min"; "141.89 MiB to 577.00 MiB" (one figure
// when both ends print alike).
Range Times(Range r, double n);
std::string Durations(Range seconds);
std::string ByteRange(Range bytes);

// The estimate as `solve --estimate` prints it, a line a quantity.
std::string EstimateReport(const Game& game, const SolveOptions& options,
                           const SolveEstimate& estimate);

}  // namespace mnk

#endif  // MNK_SOLVER_SOLVE_ESTIMATE_H_
