#include "solver/solve_plan.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/cli/cli.h"
#include "rules/index/index.h"
#include "store/layer_sink.h"
#include "store/tier_store.h"

namespace mnk {
namespace {

// What a process holds besides its tiers: the program, its libraries
// (Open MPI's among them), the index's tables, zstd's contexts (measured:
// a solve_mpi rank of 5x4 gravity, whose tiers are small).
constexpr uint64_t kProcessBytes = uint64_t{20} << 20;
// A tier's head: its counts (tiered_solver.h).
constexpr uint64_t kHeadBytes = 72;
// zstd's ratio on the work dir's payloads, gravity boards in tiers
// (measured: 5x4 to 6x5 gravity under mpirun, payload and file bytes of
// every process): the least and the most.
constexpr Range kFileRatio = {0.06, 0.25};
// Layers of more tiers than this are sampled: windows of consecutive tiers.
constexpr uint64_t kMaxTiers = 20000;
constexpr uint64_t kWindow = 64;

uint64_t Words(uint64_t indices) { return (indices + 63) / 64 * 8; }

class Planner {
 public:
  Planner(const Game& game, const SolveOptions& options, int processes)
      : game_(game),
        index_(game),
        tiers_(game, index_, options.tier_indices),
        sink_(LayerSink::Make(game, index_, options.layout, /*keep=*/false)),
        forward_(!game.reachability_is_local() || options.forward_reachability),
        drops_(options.layout.layout() == Layout::kCompressed),
        window_(ReachWindow(game, options, processes)),
        n_(processes) {
    plan_.processes = n_;
    plan_.process.resize(n_);
    plan_.layers.resize(game.cells() + 1);
  }

  SolvePlan Plan() {
    if (forward_) {
      for (int l = 0; l < game_.cells(); ++l) Mark(l);
    }
    for (int l = game_.cells(); l >= 0; --l) Solve(l);
    Disk();
    return plan_;
  }

 private:
  uint64_t Payload(int layer, uint64_t count) const {
    return kHeadBytes + count * (1 + sink_->ExtraBytes(layer));
  }
  uint64_t MostTier(int layer) const {
    return std::min(tiers_.tier_indices(), index_.layer_size(layer));
  }
  void Hold(ProcessPlan& p, uint64_t bytes, int layer, bool marking) {
    if (!marking) p.solving_memory = std::max(p.solving_memory, bytes);
    if (bytes > p.memory) {
      p.memory = bytes;
      p.memory_layer = layer;
      p.memory_marking = marking;
    }
  }

  // Calls visit(t, fresh) for the tiers of `layer`, or, past kMaxTiers, for
  // windows of kWindow consecutive ones spread over the layer (`fresh` at
  // each window's first): how many tiers each visited one stands for.
  template <typename Visit>
  double ForTiers(int layer, Visit visit) const {
    const uint64_t tiers = tiers_.Tiers(layer);
    if (tiers <= kMaxTiers) {
      for (uint64_t t = 0; t < tiers; ++t) visit(t, t == 0);
      return 1;
    }
    const uint64_t windows = kMaxTiers / kWindow;
    for (uint64_t w = 0; w < windows; ++w) {
      const uint64_t begin = w * (tiers - kWindow) / (windows - 1);
      for (uint64_t t = begin; t < begin + kWindow; ++t) visit(t, t == begin);
    }
    return static_cast<double>(tiers) / (windows * kWindow);
  }

  // The forward pass from `layer`, a window of the next layer at a time:
  // each process reads the bits of its tiers whose children reach the
  // window and holds the window's bits; they are joined; rank 0 writes
  // them.
  void Mark(int layer) {
    LayerPlan& lp = plan_.layers[layer];
    const uint64_t size = index_.layer_size(layer + 1);
    const uint64_t window = std::min(size, window_);
    std::vector<uint64_t> read(n_, 0);
    const double scale = ForTiers(layer, [&](uint64_t t, bool) {
      const TierRange r = tiers_.Tier(layer, static_cast<int>(t));
      uint64_t windows = 1;
      if (window < size) {
        const std::vector<uint64_t> children =
            tiers_.ChildTierNumbers(layer, r);
        windows = children.empty()
                      ? 0
                      : ((children.back() << tiers_.shift()) / window) -
                            ((children.front() << tiers_.shift()) / window) + 1;
      }
      if (layer > 0)
        read[Owner(layer, static_cast<int>(t))] += windows * Words(r.count);
    });
    uint64_t bits = 0;
    for (uint64_t first = 0; first < size; first += window) {
      bits += Words(std::min(size, first + window) - first);
    }
    for (int r = 0; r < n_; ++r) {
      ProcessPlan& p = plan_.process[r];
      const uint64_t scaled = static_cast<uint64_t>(read[r] * scale);
      p.read += scaled;
      lp.read += scaled;
      if (n_ > 1) {
        p.joined += bits;
        lp.joined += bits;
      }
      // Open MPI's all-reduce of the bits in place holds a copy of them:
      // whole on rank 0 (a heap profile of four ranks), half on the others
      // (their peaks on 2, 4 and 8 ranks).
      const uint64_t held = Words(window);
      const uint64_t joining = n_ == 1 ? 0 : r == 0 ? held : held / 2;
      Hold(p, kProcessBytes + held + joining + Words(MostTier(layer)), layer,
           true);
    }
    plan_.process[0].written += bits;
    lp.written += bits;
  }

