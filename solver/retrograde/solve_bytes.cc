#include "solver/retrograde/solve_bytes.h"

#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/numeric/bits.h"
#include "store/layer_sink.h"
#include "store/tier_store.h"

namespace mnk {
namespace retrograde_internal {
namespace {

// How many tiers the runs [first, last] of tier numbers cover together.
uint64_t TiersCovered(std::vector<std::pair<uint64_t, uint64_t>>& runs) {
  std::sort(runs.begin(), runs.end());
  uint64_t count = 0, next = 0;  // tiers counted, the first not counted
  for (const auto& [first, last] : runs) {
    if (last >= next) count += last + 1 - std::max(first, next);
    next = std::max(next, last + 1);
  }
  return count;
}

// A coarser bound than ChildTierBytes's, for boards of over 2^24 tiers
// (7,6,4 gravity with tiers of 2^20: 6.7e7), where walking every tier
// would take a minute: whole child shapes, those of the few shapes a tier
// meets, a playable cell each (such a board is refused for its size
// anyway).
uint64_t WholeChildShapesBytes(const Game& game, const PositionIndex& index,
                               uint64_t tier) {
  const uint64_t moves = game.spec().gravity ? game.width() : game.cells();
  uint64_t most = 0;
  for (int l = 0; l < game.cells(); ++l) {
    const uint64_t shapes = tier / index.patterns(l) + 2;
    most = std::max(
        most, std::min(index.layer_size(l + 1),
                       shapes * moves * (index.patterns(l + 1) + 2 * tier)));
  }
  return most;
}

// The most bytes of layer l + 1's tiers that a tier of layer l reads
// (TierStore::ChildTiers), over every tier of every layer: at most,
// through each move of each of its shapes, the tiers from its first
// pattern's child to its last one's (ChildTiers skips those of the gaps
// between); over the layers whose child shapes span a quarter tier or more
// (where they are smaller, a few tiers a playable cell).
// 6x6 gravity, tiers of 2^20: 75 tiers at most (layer 30).
uint64_t ChildTierBytes(const Game& game, const PositionIndex& index,
                        uint64_t tier) {  // a power of two
  const TierLayout layout(game, index, tier);
  uint64_t tiers = 0;
  for (int l = 0; l <= game.cells(); ++l) {
    tiers += (index.layer_size(l) + tier - 1) >> layout.shift();
  }
  if (tiers > (uint64_t{1} << 24)) {
    return WholeChildShapesBytes(game, index, tier);
  }
  uint64_t most = 2 * game.cells() * tier;
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // child tiers [first, last]
  for (int l = 0; l < game.cells(); ++l) {
    if (4 * index.patterns(l + 1) < tier || index.layer_size(l) == 0) continue;
    for (int t = 0; t < layout.Tiers(l); ++t) {
      runs.clear();
      layout.ForChildRuns(
          l, layout.Tier(l, t),
          [&](uint64_t child, uint64_t low, uint64_t high, int slot) {
            runs.emplace_back(
                (child + PositionIndex::ChildPattern(l, low, slot)) >>
                    layout.shift(),
                (child + PositionIndex::ChildPattern(l, high, slot)) >>
                    layout.shift());
          });
      most = std::max(
          most, TiersCovered(runs) * std::min(tier, index.layer_size(l + 1)));
    }
  }
  return most;
}

// The copies of the forward pass's bits a process holds: shared by
// processes, Open MPI's all-reduce in place copies them (whole on rank 0:
// a heap profile of 6x5 gravity on four ranks).
uint64_t BitCopies(int processes) { return processes > 1 ? 2 : 1; }

}  // namespace

uint64_t BytesNeeded(const Game& game, const PositionIndex& index,
                     const SolveOptions& options, bool forward) {
  const uint64_t widest = index.widest_layer();
  const bool in_tiers = !options.work_dir.empty();
  const uint64_t kept = LayerSink::MemoryBytes(index, options.layout, in_tiers);
  if (in_tiers) {
    // Solving, the tiers of the layer below that one tier reads (the
    // forward pass before it holds the next layer's reachable bits
    // instead, twice when shared); the buffers of a few tiers, at most 4
    // bytes an index (two being solved and written, one read back,
    // compressed copies of up to three in flight) and a tier's symbols.
    const int processes =
        options.cluster != nullptr ? options.cluster->size() : 1;
    const uint64_t tier = std::min(widest, options.tier_indices);
    const uint64_t window =
        std::min(widest, ReachWindow(index, options, processes));
    return kept +
           std::max(ChildTierBytes(game, index, options.tier_indices),
                    forward ? BitCopies(processes) * window / 8 : 0) +
           (6 * 4 + 3) * tier;
  }
  return kept + 2 * widest + (forward ? index.size() / 8 : 0);
}

uint64_t ReachWindow(const PositionIndex& index, const SolveOptions& options,
                     int processes) {
  const uint64_t widest = index.widest_layer();
  const uint64_t tier = options.tier_indices;
  const uint64_t rest =
      LayerSink::MemoryBytes(index, options.layout, /*in_tiers=*/true) +
      (6 * 4 + 3) * std::min(widest, tier);
  const uint64_t room = options.max_bytes > rest ? options.max_bytes - rest : 0;
  const uint64_t copies = BitCopies(processes);
  if (room >= copies * widest / 8) return widest;
  return std::max(tier, room * 8 / copies / tier * tier);
}

}  // namespace retrograde_internal

uint64_t DefaultMemoryLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t{16} << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 4 * 3;
}

absl::Status CheckSolvable(const Game& game) { return CheckTableCanHold(game); }

uint64_t ReachWindow(const Game& game, const SolveOptions& options,
                     int processes) {
  return retrograde_internal::ReachWindow(PositionIndex(game), options,
                                          processes);
}

uint64_t SolveBytes(const Game& game, const SolveOptions& options) {
  return retrograde_internal::BytesNeeded(
      game, PositionIndex(game), options,
      !game.reachability_is_local() || options.forward_reachability);
}

}  // namespace mnk
