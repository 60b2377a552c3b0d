// The layered solver's passes with a work dir (solver.h: "Tiers"): each
// layer solved a tier at a time, the tiers kept on disk for resuming and
// shared among MPI ranks, rank 0 gathering each layer for the sink.
// Internal to the solver.
//
//   TieredSolver solver(parts, store, cluster, resume);
//   solver.MarkReachable();                       // gravity: forward pass
//   for (int l = cells; l >= 0; --l) solver.SolveLayer(l);
//
// A solved tier ("L<layer>-T<tier>", store/tier_store.h), its payload:
//   72 bytes   its Counts (Counts::AppendTo)
//   n bytes    the layer bytes of its n indices (layer_kernel.h)
//   k n bytes  what the sink keeps of them (store/layer_sink.h)
// "R<layer>-T<tier>" (gravity) holds a tier's reachable bits, "M<layer>"
// says a layer's are all there; a sink that keeps its layers on disk
// (compressed) has "S<layer>" for each even layer done, and the solver
// "D<layer>" after it: the layer's Counts, then the empty board's layer
// byte (layer 0; else 0).
#ifndef MNK_SOLVER_RETROGRADE_TIERED_SOLVER_H_
#define MNK_SOLVER_RETROGRADE_TIERED_SOLVER_H_

#include <future>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "base/parallel/cluster.h"
#include "solver/retrograde/layer_kernel.h"
#include "store/layer_sink.h"
#include "store/tier_store.h"

namespace mnk::retrograde_internal {

// What both passes of a solve share.
struct SolveParts {
  const Game& game;
  const PositionIndex& index;
  LayerSink& sink;
  StatsAdder& stats;
  Progress& progress;
  LayerKernel& kernel;
  int threads;
  bool forward;  // reachable positions marked by a forward pass
};

class TieredSolver {
 public:
  // `reach_window`: indices of the next layer the forward pass marks at a
  // time (a multiple of the tier size; ReachWindow in solve_bytes.h).
  TieredSolver(const SolveParts& parts, const TierStore& store,
               Cluster& cluster, bool resume, uint64_t reach_window);

  // This process's tiers of each layer expanded (their bits read from the
  // work dir), the next layer's bits joined among the processes, then
  // written by rank 0 a tier at a time with a mark that the layer is
  // whole. A layer whose bits are more than the window is marked a window
  // at a time, each tier of this process expanded for every window its
  // children reach (TierLayout::ChildTierNumbers). Resuming, a layer so
  // marked is not marked again.
  absl::Status MarkReachable();

  // This process's tiers solved and written (or, resuming, found there
  // whole); each reads only the tiers of the layer below that hold its
  // children. Then, once every process is done, rank 0 gathers the layer
  // (its counts, and the sink's part) on a thread of its own while the
  // layer above is solved; the gathering of a layer waits for the one
  // before, and layer 0's is the last. A sink that keeps its layers on disk
  // lets go of the tiers nothing reads again, so that the work dir holds
  // about two layers' tiers; resuming, a layer done is taken from there.
  absl::Status SolveLayer(int stones);

  // The bytes of reachable bits joined with the other processes so far.
  uint64_t joined_bytes() const { return joined_bytes_; }

 private:
  // The indices of layer `stones` + 1 that the children of each of this
  // process's tiers of layer `stones` span, [first, last) (whole tiers;
  // empty for the others' tiers): which windows a tier is walked for.
  std::vector<std::pair<uint64_t, uint64_t>> ChildSpans(int stones) const;
  // Marks the children of this process's tiers of layer `stones` in
  // [first, last) of the next layer into `bits`; `spans` as ChildSpans
  // gives them, or empty when the window is the whole layer.
  absl::Status MarkWindow(
      int stones, uint64_t first, uint64_t last,
      const std::vector<std::pair<uint64_t, uint64_t>>& spans,
      std::vector<uint64_t>& bits);
  absl::Status SolveMyTiers(int stones);
  void SolveTier(int stones, const TierRange& r, Reached reach,
                 std::string& payload);
  absl::Status GatherLayer(int stones);
  // Tier `name` of the layer being gathered into gather_buffer_ (only its
  // head and first byte if the sink takes no bytes): its payload's size.
  absl::StatusOr<uint64_t> ReadTier(const std::string& name);
  absl::Status PutDoneLayer(int stones, const Counts& counts);
  absl::Status TakeDoneLayer(int stones);
  absl::Status DropDeadTiers(int stones);
  absl::Status FinishGathering();
  absl::Status FinishWrite(std::future<absl::Status>& writing);
  uint64_t PayloadBytes(int stones, const TierRange& r) const;
  bool Mine(int stones, int t) const;
  absl::Status Agree(const absl::Status& status);

  const SolveParts parts_;
  const TierStore& store_;
  Cluster& cluster_;
  const bool resume_;
  const uint64_t reach_window_;
  const bool keep_;   // rank 0: gathers layers, keeps stats
  const bool drops_;  // the sink keeps its layers on disk
  // The payloads of the tier being solved and the tier being written
  // (alternately), and of the tier last gathered.
  std::string payloads_[2];
  uint64_t solved_tiers_ = 0;
  uint64_t joined_bytes_ = 0;
  std::string gather_buffer_;
  TierCache children_;  // the tiers of the layer below being read
  // The layer being gathered; last, so that it is waited for before
  // anything it uses is destroyed.
  std::future<absl::Status> gathering_;
};

}  // namespace mnk::retrograde_internal

#endif  // MNK_SOLVER_RETROGRADE_TIERED_SOLVER_H_
