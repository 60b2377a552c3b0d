#include "solver/retrograde/solver.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/parallel/huge_pages.h"
#include "base/parallel/parallel.h"
#include "solver/retrograde/layer_kernel.h"
#include "solver/retrograde/solve_bytes.h"
#include "solver/retrograde/tiered_solver.h"
#include "store/tier_store.h"
#include "store/work_dir.h"

namespace mnk {
namespace {

using retrograde_internal::Counts;
using retrograde_internal::FlatChildren;
using retrograde_internal::LayerKernel;
using retrograde_internal::Reached;
using retrograde_internal::SolveParts;
using retrograde_internal::StatsAdder;
using retrograde_internal::TieredSolver;

// The passes of a solve in memory, by this process alone: every layer's
// reachable bits kept (gravity), each layer solved in one pass from the
// bytes of the layer below, and handed to the sink whole.
class MemorySolver {
 public:
  explicit MemorySolver(const SolveParts& parts) : parts_(parts) {}

  // The reachable indices, by a forward pass from the empty board, layer by
  // layer (gravity, or when asked).
  absl::Status MarkReachable() {
    const int cells = parts_.game.cells();
    reached_.assign(cells + 1, {});
    reached_[0] = {1};  // the empty board
    for (int stones = 0; stones < cells; ++stones) {
      parts_.progress.SetPhase("marking", stones);
      parts_.progress.SetTier(1, 1);
      const int next = stones + 1;
      const uint64_t words = (parts_.index.layer_size(next) + 63) / 64;
      ReserveHugePages(reached_[next], words);
      reached_[next].assign(words, 0);
      parts_.kernel.MarkChildren(stones, 0, parts_.index.layer_size(stones),
                                 {reached_[stones].data(), 0},
                                 reached_[next].data());
    }
    return absl::OkStatus();
  }

  // Layer `stones`: every position's record from its children's, which are
  // final, what the layout keeps stored as each position is solved.
  absl::Status SolveLayer(int stones) {
    parts_.progress.SetPhase("solving", stones);
    parts_.progress.SetTier(1, 1);  // the whole layer at once
    const uint64_t offset = parts_.index.layer_offset(stones);
    const uint64_t size = parts_.index.layer_size(stones);
    // The buffers of the layers two above, reused: their pages are mapped
    // already (a fresh page costs a fault and a clearing), and the first is
    // as large as the widest layer, so none is ever moved.
    std::vector<uint8_t> layer = std::move(spare_layer_);
    ReserveHugePages(layer, parts_.index.widest_layer());
    layer.assign(size, 0);
    const Reached reach =
        parts_.forward ? Reached{reached_[stones].data(), 0} : Reached{};
    const FlatChildren children{child_layer_.data(), child_offset_};
    const Counts counts = std::visit(
        [&](auto keep) {
          return parts_.kernel.SolveIndices(stones, 0, size, reach, children,
                                            layer.data(), offset, keep);
        },
        parts_.sink.KeepLayer(stones, offset, size));
    if (parts_.forward) std::vector<uint64_t>().swap(reached_[stones]);
    parts_.stats.Add(stones, counts, parts_.kernel.index_visits());
    parts_.sink.Take(stones, 0, layer.data(), size, nullptr);
    if (stones == 0) parts_.stats.SetStart(layer[0]);
    absl::Status status = parts_.sink.LayerDone(stones, counts.playing(), 0);
    if (status.ok() && stones == 0) status = parts_.sink.Finish();
    spare_layer_ = std::move(child_layer_);
    child_layer_ = std::move(layer);
    child_offset_ = offset;
    return status;
  }