  // Layer `layer` solved: each process its tiers (their bits, the child
  // tiers they read, kept while the next tier needs them), then rank 0
  // gathers the layer (and, for a compressed table, reads each even tier
  // twice more for its symbols).
  void Solve(int layer) {
    LayerPlan& lp = plan_.layers[layer];
    const int tiers = tiers_.Tiers(layer);
    std::vector<uint64_t> solved(n_, 0), read(n_, 0), written(n_, 0);
    std::vector<uint64_t> buffers(n_, 0);
    std::vector<std::vector<uint64_t>> held(n_);
    const double scale = ForTiers(layer, [&](uint64_t t, bool fresh) {
      if (fresh) held.assign(n_, {});
      const int r = Owner(layer, static_cast<int>(t));
      const TierRange range = tiers_.Tier(layer, static_cast<int>(t));
      ++solved[r];
      written[r] += Payload(layer, range.count);
      if (forward_ && layer > 0) read[r] += Words(range.count);
      if (layer == game_.cells()) return;
      std::vector<uint64_t> needed = tiers_.ChildTierNumbers(layer, range);
      for (uint64_t c : needed) {
        if (!std::binary_search(held[r].begin(), held[r].end(), c)) {
          read[r] += Payload(layer + 1,
                             tiers_.Tier(layer + 1, static_cast<int>(c)).count);
        }
      }
      buffers[r] = std::max<uint64_t>(buffers[r], needed.size());
      held[r] = std::move(needed);
    });
    for (int r = 0; r < n_; ++r) {
      ProcessPlan& p = plan_.process[r];
      const auto scaled = [&](uint64_t v) {
        return static_cast<uint64_t>(static_cast<double>(v) * scale);
      };
      p.tiers += scaled(solved[r]);
      p.written += scaled(written[r]);
      p.read += scaled(read[r]);
      lp.tiers += scaled(solved[r]);
      lp.written += scaled(written[r]);
      lp.read += scaled(read[r]);
      payload_ = std::max(payload_, Payload(layer, MostTier(layer)));
      uint64_t memory = kProcessBytes + 3 * payload_ + Words(MostTier(layer)) +
                        3 * MostTier(layer);
      if (layer < game_.cells()) {
        memory += buffers[r] * Payload(layer + 1, MostTier(layer + 1));
      }
      Hold(p, memory, layer, false);
    }
    // Rank 0 gathers: every tier read once, an even layer's twice more
    // when a compressed table is encoded from them.
    const uint64_t layer_payload =
        static_cast<uint64_t>(tiers) * kHeadBytes +
        index_.layer_size(layer) * (1 + sink_->ExtraBytes(layer));
    const uint64_t gather = layer_payload * (drops_ && layer % 2 == 0 ? 3 : 1);
    plan_.process[0].read += gather;
    lp.read += gather;
  }

  // The work dir at its fullest: after the forward pass every layer's
  // bits; as layer L is solved, the bits of layers up to L + 1 and the
  // tiers of layers L to L + 2 (a compressed solve lets go of the rest).
  void Disk() {
    std::vector<uint64_t> bits(game_.cells() + 2, 0),
        solved(game_.cells() + 2, 0);
    for (int l = 0; l <= game_.cells(); ++l) {
      if (forward_ && l > 0) {
        for (int t = 0; t < tiers_.Tiers(l); ++t) {
          bits[l] += Words(tiers_.Tier(l, t).count);
        }
      }
      solved[l] = static_cast<uint64_t>(tiers_.Tiers(l)) * kHeadBytes +
                  index_.layer_size(l) * (1 + sink_->ExtraBytes(l));
    }
    uint64_t all_bits = 0;
    for (uint64_t b : bits) all_bits += b;
    uint64_t most = all_bits;
    uint64_t bits_left = all_bits, tiers_kept = 0;
    for (int l = game_.cells(); l >= 0; --l) {
      tiers_kept += solved[l];
      if (drops_ && l + 3 <= game_.cells()) tiers_kept -= solved[l + 3];
      if (drops_ && l + 2 <= game_.cells()) bits_left -= bits[l + 2];
      most = std::max(most, bits_left + tiers_kept);
    }
    plan_.disk = most;
  }

  int Owner(int layer, int t) const { return (t + layer) % n_; }

