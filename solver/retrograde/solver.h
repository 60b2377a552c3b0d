// The exhaustive solver: a record (value, remoteness, best move) for every
// reachable position of a game, by retrograde analysis layer by layer.
//
//   absl::StatusOr<mnk::Solution> s = mnk::Solve(game, {.threads = 2});
//   mnk::Record r = s->records().view().Get(index.Index(pos));
//   s->kept->Write("3x3k3.mnk", game.spec(), s->stats.reachable);
//   s->stats.reachable;  // 5478 for tic-tac-toe
//
// Every move adds a stone, so the positions with L stones (layer L) only lead
// to layer L + 1. The solver walks the layers from the full board back to the
// empty one; a position's record follows from its children's records, which
// are already final. Positions are found by their PositionIndex, so the
// memory is the records themselves plus one byte per position of the two
// layers being worked on. Layers are split between threads by shape.
//
// Every rule comes from the game seam (rules/game/game.h): which indices are
// reachable (without gravity the local test Game::Check decides; with
// gravity reachability depends on the order of moves, so a forward pass from
// the empty board marks the reachable ones first), the primitive outcome of
// finished games, the legal moves. Normal and misère games alike.
//
// Tiers. Each layer is cut into tiers, runs of options.tier_indices
// consecutive indices. With a work dir every solved tier is
// written there (its layer bytes, counts, and what the layout keeps), so a
// killed solve resumes from the tiers done, and MPI ranks share a layer's
// tiers out; a compressed solve keeps each layer done there too and
// removes the tiers nothing reads again, so the disk holds about two
// layers' tiers and the reachable bits of the layers still to solve. The
// table is the same bytes however the tiers fell.
//
// Best move policy (PolicyScore in rules/game/policy.h): best value for the
// side to move, then the fewest plies to a win or the most plies to a loss,
// then the lowest cell index.
#ifndef MNK_SOLVER_RETROGRADE_SOLVER_H_
#define MNK_SOLVER_RETROGRADE_SOLVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/parallel/cluster.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "store/layer_sink.h"
#include "store/write.h"
#include "table/layout.h"
#include "table/readers.h"
#include "table/record.h"

namespace mnk {

// 3/4 of this machine's physical memory: the default --memory.
uint64_t DefaultMemoryLimit();

struct SolveOptions {
  int threads = 2;
  // Draws a progress line on standard error while layers are solved.
  bool progress = false;
  // Called now and then, from a thread of its own, while layers are solved,
  // and once at the end: the phase ("marking", "solving"), the layer, and
  // the work done of `total` (base/parallel/parallel.h's Progress).
  std::function<void(const char* phase, int layer, uint64_t done,
                     uint64_t total)>
      on_progress = nullptr;
  // Marks reachable positions by a forward pass from the empty board even
  // without gravity (where a local test decides): a cross-check.
  bool forward_reachability = false;
  // What the solve keeps, as the table will (table/layout.h): full records
  // of every index; or only the compact layout's values of the even
  // layers, 1.6 bits a position (table/record.h); or the compressed
  // layout's sections (table/compressed.h), with or without remoteness,
  // encoded as each layer is solved.
  TableLayout layout = TableLayout::Full();
  // Refuses games whose records would take more memory than this.
  uint64_t max_bytes = uint64_t{16} << 30;
  // Keeps every solved tier in this directory (store/work_dir.h);
  // empty: nothing is written.
  std::string work_dir = "";
  // Trusts the tiers found in work_dir (each checked first; a damaged one is
  // solved again) instead of refusing a directory in use.
  bool resume = false;
  // A tier is a run of this many consecutive indices of one layer (the
  // last one of a layer shorter); a power of two. Changes the work dir,
  // never the table.
  uint64_t tier_indices = uint64_t{1} << 20;
  // Null: this process alone. Otherwise (base/parallel/cluster.h) tier t
  // of layer L is solved by process (t + L) % size(), the processes meet
  // after each layer, exchanging the tiers through the work dir, which is
  // then required; only rank 0 keeps records and statistics.
  Cluster* cluster = nullptr;
  // Stops the solve once set, from any thread: Solve then gives kCancelled
  // (and RunSolveJob writes nothing). Looked at between layers, and in
  // memory (no work dir) between chunks of 64K positions too; a work dir
  // keeps the layers done, for a resume.
  const std::atomic<bool>* cancel = nullptr;
  // The sparse solver (sparse.h) alone: a book holding every position in
  // play of one layer (book --every_position), whose records that layer
  // takes instead of its children's; the layers past it are not solved.
  const BookReader* frontier = nullptr;
};

struct SolveStats {
  uint64_t reachable = 0;
  // Reachable positions up to symmetry (Game::symmetries): 765 for
  // tic-tac-toe.
  uint64_t canonical = 0;
  uint64_t terminal = 0;
  std::vector<uint64_t> per_ply;  // reachable positions by stones on board
  // Terminal positions by outcome.
  uint64_t x_wins = 0, o_wins = 0, full_draws = 0;
  // Reachable positions by value for the side to move.
  uint64_t wins = 0, draws = 0, losses = 0;
  // The empty board: value for X and remoteness.
  Value start_value = Value::kUnreachable;
  int start_remoteness = 0;
  double seconds = 0;
  // Tiers this process solved, took from the work dir, and found damaged
  // there (so solved again).
  uint64_t tiers_solved = 0, tiers_loaded = 0, tiers_redone = 0;
  // Layers a compressed solve with a work dir took whole from there (done
  // before it was resumed).
  uint64_t layers_loaded = 0;
  // Indices this process stopped at in the forward pass and the solve: with
  // gravity only the reachable ones (the others are skipped a word of
  // reachable bits at a time), without gravity every index (a local test
  // decides which are reachable).
  uint64_t index_visits = 0;
  // With a work dir, what this process wrote there and read back (files
  // and payloads: WorkDir::traffic()), and the bytes of reachable bits it
  // joined with the other processes (Cluster::OrWords).
  uint64_t file_written = 0, payload_written = 0;
  uint64_t file_read = 0, payload_read = 0;
  uint64_t joined = 0;
};

// What a solve found: its statistics, and what its layout keeps in a sink
// (store/layer_sink.h: only the process that keeps records, rank 0, holds
// any), which writes the table.
struct Solution {
  Solution(const Game& g, TableLayout layout)
      : game(g), index(g), layout(layout) {}
  Game game;
  PositionIndex index;
  TableLayout layout;
  SolveStats stats;
  std::unique_ptr<LayerSink> kept;