 private:
  const SolveParts parts_;
  // Forward pass: one bit an index, a vector a layer.
  std::vector<std::vector<uint64_t>> reached_;
  std::vector<uint8_t> child_layer_;  // bytes of the layer below
  std::vector<uint8_t> spare_layer_;  // a buffer for the next layer
  uint64_t child_offset_ = 0;         // the layer below's first index
};

// What a solve's work dir is for: a resumed solve must match it.
std::string Manifest(const Game& game, const SolveOptions& options) {
  return absl::StrFormat(
      "mnk solve tiers 3\ngame %s\nlayout %s\nremoteness %s\n"
      "tier_indices %d\nforward_reachability %s\n",
      game.spec().Name(), options.layout.name(),
      // "yes" for compact tables too, as the work dirs of earlier versions
      // say.
      options.layout == TableLayout::Compressed(false) ? "no" : "yes",
      options.tier_indices, options.forward_reachability ? "yes" : "no");
}

// The solve's work dir, if it has one: rank 0 opens it first (writing its
// manifest, and holding its lock); the others then join it.
absl::StatusOr<std::optional<WorkDir>> OpenWorkDir(const Game& game,
                                                   const SolveOptions& options,
                                                   Cluster& cluster) {
  std::optional<WorkDir> work_dir;
  if (options.work_dir.empty()) return work_dir;
  const std::string manifest = Manifest(game, options);
  for (const bool first : {true, false}) {
    absl::Status status;
    if ((cluster.rank() == 0) == first) {
      absl::StatusOr<WorkDir> opened =
          WorkDir::Open(options.work_dir, manifest,
                        first ? options.resume : true, "solve", !first);
      status = opened.status();
      if (opened.ok()) work_dir.emplace(*std::move(opened));
    }
    if (!cluster.AllOk(status.ok())) {
      return status.ok() ? absl::AbortedError(
                               "another process could not open the work dir")
                         : status;
    }
  }
  return work_dir;
}

// The options Solve() refuses, and why: every check in one place.
absl::Status CheckOptions(const Game& game, const PositionIndex& index,
                          const SolveOptions& options, const Cluster& cluster,
                          bool forward) {
  if (options.layout == TableLayout::Book()) {
    return absl::InvalidArgumentError(
        "a book is solved by SolveSparse (solver/retrograde/sparse.h)");
  }
  const uint64_t bytes =
      retrograde_internal::BytesNeeded(game, index, options, forward);
  if (bytes > options.max_bytes) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "solving %s needs %.1f GiB for %u indexed positions; the limit is "
        "%.1f GiB%s",
        game.spec().Name(), bytes / 1073741824.0, index.size(),
        options.max_bytes / 1073741824.0,
        options.layout == TableLayout::Compact()
            ? ""
            : " (the compact layout needs less)"));
  }
  if (absl::Status s = CheckTierIndices(options.tier_indices); !s.ok()) {
    return s;
  }
  if (cluster.size() > 1 && options.work_dir.empty()) {
    return absl::InvalidArgumentError(
        "a solve shared among processes needs a work dir that all of them "
        "can reach (--work-dir)");
  }
  return absl::OkStatus();
}

// kCancelled once `cancel` (when given) is set.
absl::Status CheckCancel(const Game& game, const std::atomic<bool>* cancel) {
  if (cancel == nullptr || !cancel->load()) return absl::OkStatus();
  return absl::CancelledError(
      absl::StrCat("the solve of ", game.spec().Name(), " was cancelled"));
}

// Marks the reachable positions if it must, then solves every layer from
// the full board down to the empty one, until `cancel` is set.
template <typename Solver>
absl::Status SolveLayers(Solver& solver, const Game& game, bool forward,
                         const std::atomic<bool>* cancel) {
  if (forward) {
    if (absl::Status s = solver.MarkReachable(); !s.ok()) return s;
  }
  for (int stones = game.cells(); stones >= 0; --stones) {
    if (absl::Status s = CheckCancel(game, cancel); !s.ok()) return s;
    if (absl::Status s = solver.SolveLayer(stones); !s.ok()) return s;
  }
  return CheckCancel(game, cancel);
}

}  // namespace

absl::StatusOr<Solution> Solve(const Game& game, const SolveOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (absl::Status s = CheckSolvable(game); !s.ok()) return s;
  Cluster alone;
  Cluster& cluster = options.cluster != nullptr ? *options.cluster : alone;
  const bool forward =
      !game.reachability_is_local() || options.forward_reachability;
  Solution solution(game, options.layout);
  if (absl::Status s =
          CheckOptions(game, solution.index, options, cluster, forward);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::optional<WorkDir>> work_dir =
      OpenWorkDir(game, options, cluster);
  if (!work_dir.ok()) return work_dir.status();
  std::optional<TierStore> store;
  if (work_dir->has_value()) {
    store.emplace(solution.game, solution.index, options.tier_indices,
                  **work_dir);
  }
  const bool keep = cluster.rank() == 0;
  solution.kept = LayerSink::Make(solution.game, solution.index, options.layout,
                                  keep, store.has_value() ? &*store : nullptr);
  {
    Progress progress(options.progress && keep, "solve " + game.spec().Name(),
                      solution.index.size() * (forward ? 2 : 1), "positions",
                      keep ? options.on_progress : ProgressCallback());
    const int threads = std::max(1, options.threads);
    LayerKernel kernel(solution.game, solution.index, threads, progress,
                       store.has_value() ? nullptr : options.cancel);
    StatsAdder stats(solution.game, solution.stats);
    const SolveParts parts{solution.game, solution.index, *solution.kept,
                           stats,         progress,       kernel,
                           threads,       forward};
    absl::Status status;
    if (store.has_value()) {
      TieredSolver solver(parts, *store, cluster, options.resume,
                          retrograde_internal::ReachWindow(
                              solution.index, options, cluster.size()));
      status = SolveLayers(solver, game, forward, options.cancel);
      const WorkDir::Traffic traffic = store->dir().traffic();
      solution.stats.file_written = traffic.file_written;
      solution.stats.payload_written = traffic.payload_written;
      solution.stats.file_read = traffic.file_read;
      solution.stats.payload_read = traffic.payload_read;
      solution.stats.joined = solver.joined_bytes();
    } else {
      MemorySolver solver(parts);
      status = SolveLayers(solver, game, forward, options.cancel);
    }
    if (!status.ok()) return status;
  }
  solution.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return solution;
}

}  // namespace mnk