  const Game& game_;
  const PositionIndex index_;
  const TierLayout tiers_;
  const std::unique_ptr<LayerSink> sink_;
  const bool forward_;
  const bool drops_;
  const uint64_t window_;  // indices the forward pass marks at a time
  const int n_;
  uint64_t payload_ = 0;  // the largest payload solved so far
  SolvePlan plan_;
};

}  // namespace

SolvePlan PlanSolve(const Game& game, const SolveOptions& options,
                    int processes, double network) {
  SolvePlan plan = Planner(game, options, processes).Plan();
  for (const ProcessPlan& p : plan.process) {
    plan.exchanged += p.written + p.read + p.joined;
  }
  const double exchanged = static_cast<double>(plan.exchanged);
  plan.exchanged_files = Times(kFileRatio, exchanged);
  plan.disk_files = Times(kFileRatio, static_cast<double>(plan.disk));
  SolveOptions all = options;
  all.threads = options.threads * processes;
  plan.estimate = EstimateSolve(game, all);
  plan.network = network;
  if (options.layout.layout() == Layout::kCompressed) {
    const PositionIndex index(game);
    const uint64_t widest_even = index.widest_even_layer();
    // Twice the layer's sections: they are held beside their compressed
    // copy, written to the work dir as the layer is gathered and read back
    // as the table is written (a heap profile of rank 0, 6x5 gravity:
    // 120 MiB of sections in layer 22, 102 MiB compressed).
    plan.sections =
        Times(plan.estimate.table_bytes, 4.0 * widest_even / index.size());
  }
  // Rank 0 holds the sections while it solves, never while it marks.
  const ProcessPlan& root = plan.process[0];
  const auto most = [&](double sections) {
    return std::max(static_cast<double>(root.memory),
                    static_cast<double>(root.solving_memory) + sections);
  };
  plan.root_memory = {most(plan.sections.low), most(plan.sections.high)};
  // The busiest process's files over its link.
  uint64_t busiest = 0;
  for (const ProcessPlan& p : plan.process) {
    busiest = std::max(busiest, p.written + p.read + p.joined);
  }
  plan.exchange_seconds =
      Times(kFileRatio, static_cast<double>(busiest) / network);
  return plan;
}

std::string PlanReport(const Game& game, const SolveOptions& options,
                       const SolvePlan& plan) {
  std::string text = absl::StrCat(
      "plan: ", ToolName(), " ", game.spec().Name(), ", ",
      options.layout.name(), ", tiers of ", options.tier_indices, " indices, ",
      plan.processes, " processes of ", options.threads,
      options.threads == 1 ? " thread" : " threads", "\n");
  absl::StrAppendFormat(&text, "  %-8s %10s %11s %-17s %11s %11s %11s %11s\n",
                        "process", "tiers", "memory", "(where)", "solving",
                        "written", "read", "joined");
  for (size_t r = 0; r < plan.process.size(); ++r) {
    const ProcessPlan& p = plan.process[r];
    absl::StrAppendFormat(
        &text, "  %-8d %10d %11s %-17s %11s %11s %11s %11s\n", r, p.tiers,
        Bytes(p.memory),
        absl::StrCat(p.memory_marking ? "marking " : "solving ", "layer ",
                     p.memory_layer),
        Bytes(p.solving_memory), Bytes(p.written), Bytes(p.read),
        Bytes(p.joined));
  }
  absl::StrAppendFormat(&text, "  %-8s %10s %11s %11s %11s\n", "layer", "tiers",
                        "written", "read", "joined");
  for (size_t l = 0; l < plan.layers.size(); ++l) {
    const LayerPlan& lp = plan.layers[l];
    absl::StrAppendFormat(&text, "  %-8d %10d %11s %11s %11s\n", l, lp.tiers,
                          Bytes(lp.written), Bytes(lp.read), Bytes(lp.joined));
  }
  if (plan.sections.high > 0) {
    absl::StrAppend(&text, "  rank 0     ", ByteRange(plan.root_memory),
                    " at most: solving, it also holds up to ",
                    ByteRange(plan.sections),
                    " of the largest even layer's sections and their "
                    "compressed copy\n");
  }
  absl::StrAppend(&text, "  exchanged  ", Bytes(plan.exchanged),
                  " of payloads (files: ", ByteRange(plan.exchanged_files),
                  ")\n");
  absl::StrAppend(&text, "  work dir   ", Bytes(plan.disk),
                  " of payloads at its fullest (files: ",
                  ByteRange(plan.disk_files), ")\n");
  absl::StrAppend(&text, "  time       ", Durations(plan.estimate.seconds),
                  " solving, plus ", Durations(plan.exchange_seconds),
                  " for the busiest process's files at ",
                  Bytes(static_cast<uint64_t>(plan.network)), "/s\n");
  absl::StrAppend(&text, "  table      ", ByteRange(plan.estimate.table_bytes),
                  "\n");
  absl::StrAppend(
      &text,
      "payload bytes are the solver's own, walked tier by tier (layers of "
      "over 20,000 tiers sampled); files and time: rates measured on this "
      "machine (docs/figures.md)\n");
  return text;
}

}  // namespace mnk