  // What the layout keeps (empty for the others): the full layout's
  // records; the compact layout's bytes (CompactLayout); the compressed
  // layout's sections in file order, solved in memory (with a work dir they
  // are read from there as the table is written); a book's positions
  // (SolveSparse, solver/retrograde/sparse.h).
  RecordArrays& records() const { return kept->records(); }
  std::vector<uint8_t>& compact() const { return kept->compact(); }
  std::vector<std::string>& sections() const { return kept->sections(); }
  BookEntries& book() const { return kept->book(); }
};

// Solves `game` completely. kResourceExhausted when the records would need
// more than options.max_bytes, or the work dir's disk is full; the errors of
// WorkDir::Open for a work dir in use or of another solve.
//
// Memory: full records take 2.25 bytes an index, compact ones 0.2 bytes an
// even-layer index, compressed ones only their encoded sections. In memory
// (no work dir), plus one byte a position of the two widest adjacent layers,
// three of the widest even layer for compressed symbols, and with gravity
// one bit an index for reachability. With a work dir, plus the tiers of the
// layer below that the tier being solved reads (those holding its
// children: TierStore::ChildTiers) or, with gravity, one layer's reachable bits
// (the forward pass before; a window of tiers of it at a time when a whole
// layer's would pass max_bytes: ReachWindow), whichever is more, and a few
// tiers' payloads; a compressed solve's sections stay in the work dir, but a
// layer's are held while it is gathered, beside the next layer's solve (not
// counted: unknown before), and the table is written from there a layer at a
// time (the largest layer's sections).
absl::StatusOr<Solution> Solve(const Game& game, const SolveOptions& options);

// The bytes Solve() would need (it refuses more than options.max_bytes).
// Only for games CheckSolvable accepts.
uint64_t SolveBytes(const Game& game, const SolveOptions& options);

// With a work dir and gravity, how many indices of the next layer the
// forward pass marks at a time: a whole layer when the widest one's bits
// fit in options.max_bytes beside the rest, else as many tiers' as fit;
// shared by `processes` > 1, twice the bits must fit (each process holds a
// copy of them as they are joined).
uint64_t ReachWindow(const Game& game, const SolveOptions& options,
                     int processes);

// kInvalidArgument, saying why, for a game no table can hold whatever the
// memory: one whose index has 2^64 entries or more (7x6 without gravity),
// or with more than kMaxTableCells cells (table/record.h).
absl::Status CheckSolvable(const Game& game);

}  // namespace mnk

#endif  // MNK_SOLVER_RETROGRADE_SOLVER_H_
