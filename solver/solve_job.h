// One call to solve a game, for every front end: `solve`, `solve_mpi`, the
// C library's mnk_solve_with and Python's Game.solve and Game.estimate. A
// request (what the caller asks; all but the game may be left out) is
// turned by PlanSolveJob into a job: the layout chosen, the combinations
// checked, the memory counted once, the estimate, and what would fit when
// the memory does not. RunSolveJob solves it (dense, sparse or in tiers)
// and writes the table.
//
//   mnk::SolveRequest request;
//   request.game = {6, 5, 4, /*gravity=*/true, /*misere=*/false};
//   request.out = "6x5.mnk";
//   absl::StatusOr<mnk::SolveJob> job = mnk::PlanSolveJob(request);
//   if (!job.ok()) ...;                   // kInvalidArgument: a bad request
//   job->estimate.seconds;                // {low, high}, before solving
//   absl::StatusOr<mnk::Solved> solved = mnk::RunSolveJob(*job);
//   if (!solved.ok()) mnk::SolveFailureOf(solved.status());  // which step
//   solved->table_bytes;
#ifndef MNK_SOLVER_SOLVE_JOB_H_
#define MNK_SOLVER_SOLVE_JOB_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/parallel/cluster.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"
#include "solver/solve_estimate.h"
#include "solver/solve_plan.h"
#include "table/layout.h"
#include "table/table.h"

namespace mnk {

struct SolveRequest {
  GameSpec game;
  // nullopt: auto, a full table up to 64 MiB, else compressed; then, if
  // that does not fit in `memory`, compressed, else compact (layout_note
  // says so).
  std::optional<Layout> layout;
  // nullopt: the layout's own (full and book keep remoteness, compact
  // never); false asks for a compressed table without it.
  std::optional<bool> remoteness;
  uint64_t memory = 0;   // the most the solve may use; 0: DefaultMemoryLimit()
  int threads = 0;       // 0: one per core (DefaultThreads), at most 256
  std::string work_dir;  // empty: in memory
  bool resume = false;   // needs work_dir
  uint64_t tier_indices = uint64_t{1} << 20;  // needs work_dir to change
  Cluster* cluster = nullptr;                 // as SolveOptions::cluster
  // The per-process plan (solve --plan) of this many processes sharing
  // the work dir at `network` bytes a second each; 0: none.
  int plan_processes = 0;
  double network = 125e6;
  std::string out;  // the table file; empty: not written
  // A book of every position of one layer (book --every_position): the
  // layers up to it backed up from it (SolveOptions::frontier), in the
  // book layout; empty: none.
  std::string frontier;
  // As SolveOptions: a progress line, a progress callback, a cancel flag.
  bool progress = false;
  std::function<void(const char* phase, int layer, uint64_t done,
                     uint64_t total)>
      on_progress = nullptr;
  const std::atomic<bool>* cancel = nullptr;
};

struct SolveJob {
  explicit SolveJob(const Game& g) : game(g) {}
  Game game;
  SolveOptions options;  // the layout chosen, threads and memory resolved
  std::string out;
  bool sparse = false;  // the book layout: solved by SolveSparse
  // SolveBytes: what options.max_bytes is checked against (0 for a book,
  // whose memory follows its reachable positions, unknown before).
  uint64_t bytes = 0;
  // Auto fell back from the layout it prefers (too little memory):
  // "--layout=auto: a full table needs ..., writing a compressed table
  // instead"; empty otherwise.
  std::string layout_note;
  // Not empty when `bytes` passes the memory: why, and what would need
  // less (a work dir, the compact layout, a book). RunSolveJob refuses.
  std::string refusal;
  SolveEstimate estimate;
  std::optional<SolvePlan> plan;  // with request.plan_processes
  // request.frontier's book, loaded and checked (options.frontier reads it).
  std::shared_ptr<const Table> frontier;
};

// Sets request.layout from its name: "auto" (nullopt), "full", "compact",
// "compressed" or "book"; kInvalidArgument for any other.
absl::Status SetLayout(SolveRequest& request, absl::string_view name);

// The job of `request`, nothing solved or written. kInvalidArgument,
// saying why, for a game no table can hold (CheckSolvable), a layout and
// remoteness that do not go together, threads outside 0-256, a tier size
// that is not a power of two from kMinTierIndices to kMaxTierIndices,
// resume without a work dir, a book in tiers or over several processes, a
// plan without a work dir, a frontier with another layout or that is not a
// book of the game (and Table::Load's errors for its file).
absl::StatusOr<SolveJob> PlanSolveJob(const SolveRequest& request);

// A solve and its table.
struct Solved {
  explicit Solved(Solution s) : solution(std::move(s)) {}
  Solution solution;
  uint64_t table_bytes = 0;  // the table file's size, written or not
  // A compressed table's sections, by kind (0 for the other layouts).
  uint64_t value_bytes = 0, move_bytes = 0, remoteness_bytes = 0;
};

// Where a RunSolveJob failed.
enum class SolveFailure {
  kNone,
  kTable,   // the table file cannot be written (checked before solving too)
  kMemory,  // the job's refusal, or memory ran out
  kSolve,   // the solve: its work dir (in use, full, damaged), a cancel
};

// Solves `job` and, on rank 0 (or without a cluster), writes its table to
// job.out when there is one. Errors carry their SolveFailure.
absl::StatusOr<Solved> RunSolveJob(const SolveJob& job);

// The step a RunSolveJob status failed at; kNone for OK or another status.
SolveFailure SolveFailureOf(const absl::Status& status);

}  // namespace mnk

#endif  // MNK_SOLVER_SOLVE_JOB_H_
