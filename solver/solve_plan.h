// What a solve shared by N processes (solve_mpi; the tiers of
// solver/retrograde/tiered_solver.h) will hold and move, process by
// process and layer by layer, before it starts: `solve --plan=N`. It walks
// the tiers as the solver does, without solving: which process solves
// which tier (tier t of layer L on process (t + L) % N), which child tiers
// each reads (TierLayout::ChildTiers) and keeps, the reachable bits each
// joins after each window of the forward pass, what rank 0 reads to
// gather a layer. Bytes are payloads (before zstd); what the files and the time
// come to is projected from rates measured on this machine.
//
//   SolvePlan plan = PlanSolve(game, options, /*processes=*/2, 125e6);
//   std::fputs(PlanReport(game, options, plan).c_str(), stdout);
//
//   plan: solve 6,5,4 gravity, compressed, tiers of 1048576 indices, 2
//   processes of 1 thread
//     process  tiers  memory     (where)           solving     written ...
//     0         4737  332.57 MiB marking layer 24  107.13 MiB  12.79 GiB ...
//     1         4741  254.46 MiB marking layer 24  107.13 MiB  11.62 GiB ...
//     layer    tiers  written  read  joined        (a line a layer)
//     ...      then the exchange, the work dir, the time and the table
#ifndef MNK_SOLVER_SOLVE_PLAN_H_
#define MNK_SOLVER_SOLVE_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "rules/game/game.h"
#include "solver/retrograde/solver.h"
#include "solver/solve_estimate.h"

namespace mnk {

// One process's share, payload bytes.
struct ProcessPlan {
  uint64_t tiers = 0;    // tiers it solves
  uint64_t memory = 0;   // the most it holds
  int memory_layer = 0;  // where: the layer marked from or solved
  bool memory_marking = false;
  uint64_t solving_memory = 0;  // the most it holds solving (no marking)
  uint64_t written = 0;         // to the work dir
  uint64_t read = 0;            // from the work dir (a file read counts whole)
  uint64_t joined = 0;          // reachable bits all-reduced with the others
};

// One layer, all processes: its forward pass (from it to the next) and its
// solve, payload bytes.
struct LayerPlan {
  uint64_t tiers = 0;
  uint64_t written = 0, read = 0, joined = 0;
};

struct SolvePlan {
  int processes = 1;
  std::vector<ProcessPlan> process;  // by rank
  std::vector<LayerPlan> layers;     // by layer
  // The work dir at its fullest, payload bytes, and the files projected.
  uint64_t disk = 0;
  Range disk_files;
  // What every process together writes, reads and joins; the files'
  // bytes projected.
  uint64_t exchanged = 0;
  Range exchanged_files;
  // What rank 0 holds besides: the largest even layer's sections and their
  // compressed copy, as it encodes them into the work dir and again as it
  // writes the table (a compressed layout; projected from the table's
  // size, not known before).
  Range sections;
  // Rank 0's peak: its marking, or its solving with the sections.
  Range root_memory;
  // The solve's time on processes x threads threads (EstimateSolve), and
  // the exchange's at `network` bytes a second a process.
  SolveEstimate estimate;
  double network = 0;
  Range exchange_seconds;
};

// The plan of solving `game` with `options` (a work dir and its tier size;
// its layout chosen; threads a process) on `processes` processes, each
// with `network` bytes a second to the shared work dir. Only for games
// CheckSolvable accepts. A layer of more than 20,000 tiers is sampled
// (every k-th tier, its figures scaled).
SolvePlan PlanSolve(const Game& game, const SolveOptions& options,
                    int processes, double network);

// The plan as `solve --plan` prints it.
std::string PlanReport(const Game& game, const SolveOptions& options,
                       const SolvePlan& plan);

}  // namespace mnk

#endif  // MNK_SOLVER_SOLVE_PLAN_H_
