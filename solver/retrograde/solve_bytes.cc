#include "solver/retrograde/solve_bytes.h"

#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "table/layer_sink.h"

namespace mnk {
namespace retrograde_internal {
namespace {

// The most bytes of layer l + 1's tiers that a tier of layer l reads
// (LoadChildren: every tier meeting a child shape of one of its shapes),
// over every tier of the layers whose child shapes span a quarter tier or
// more; elsewhere a few tiers a playable cell. Near the full board a child
// shape spans hundreds of tiers (6x6 gravity: 9.1e9 indices for the full
// board), and a tier reads each of them whole.
uint64_t ChildTierBytes(const Game& game, const PositionIndex& index,
                        uint64_t tier) {
  uint64_t most = 2 * game.cells() * tier;
  // Past a billion shapes (7,6,4 without gravity: 5e11 in a layer) the
  // walk below would take hours: the widest layer bounds it instead (such
  // a board is refused for its size anyway).
  uint64_t shapes = 0;
  for (int l = 0; l <= game.cells(); ++l) shapes += index.shapes(l);
  if (shapes > (uint64_t{1} << 30)) {
    for (int l = 0; l <= game.cells(); ++l) {
      most = std::max(most, index.layer_size(l));
    }
    return most;
  }
  // The child tiers of the current tier, as runs [first, last]: their
  // count once merged.
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  const auto count_runs = [&] {
    std::sort(runs.begin(), runs.end());
    uint64_t tiers = 0, next = 0;  // tiers counted, the first not counted
    for (const auto& [first, last] : runs) {
      if (last >= next) tiers += last + 1 - std::max(first, next);
      next = std::max(next, last + 1);
    }
    most = std::max(most, tiers * tier);
    runs.clear();
  };
  for (int l = 0; l < game.cells(); ++l) {
    const uint64_t patterns = index.patterns(l);
    const uint64_t child_patterns = index.patterns(l + 1);
    if (4 * child_patterns < tier || index.shapes(l) == 0) continue;
    uint64_t current = 0;  // the tier of layer l whose children are in runs
    Mask shape = index.Shape(l, 0);
    for (uint64_t s = 0; s < index.shapes(l); ++s) {
      // The first and last tiers of layer l this shape's indices lie in
      // (those between hold this shape alone: no more children).
      const uint64_t ends[2] = {s * patterns / tier,
                                ((s + 1) * patterns - 1) / tier};
      for (int e = 0; e < (ends[0] == ends[1] ? 1 : 2); ++e) {
        const uint64_t t = ends[e];
        if (t != current) {
          count_runs();
          current = t;
        }
        for (Mask m = game.Playable(shape); m != 0; m &= m - 1) {
          const uint64_t child = index.ShapeRank(shape | (m & -m));
          runs.emplace_back(child * child_patterns / tier,
                            ((child + 1) * child_patterns - 1) / tier);
        }
      }
      if (s + 1 < index.shapes(l)) shape = index.NextShape(shape);
    }
    count_runs();
  }
  return most;
}

}  // namespace

uint64_t BytesNeeded(const Game& game, const PositionIndex& index,
                     const SolveOptions& options, bool forward) {
  uint64_t widest = 0;
  for (int l = 0; l <= game.cells(); ++l) {
    widest = std::max(widest, index.layer_size(l));
  }
  const bool in_tiers = !options.work_dir.empty();
  const uint64_t kept = LayerSink::MemoryBytes(index, options.layout, in_tiers);
  if (in_tiers) {
    // Solving, the tiers of the layer below that one tier reads (the
    // forward pass before it holds the next layer's reachable bits
    // instead); the buffers of a few tiers, at most 4 bytes an index
    // (two being solved and written, one read back, compressed copies of
    // up to three in flight) and a tier's symbols.
    const uint64_t tier = std::min(widest, options.tier_indices);
    return kept +
           std::max(ChildTierBytes(game, index, tier),
                    forward ? widest / 8 : 0) +
           (6 * 4 + 3) * tier;
  }
  return kept + 2 * widest + (forward ? index.size() / 8 : 0);
}

}  // namespace retrograde_internal

uint64_t DefaultMemoryLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t{16} << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 4 * 3;
}

absl::Status CheckSolvable(const Game& game) { return CheckTableCanHold(game); }

uint64_t SolveBytes(const Game& game, const SolveOptions& options) {
  return retrograde_internal::BytesNeeded(
      game, PositionIndex(game), options,
      !game.reachability_is_local() || options.forward_reachability);
}

}  // namespace mnk
