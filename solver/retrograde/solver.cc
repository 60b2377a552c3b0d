#include "solver/retrograde/solver.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstring>
#include <future>
#include <optional>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/parallel/parallel.h"
#include "rules/game/policy.h"
#include "rules/index/layer_walker.h"
#include "table/compressed.h"
#include "table/file_io.h"
#include "table/work_dir.h"

namespace mnk {
namespace {

// A position's byte in the layer arrays is the first byte of its details
// record (table/record.h): value << kRemotenessBits | remoteness; 0 for an
// unreachable position.
constexpr uint8_t kWinAtOnce = static_cast<uint8_t>(Value::kLoss)
                               << kRemotenessBits;

// A child's byte to the policy score of moving there, for the parent: one
// load instead of a switch.
struct ChildScores {
  int16_t score[256];
  ChildScores() {
    for (int b = 0; b < 256; ++b) {
      const Value v = Negate(static_cast<Value>(b >> kRemotenessBits));
      score[b] = v == Value::kUnreachable
                     ? -30000
                     : PolicyScore(v, (b & kMaxRemoteness) + 1);
    }
  }
};
const ChildScores kChildScores;

// What a solve counts, per worker and per tier, in this order (a tier's
// payload stores them so): the first eight are SolveStats' fields below.
enum Count : int {
  kReachable,
  kTerminal,
  kXWins,
  kOWins,
  kFullDraws,
  kWins,
  kDraws,
  kLosses,
  // Reachable positions left unchanged by a symmetry, summed over the
  // symmetries other than the identity (for the canonical count).
  kFixed,
  kCounts
};
constexpr uint64_t SolveStats::*kStatOf[kFixed] = {
    &SolveStats::reachable, &SolveStats::terminal,   &SolveStats::x_wins,
    &SolveStats::o_wins,    &SolveStats::full_draws, &SolveStats::wins,
    &SolveStats::draws,     &SolveStats::losses};

// Counts kept per worker and added up after each layer; a cache line each,
// so that workers do not share one.
struct alignas(64) Counts {
  uint64_t n[kCounts] = {};
  // Scratch for CountFixed: the last shape seen and the symmetries (bit s
  // for symmetries()[s]) that leave it unchanged.
  Mask shape = ~Mask{0};
  uint32_t shape_symmetries = 0;

  // Burnside's lemma: there are as many symmetry classes as positions fixed
  // by a symmetry, averaged over the symmetries. Only a symmetry fixing the
  // shape (the occupied cells) can fix a position; few do, and the walker
  // visits a shape's positions one after another, so this costs one shape
  // check a shape and a compare a position.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void CountFixed(const Game& game,
                                               const Position& p) {
    const Mask occupied = p.occupied();
    if (occupied != shape) {
      shape = occupied;
      shape_symmetries = 0;
      for (size_t s = 1; s < game.symmetries().size(); ++s) {
        if (game.TransformMask(occupied, static_cast<int>(s)) == occupied) {
          shape_symmetries |= uint32_t{1} << s;
        }
      }
    }
    for (uint32_t syms = shape_symmetries; syms != 0; syms &= syms - 1) {
      n[kFixed] += game.TransformMask(p.x, absl::countr_zero(syms)) == p.x;
    }
  }
  void Add(const Counts& c) {
    for (int k = 0; k < kCounts; ++k) n[k] += c.n[k];
  }
};

// The positions of a layer in play (reachable, not over): how sparse the
// layer's compressed sections are (BlockEntries).
uint64_t Playing(const Counts& c) { return c.n[kReachable] - c.n[kTerminal]; }

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

// The memory a solve needs (see Solve in solver.h).
uint64_t BytesNeeded(const Game& game, const PositionIndex& index,
                     const SolveOptions& options, bool forward) {
  uint64_t widest = 0, widest_even = 0;
  for (int l = 0; l <= game.cells(); ++l) {
    widest = std::max(widest, index.layer_size(l));
    if (l % 2 == 0) widest_even = std::max(widest_even, index.layer_size(l));
  }
  const Layout layout = options.layout.layout();
  const uint64_t records =
      layout == Layout::kCompact ? CompactLayout(index).bytes()
      : layout == Layout::kCompressed
          ? 0
          : RecordView::ValueBytes(index.size()) + 2 * index.size();
  if (!options.work_dir.empty()) {
    // Solving, the tiers of the layer below that one tier reads (the
    // forward pass before it holds the next layer's reachable bits
    // instead); the buffers of a few tiers, at most 4 bytes an index
    // (two being solved and written, one read back, compressed copies of
    // up to three in flight) and a tier's symbols.
    const uint64_t tier = std::min(widest, options.tier_indices);
    return records +
           std::max(ChildTierBytes(game, index, tier),
                    forward ? widest / 8 : 0) +
           (6 * 4 + 3) * tier;
  }
  // Compressed: the symbols of one even layer (value, move, remoteness);
  // the encoded sections are small beside them.
  return records + (layout == Layout::kCompressed ? 3 * widest_even : 0) +
         2 * widest + (forward ? index.size() / 8 : 0);
}

}  // namespace

uint64_t DefaultMemoryLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t{16} << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 4 * 3;
}

absl::Status CheckSolvable(const Game& game) { return CheckTableCanHold(game); }

uint64_t SolveBytes(const Game& game, const SolveOptions& options) {
  return BytesNeeded(
      game, PositionIndex(game), options,
      !game.reachability_is_local() || options.forward_reachability);
}

namespace {

// The counts of a tier on disk: kCounts little-endian uint64, in Count
// order.
constexpr size_t kCountBytes = kCounts * 8;

void AppendCounts(const Counts& c, std::string* out) {
  for (const uint64_t v : c.n) {
    char le[8];
    PutLittleEndian(le, v, 8);
    out->append(le, 8);
  }
}

Counts ReadCounts(const char* p) {
  Counts c;
  for (int k = 0; k < kCounts; ++k) c.n[k] = GetLittleEndian(p + 8 * k, 8);
  return c;
}

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

// A tier: indices [begin, end) of its layer (counted from the layer's
// first), [first, first + count) of the whole index.
struct Range {
  uint64_t begin, end, first, count;
};

// A layer's reachable bits, or a tier's of them: bit j % 64 of
// words[j / 64 - first_word] for the layer's index j. Null words: no
// forward pass, every index is tested by the rules (Game::CheckLines).
struct Reached {
  const uint64_t* words = nullptr;
  uint64_t first_word = 0;
};

// The bytes of the layer below, as the solver reads its children: one array
// (in memory), or the tiers of it that a work-dir solve has loaded (tier
// sizes are powers of two).
struct FlatChildren {
  const uint8_t* bytes;
  uint64_t first;  // index of bytes[0]
  uint8_t operator()(uint64_t i) const { return bytes[i - first]; }
};
struct TieredChildren {
  const uint8_t* const* tiers;  // tiers[t]: tier t's bytes, if loaded
  uint64_t first;               // the layer's first index
  int shift;                    // log2 of the tier size
  uint8_t operator()(uint64_t i) const {
    const uint64_t j = i - first;
    return tiers[j >> shift][j & ((uint64_t{1} << shift) - 1)];
  }
};

uint64_t WidestLayer(const PositionIndex& index) {
  uint64_t widest = 0;
  for (int l = 0; l <= index.cells(); ++l) {
    widest = std::max(widest, index.layer_size(l));
  }
  return widest;
}

// What a layout keeps of a solved position besides its layer byte (`byte`,
// drawn at the top of this file) and `move`, its best move (kNoMove when
// over): SolveIndices calls Solved(i, p, byte, move) for every reachable
// index i of its range (the others keep what they were given: records and
// bytes 0, moves kNoMove).
struct KeepNothing {  // compact tables, compressed odd layers
  void Solved(uint64_t, const Position&, uint8_t, int) const {}
};
struct KeepRecords {  // full tables in memory: every index's record
  RecordArrays* records;
  void Solved(uint64_t i, const Position&, uint8_t byte, int move) const {
    records->SetDetails(i, byte, move);
  }
};
struct KeepMoves {  // full tables in a work dir: the tier's best moves
  uint8_t* moves;   // of index base onwards, preset to kNoMove
  uint64_t base;
  void Solved(uint64_t i, const Position&, uint8_t, int move) const {
    moves[i - base] = static_cast<uint8_t>(move);
  }
};
struct KeepSymbols {  // compressed even layers: canonical positions not over
  const Game* game;
  CompressedLayerBuilder* symbols;  // of index base onwards
  uint64_t base;
  void Solved(uint64_t i, const Position& p, uint8_t byte, int move) const {
    if (move != kNoMove && game->IsCanonical(p)) {
      symbols->Set(i - base, static_cast<Value>(byte >> kRemotenessBits),
                   byte & kMaxRemoteness, move);
    }
  }
};

// One solve: the steps are the public methods, called in order by Solve().
//
// A tier on disk ("L<layer>-T<tier>", table/work_dir.h), its payload:
//   72 bytes   its Counts (AppendCounts)
//   n bytes    the layer bytes of its n indices (value << 6 | remoteness)
//   n bytes    full layout only: each index's best move (kNoMove: none)
//   2n or 3n   compressed layout, even layers only: the symbols of its
//              entries (CompressedLayerBuilder::Slice)
// "R<layer>-T<tier>" (gravity) holds a tier's reachable bits, one an index
// (the words holding them: PutReachTier), "M<layer>" says a layer's are all
// there; and compressed solves keep "S<layer>" and "D<layer>" for each
// layer done (PutDoneLayer).
class LayeredSolver {
 public:
  LayeredSolver(const SolveOptions& options, Solution& solution,
                const WorkDir* work_dir, Cluster& cluster)
      : game_(solution.game),
        index_(solution.index),
        solution_(solution),
        table_layout_(options.layout),
        forward_(!game_.reachability_is_local() ||
                 options.forward_reachability),
        drops_(work_dir != nullptr && Keeps(Layout::kCompressed)),
        keep_(cluster.rank() == 0),
        resume_(options.resume),
        threads_(std::max(1, options.threads)),
        tier_indices_(std::max<uint64_t>(1, options.tier_indices)),
        tier_shift_(absl::countr_zero(tier_indices_)),
        work_dir_(work_dir),
        cluster_(cluster),
        compact_layout_(index_),
        progress_(options.progress && keep_, "solve " + game_.spec().Name(),
                  index_.size() * (forward_ ? 2 : 1), "positions",
                  keep_ ? options.on_progress : ProgressCallback()) {
    solution_.stats.per_ply.assign(game_.cells() + 1, 0);
  }

  // Step 1 (gravity, or when asked): marks the reachable indices by a
  // forward pass from the empty board, layer by layer. In memory every
  // layer's bits are kept; with a work dir only the next layer's are held
  // whole (children land anywhere in it): the layer being expanded is read
  // a tier at a time, and the next one is written there a tier at a time.
  absl::Status MarkReachable() {
    if (!forward_) return absl::OkStatus();
    if (work_dir_ != nullptr) return MarkReachableInTiers();
    reached_.assign(game_.cells() + 1, {});
    reached_[0] = {1};  // the empty board
    for (int stones = 0; stones < game_.cells(); ++stones) {
      progress_.SetPhase("marking", stones);
      progress_.SetTier(1, 1);
      const int next = stones + 1;
      ReserveHugePages(reached_[next], Words(next));
      reached_[next].assign(Words(next), 0);
      MarkChildren(stones, 0, index_.layer_size(stones),
                   {reached_[stones].data(), 0}, reached_[next].data());
    }
    return absl::OkStatus();
  }

  // Step 2, for every layer from the full board down to the empty one:
  // every position's record from its children's, which are final.
  absl::Status SolveLayer(int stones) {
    progress_.SetPhase("solving", stones);
    if (work_dir_ != nullptr) return SolveLayerInTiers(stones);
    const absl::Status status = SolveLayerInMemory(
        stones, forward_ ? Reached{reached_[stones].data(), 0} : Reached{});
    if (forward_) std::vector<uint64_t>().swap(reached_[stones]);
    return status;
  }

 private:
  // Sets the bit in `next_bits` (all of layer stones + 1) of every child
  // of the positions of indices [begin, end) of layer `stones` that are
  // reached and not over.
  void MarkChildren(int stones, uint64_t begin, uint64_t end, Reached reached,
                    uint64_t* next_bits) {
    const uint64_t next_offset = index_.layer_offset(stones + 1);
    ForIndices(stones, begin, end, reached,
               [&](LayerWalker& walker, uint64_t, const Position& p, Counts&) {
                 if (game_.IsTerminal(p)) return;
                 walker.PrepareChildren();
                 for (Mask s = walker.legal(); s != 0; s &= s - 1) {
                   const uint64_t j =
                       walker.Child(absl::countr_zero(s)) - next_offset;
                   SetReached(&next_bits[j >> 6], uint64_t{1} << (j & 63));
                 }
               });
  }

  // The forward pass with a work dir: this process's tiers of each layer
  // expanded (their bits read from the work dir), the next layer's bits
  // joined among the processes, then written by rank 0 a tier at a time
  // ("R<layer>-T<tier>") with a mark that the layer is whole ("M<layer>").
  // Resuming, a layer so marked is not marked again.
  absl::Status MarkReachableInTiers() {
    for (int stones = 0; stones < game_.cells(); ++stones) {
      progress_.SetPhase("marking", stones);
      const int next = stones + 1;
      if (resume_ && cluster_.AllOk(work_dir_->Has(MarkName(next)))) {
        progress_.AddResumed(index_.layer_size(stones));
        continue;
      }
      std::vector<uint64_t> next_bits;
      ReserveHugePages(next_bits, Words(next));
      next_bits.assign(Words(next), 0);
      absl::Status status;
      const int tiers = Tiers(stones);
      for (int t = 0; t < tiers && status.ok(); ++t) {
        if (!Mine(stones, t)) continue;
        progress_.SetTier(t + 1, tiers);
        const Range r = Tier(stones, t);
        absl::StatusOr<std::vector<uint64_t>> bits = ReachTier(stones, t);
        if (!bits.ok()) {
          status = bits.status();
          break;
        }
        MarkChildren(stones, r.begin, r.end, {bits->data(), r.begin >> 6},
                     next_bits.data());
      }
      if (absl::Status s = Agree(status); !s.ok()) return s;
      if (cluster_.size() > 1) {
        cluster_.OrWords(next_bits.data(), next_bits.size());
      }
      if (keep_) status = PutReach(next, next_bits);
      if (absl::Status s = Agree(status); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // Layer `stones`' bits written to the work dir a tier at a time, on
  // every thread, then its mark.
  absl::Status PutReach(int stones, const std::vector<uint64_t>& bits) {
    std::vector<absl::Status> statuses(threads_);
    ParallelChunks(Tiers(stones), 1, threads_,
                   [&](uint64_t from, uint64_t to, int worker) {
                     for (uint64_t t = from; t < to; ++t) {
                       absl::Status s = PutReachTier(stones, t, bits);
                       if (statuses[worker].ok()) statuses[worker] = s;
                     }
                   });
    progress_.SetDisk(work_dir_->bytes_written());
    for (const absl::Status& s : statuses) {
      if (!s.ok()) return s;
    }
    return work_dir_->Put(MarkName(stones), "");
  }

  // Tier t's bits of a layer: the words holding its indices, any bit of
  // a neighbouring tier in them cleared (tiers of fewer than 64 indices
  // share words).
  absl::Status PutReachTier(int stones, uint64_t t,
                            const std::vector<uint64_t>& bits) const {
    const Range r = Tier(stones, static_cast<int>(t));
    std::vector<uint64_t> words(bits.begin() + (r.begin >> 6),
                                bits.begin() + ((r.end - 1) >> 6) + 1);
    words.front() &= ~uint64_t{0} << (r.begin & 63);
    if ((r.end & 63) != 0) words.back() &= ~(~uint64_t{0} << (r.end & 63));
    return work_dir_->Put(
        ReachName(stones, static_cast<int>(t)),
        absl::string_view(reinterpret_cast<const char*>(words.data()),
                          words.size() * 8));
  }

  // Tier t's reachable bits of layer `stones`, from the work dir (words
  // from r.begin / 64 on, as PutReachTier wrote them).
  absl::StatusOr<std::vector<uint64_t>> ReachTier(int stones, int t) const {
    if (stones == 0) return std::vector<uint64_t>{1};  // the empty board
    const Range r = Tier(stones, t);
    const uint64_t words = ((r.end - 1) >> 6) - (r.begin >> 6) + 1;
    const std::string name = ReachName(stones, t);
    absl::StatusOr<std::string> kept = work_dir_->Get(name);
    if (kept.ok() && kept->size() != words * 8) {
      kept = absl::DataLossError(
          absl::StrCat(name, " in ", work_dir_->path(), " has the wrong size"));
    }
    if (!kept.ok()) {
      return absl::DataLossError(absl::StrCat(
          "the reachable positions of tier ", name, " are lost (",
          kept.status().message(),
          "); they cannot be found again from this work dir: start the "
          "solve again in an empty one"));
    }
    std::vector<uint64_t> bits(words);
    std::memcpy(bits.data(), kept->data(), kept->size());
    return bits;
  }

  // This process alone, nothing on disk: the layer in one pass, records
  // and symbols stored as each position is solved.
  absl::Status SolveLayerInMemory(int stones, Reached reach) {
    progress_.SetTier(1, 1);  // the whole layer at once
    const uint64_t offset = index_.layer_offset(stones);
    // The buffers of the layers two above, reused: their pages are mapped
    // already (a fresh page costs a fault and a clearing), and the first is
    // as large as the widest layer, so none is ever moved.
    std::vector<uint8_t> layer = std::move(spare_layer_);
    ReserveHugePages(layer, widest_layer_);
    layer.assign(index_.layer_size(stones), 0);
    CompressedLayerBuilder* builder = nullptr;
    if (KeepsSymbols(stones)) {
      if (!builder_.has_value()) {
        builder_.emplace(game_, 0, table_layout_.has_remoteness());
      }
      builder = &*builder_;
      builder->Reset(layer.size());
    }
    const auto solve = [&](auto keep) {
      return SolveIndices(stones, 0, index_.layer_size(stones), reach,
                          FlatChildren{child_layer_.data(), child_offset_},
                          layer.data(), offset, keep);
    };
    const Counts counts =
        Keeps(Layout::kFull) ? solve(KeepRecords{&solution_.records})
        : builder != nullptr ? solve(KeepSymbols{&game_, builder, offset})
                             : solve(KeepNothing{});
    AddCounts(stones, counts);
    StoreValues(stones, layer.data(), 0, layer.size());
    if (builder != nullptr) {
      layers_[stones / 2] = builder->Encode(Playing(counts));
      if (stones == 0) solution_.sections = ArrangeSections(std::move(layers_));
    }
    spare_layer_ = std::move(child_layer_);
    child_layer_ = std::move(layer);
    child_offset_ = offset;
    return absl::OkStatus();
  }

  // With a work dir: this process's tiers solved and written (or, resuming,
  // found there whole); each reads only the tiers of the layer below that
  // hold its children. Then, once every process is done, rank 0 reads the
  // layer's tiers back for its counts and the records it keeps; compressed
  // sections are encoded from the tiers in two passes (RunEncoder), so no
  // layer is ever held whole.
  //
  // Compressed tables keep nothing else in memory: rank 0 writes what it
  // keeps of a layer to the work dir ("D<layer>") and then drops what no
  // step needs any more (the tiers of the layer below, the layer's
  // reachable bits), so that the work dir holds about two layers' tiers.
  // Resuming, a layer so written is taken from there.
  //
  // Rank 0 gathers a layer on a thread of its own while the layer above it
  // is solved (the gathering alone would leave a core idle); the gathering
  // of a layer waits for the one before, and layer 0's is the last.
  absl::Status SolveLayerInTiers(int stones) {
    if (drops_ && resume_ && cluster_.AllOk(work_dir_->Has(DoneName(stones)))) {
      if (absl::Status s = Agree(FinishGathering()); !s.ok()) return s;
      return Agree(keep_ ? TakeDoneLayer(stones) : absl::OkStatus());
    }
    if (absl::Status s = Agree(SolveMyTiers(stones)); !s.ok()) return s;
    if (absl::Status s = Agree(FinishGathering()); !s.ok()) return s;
    if (stones == 0) return Agree(keep_ ? GatherLayer(0) : absl::OkStatus());
    if (keep_) {
      gathering_ = std::async(std::launch::async,
                              [this, stones] { return GatherLayer(stones); });
    }
    return absl::OkStatus();
  }

  // Waits for the layer being gathered, if any: its status.
  absl::Status FinishGathering() {
    return gathering_.valid() ? gathering_.get() : absl::OkStatus();
  }

  // This process's tiers of layer `stones` solved and written to the work
  // dir (or, resuming, found there whole).
  absl::Status SolveMyTiers(int stones) {
    const int tiers = Tiers(stones);
    absl::Status status;
    std::future<absl::Status> writing;
    for (int t = 0; t < tiers && status.ok(); ++t) {
      if (!Mine(stones, t)) continue;
      progress_.SetTier(t + 1, tiers);
      const Range r = Tier(stones, t);
      if (resume_) {
        absl::StatusOr<uint64_t> kept = work_dir_->Check(TierName(stones, t));
        if (kept.ok() && *kept == PayloadBytes(stones, r)) {
          ++solution_.stats.tiers_loaded;
          progress_.AddResumed(r.count);
          continue;
        }
        if (kept.status().code() != absl::StatusCode::kNotFound) {
          ++solution_.stats.tiers_redone;
        }
      }
      status = LoadChildren(stones, r);
      if (!status.ok()) break;
      std::vector<uint64_t> bits;
      if (forward_) {
        absl::StatusOr<std::vector<uint64_t>> reach = ReachTier(stones, t);
        if (!reach.ok()) {
          status = reach.status();
          break;
        }
        bits = *std::move(reach);
      }
      // Each tier is compressed and written on a thread of its own while the
      // next one is solved into the other buffer (one write in flight).
      std::string& payload = payloads_[solved_tiers_++ % 2];
      SolveTier(stones, r,
                forward_ ? Reached{bits.data(), r.begin >> 6} : Reached{},
                payload);
      status = FinishWrite(writing);
      if (!status.ok()) break;
      writing = std::async(std::launch::async,
                           [this, name = TierName(stones, t),
                            payload = absl::string_view(payload)] {
                             return work_dir_->Put(name, payload);
                           });
      ++solution_.stats.tiers_solved;
    }
    if (absl::Status s = FinishWrite(writing); status.ok()) status = s;
    child_tiers_.clear();
    child_pointers_.clear();
    return status;
  }

  // Rank 0, once every process solved its tiers of layer `stones`: the
  // layer read back for its counts and the records it keeps; compressed
  // sections encoded from the tiers in two more passes (RunEncoder), so no
  // layer is ever held whole.
  absl::Status GatherLayer(int stones) {
    const int tiers = Tiers(stones);
    absl::Status status;
    std::vector<RunEncoder> encoders;
    Counts counts;
    // Pass 1 over the layer's tiers: counts, records, values; then for the
    // symbols of compressed even layers (their blocks sized by the counts),
    // pass 2: their frequencies, pass 3: their codes.
    for (int pass = 1; pass <= (KeepsSymbols(stones) ? 3 : 1); ++pass) {
      if (pass == 2) {
        encoders = CompressedLayerBuilder::Encoders(
            game_, table_layout_.has_remoteness(), index_.layer_size(stones),
            Playing(counts));
      }
      for (int t = 0; t < tiers && status.ok(); ++t) {
        const Range r = Tier(stones, t);
        const std::string name = TierName(stones, t);
        // A compressed table keeps nothing of an index but its symbols:
        // pass 1 reads only the tiers' counts (and the start's byte).
        absl::StatusOr<uint64_t> size =
            ReadTier(name, pass == 1 && Keeps(Layout::kCompressed));
        if (size.ok() && *size != PayloadBytes(stones, r)) {
          size = absl::DataLossError(
              absl::StrCat("tier ", name, " in ", work_dir_->path(),
                           " has the wrong size for this solve"));
        }
        status = size.status();
        if (status.ok()) {
          Load(pass, stones, r, gather_buffer_, encoders, counts);
        }
      }
    }
    if (!status.ok()) return status;
    AddCounts(stones, counts);
    // Finish() lets go of each encoder's stream as its section is made.
    for (RunEncoder& e : encoders) {
      layers_[stones / 2].push_back(e.Finish());
      if (!e.fits()) {
        // Like a game whose index is too big (CheckSolvable): no table
        // of it can be written.
        return absl::InvalidArgumentError(absl::StrCat(
            "layer ", stones,
            ": a section's stream passes 4 GiB, past what "
            "its 32-bit block offsets can hold (the table format's limit)"));
      }
    }
    encoders.clear();
    if (drops_) {
      if (absl::Status s = PutDoneLayer(stones, counts); !s.ok()) return s;
      std::vector<std::string>().swap(layers_[stones / 2]);
      if (absl::Status s = DropDeadTiers(stones); !s.ok()) return s;
    }
    return stones == 0 ? ArrangeLayers() : absl::OkStatus();
  }

  // What rank 0 keeps of a gathered layer, written to the work dir:
  //   "S<layer>" (even layers): each of its sections, an 8-byte
  //              little-endian size and the bytes;
  //   "D<layer>", written last: its Counts (AppendCounts), then one byte,
  //              the empty board's layer byte (layer 0; else 0).
  absl::Status PutDoneLayer(int stones, const Counts& counts) {
    if (KeepsSymbols(stones)) {
      // Written as parts, never joined: a large layer's sections are
      // gigabytes.
      const std::vector<std::string>& sections = layers_[stones / 2];
      std::vector<std::array<char, 8>> sizes(sections.size());
      std::vector<absl::string_view> parts;
      for (size_t k = 0; k < sections.size(); ++k) {
        PutLittleEndian(sizes[k].data(), sections[k].size(), 8);
        parts.emplace_back(sizes[k].data(), 8);
        parts.emplace_back(sections[k]);
      }
      if (absl::Status s = work_dir_->PutParts(SectionsName(stones), parts);
          !s.ok()) {
        return s;
      }
    }
    std::string done;
    AppendCounts(counts, &done);
    const SolveStats& stats = solution_.stats;
    done.push_back(stones == 0 ? static_cast<char>(RecordArrays::Details(
                                     stats.start_value, stats.start_remoteness))
                               : '\0');
    absl::Status status = work_dir_->Put(DoneName(stones), done);
    progress_.SetDisk(work_dir_->bytes_written());
    return status;
  }

  // Resuming: a layer PutDoneLayer wrote, taken back (its counts; its
  // sections are read at the end).
  absl::Status TakeDoneLayer(int stones) {
    absl::StatusOr<std::string> done = work_dir_->Get(DoneName(stones));
    if (done.ok() && done->size() != kCountBytes + 1) {
      done = absl::DataLossError("the wrong size");
    }
    if (!done.ok()) {
      return LostLayer(*work_dir_, DoneName(stones), done.status());
    }
    AddCounts(stones, ReadCounts(done->data()));
    ++solution_.stats.layers_loaded;
    progress_.AddResumed(index_.layer_size(stones));
    if (stones == 0) {
      const uint8_t start = static_cast<uint8_t>((*done)[kCountBytes]);
      solution_.stats.start_value =
          static_cast<Value>(start >> kRemotenessBits);
      solution_.stats.start_remoteness = start & kMaxRemoteness;
    }
    if (absl::Status s = DropDeadTiers(stones); !s.ok()) return s;
    return stones == 0 ? ArrangeLayers() : absl::OkStatus();
  }

  // Once layer `stones` is done: the tiers of the layer below (nothing
  // reads them again) and the layer's reachable bits removed. Again on
  // resuming, for what a killed run left.
  absl::Status DropDeadTiers(int stones) {
    for (int t = 0; forward_ && t < Tiers(stones); ++t) {
      if (absl::Status s = work_dir_->Remove(ReachName(stones, t)); !s.ok()) {
        return s;
      }
    }
    for (int t = 0; stones < game_.cells() && t < Tiers(stones + 1); ++t) {
      if (absl::Status s = work_dir_->Remove(TierName(stones + 1, t));
          !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }

  // Compressed, after layer 0: the file's sections from every even
  // layer's; with a work dir, read from there a layer at a time as the
  // table is written (all of them might not fit in memory), their sizes
  // taken now.
  absl::Status ArrangeLayers() {
    if (!Keeps(Layout::kCompressed)) return absl::OkStatus();
    if (!drops_) {
      solution_.sections = ArrangeSections(std::move(layers_));
      return absl::OkStatus();
    }
    const size_t layers = layers_.size();
    const size_t kinds = table_layout_.has_remoteness() ? 3 : 2;
    auto read = std::make_shared<LayerSections>(*work_dir_, kinds);
    SectionSource& source = solution_.sections_in_work_dir;
    source.sizes.resize(kinds * layers);
    for (size_t layer = 0; layer < layers; ++layer) {
      absl::StatusOr<absl::string_view> first = read->Get(layer, 0);
      if (!first.ok()) return first.status();
      for (size_t kind = 0; kind < kinds; ++kind) {
        source.sizes[kind * layers + layer] = read->Get(layer, kind)->size();
      }
    }
    source.fetch = [read, layers](size_t section) {
      return read->Get(section % layers, section / layers);
    };
    return absl::OkStatus();
  }

  // The sections of the even layers kept in a work dir ("S<layer>",
  // PutDoneLayer), the last layer read held.
  class LayerSections {
   public:
    LayerSections(const WorkDir& work_dir, size_t kinds)
        : work_dir_(work_dir), kinds_(kinds) {}
    // Section `kind` of layer 2 * `layer`.
    absl::StatusOr<absl::string_view> Get(size_t layer, size_t kind) {
      if (layer != layer_) {
        layer_ = layer;
        if (absl::Status s = Read(); !s.ok()) {
          layer_ = -1;
          return s;
        }
      }
      return sections_[kind];
    }

   private:
    absl::Status Read() {
      const std::string name = SectionsName(2 * static_cast<int>(layer_));
      sections_.clear();
      absl::Status status = work_dir_.Get(name, bytes_);
      absl::string_view rest = bytes_;
      while (status.ok() && rest.size() >= 8) {
        const uint64_t size = GetLittleEndian(rest.data(), 8);
        if (size > rest.size() - 8) break;
        sections_.push_back(rest.substr(8, size));
        rest.remove_prefix(8 + size);
      }
      if (status.ok() && (!rest.empty() || sections_.size() != kinds_)) {
        status = absl::DataLossError("not a layer's sections");
      }
      return status.ok() ? status : LostLayer(work_dir_, name, status);
    }

    const WorkDir work_dir_;
    const size_t kinds_;
    size_t layer_ = -1;
    std::string bytes_;
    std::vector<absl::string_view> sections_;
  };

  // A layer's file that should be in the work dir but is not, or damaged:
  // the tiers it came from are gone.
  static absl::Status LostLayer(const WorkDir& work_dir,
                                const std::string& name,
                                const absl::Status& why) {
    return absl::DataLossError(absl::StrCat(
        name, " in ", work_dir.path(), " is lost (", why.message(),
        "); the tiers it came from are gone: start the solve again in an "
        "empty work dir"));
  }

  // Reads the tiers of layer stones + 1 that hold the children of tier `r`
  // of layer `stones` (every child of a shape lies in one child shape a
  // move), and lets go of those it no longer needs.
  absl::Status LoadChildren(int stones, const Range& r) {
    if (stones == game_.cells()) return absl::OkStatus();
    const int below = stones + 1;
    const int shift = tier_shift_;
    child_tiers_.resize(Tiers(below));
    child_pointers_.resize(Tiers(below), nullptr);
    std::vector<bool> needed(Tiers(below), false);
    const uint64_t patterns = index_.patterns(stones);
    const uint64_t child_patterns = index_.patterns(below);
    const uint64_t last_shape = (r.end - 1) / patterns;
    Mask occupied = index_.Shape(stones, r.begin / patterns);
    for (uint64_t shape = r.begin / patterns;; ++shape) {
      for (Mask s = game_.Playable(occupied); s != 0; s &= s - 1) {
        const uint64_t child = index_.ShapeRank(occupied | (s & -s));
        const uint64_t first = child * child_patterns >> shift;
        const uint64_t last = ((child + 1) * child_patterns - 1) >> shift;
        for (uint64_t t = first; t <= last; ++t) needed[t] = true;
      }
      if (shape == last_shape) break;
      occupied = index_.NextShape(occupied);
    }
    // Buffers let go of are reused (fresh pages cost a fault each).
    std::vector<std::string> spare;
    for (size_t t = 0; t < needed.size(); ++t) {
      if (!needed[t] && child_pointers_[t] != nullptr) {
        spare.push_back(std::move(child_tiers_[t]));
        child_tiers_[t] = std::string();
        child_pointers_[t] = nullptr;
      }
    }
    // Only a tier's counts and layer bytes are decompressed: not the
    // symbols an even layer's tier holds after them.
    for (size_t t = 0; t < needed.size(); ++t) {
      if (!needed[t] || child_pointers_[t] != nullptr) continue;
      const Range c = Tier(below, static_cast<int>(t));
      const std::string name = TierName(below, static_cast<int>(t));
      if (!spare.empty()) {
        child_tiers_[t] = std::move(spare.back());
        spare.pop_back();
      }
      absl::StatusOr<uint64_t> size =
          work_dir_->GetHead(name, kCountBytes + c.count, child_tiers_[t]);
      if (!size.ok()) return size.status();
      if (*size != PayloadBytes(below, c)) {
        return absl::DataLossError(absl::StrCat(
            "tier ", name, " in ", work_dir_->path(), " has the wrong size"));
      }
      child_pointers_[t] =
          reinterpret_cast<const uint8_t*>(child_tiers_[t].data()) +
          kCountBytes;
    }
    return absl::OkStatus();
  }

  // The payload of a tier on disk (see the class comment).
  uint64_t PayloadBytes(int stones, const Range& r) const {
    const int symbols = !KeepsSymbols(stones)            ? 0
                        : table_layout_.has_remoteness() ? 3
                                                         : 2;
    return kCountBytes +
           r.count * (1 + (Keeps(Layout::kFull) ? 1 : 0) + symbols);
  }

  // Waits for the tier being written, if any: its status.
  absl::Status FinishWrite(std::future<absl::Status>& writing) {
    if (!writing.valid()) return absl::OkStatus();
    absl::Status status = writing.get();
    progress_.SetDisk(work_dir_->bytes_written());
    return status;
  }

  // Solves tier `r` of layer `stones` (its children loaded) into `payload`,
  // for the work dir (its memory reused: fresh pages cost a fault each).
  void SolveTier(int stones, const Range& r, Reached reach,
                 std::string& payload) {
    payload.resize(PayloadBytes(stones, r));
    uint8_t* const bytes = reinterpret_cast<uint8_t*>(&payload[kCountBytes]);
    std::memset(bytes, 0, r.count);
    uint8_t* const moves = bytes + r.count;  // full layout only
    if (Keeps(Layout::kFull)) std::memset(moves, kNoMove, r.count);
    CompressedLayerBuilder* symbols = nullptr;
    if (KeepsSymbols(stones)) {
      if (!builder_.has_value()) {
        builder_.emplace(game_, 0, table_layout_.has_remoteness());
      }
      symbols = &*builder_;
      symbols->Reset(r.count);
    }
    const TieredChildren children{
        child_pointers_.data(),
        stones < game_.cells() ? index_.layer_offset(stones + 1) : 0,
        tier_shift_};
    const auto solve = [&](auto keep) {
      return SolveIndices(stones, r.begin, r.end, reach, children, bytes,
                          r.first, keep);
    };
    const Counts counts =
        Keeps(Layout::kFull) ? solve(KeepMoves{moves, r.first})
        : symbols != nullptr ? solve(KeepSymbols{&game_, symbols, r.first})
                             : solve(KeepNothing{});
    std::string head;
    AppendCounts(counts, &head);
    payload.replace(0, kCountBytes, head);
    if (symbols != nullptr) {
      symbols->Slice(0, r.count, &payload[kCountBytes + r.count]);
    }
  }

  // Tier `name` into gather_buffer_ (only its counts and first byte when
  // `head_only`): its payload's size.
  absl::StatusOr<uint64_t> ReadTier(const std::string& name, bool head_only) {
    if (head_only) {
      return work_dir_->GetHead(name, kCountBytes + 1, gather_buffer_);
    }
    if (absl::Status s = work_dir_->Get(name, gather_buffer_); !s.ok()) {
      return s;
    }
    return gather_buffer_.size();
  }

  // Takes a tier from its payload (SolveTier wrote it; its size checked;
  // in pass 1 of a compressed layer, only its counts and first byte).
  // Pass 1: its counts, its records or values (StoreValues); pass 2: its
  // symbols counted; pass 3: its symbols written.
  void Load(int pass, int stones, const Range& r, absl::string_view payload,
            std::vector<RunEncoder>& encoders, Counts& counts) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(payload.data());
    const uint8_t* symbols =
        p + kCountBytes + r.count * (Keeps(Layout::kFull) ? 2 : 1);
    if (pass > 1) {
      for (size_t k = 0; k < encoders.size(); ++k) {
        if (pass == 2) encoders[k].Count(symbols + k * r.count, r.count);
        if (pass == 3) encoders[k].Write(symbols + k * r.count, r.count);
      }
      return;
    }
    counts.Add(ReadCounts(payload.data()));
    const uint8_t* bytes = p + kCountBytes;
    if (Keeps(Layout::kFull) && solution_.records.size() > 0) {
      const uint8_t* moves = bytes + r.count;
      for (uint64_t j = 0; j < r.count; ++j) {
        solution_.records.SetDetails(r.first + j, bytes[j], moves[j]);
      }
    }
    StoreValues(stones, bytes, r.begin,
                std::min<uint64_t>(r.count, payload.size() - kCountBytes));
  }

  // Solves indices [begin, end) of layer `stones`: each position's byte into
  // bytes[i - base], and what the layout keeps besides into `keep` (one of
  // the Keep* types above).
  template <typename Children, typename Keep>
  Counts SolveIndices(int stones, uint64_t begin, uint64_t end, Reached reach,
                      const Children& children, uint8_t* bytes, uint64_t base,
                      Keep keep) {
    // Copies: byte stores could alias the members, which would then be
    // reloaded for every position.
    return ForIndices(
        stones, begin, end, reach,
        [&, children, bytes, base, reach, keep, game = &game_](
            LayerWalker& walker, uint64_t i, const Position& p, Counts& c) {
          std::optional<Value> end;
          if (reach.words != nullptr) {
            end = game->Primitive(p);
          } else if (game->CheckLines(p, &end) != Illegal::kLegal) {
            return;
          }
          int move = kNoMove;
          const uint8_t byte =
              SolvePosition(walker, p, end, children, c, &move);
          bytes[i - base] = byte;
          keep.Solved(i, p, byte, move);
        });
  }

  bool Keeps(Layout layout) const { return table_layout_.layout() == layout; }
  // Whether layer `stones` keeps compressed symbols: even layers do.
  bool KeepsSymbols(int stones) const {
    return Keeps(Layout::kCompressed) && stones % 2 == 0;
  }

  uint64_t Words(int stones) const {
    return (index_.layer_size(stones) + 63) / 64;
  }
  static std::string ReachName(int stones, int t) {
    return absl::StrFormat("R%02d-T%06d", stones, t);
  }
  static std::string MarkName(int stones) {
    return absl::StrFormat("M%02d", stones);
  }
  static std::string DoneName(int stones) {
    return absl::StrFormat("D%02d", stones);
  }
  static std::string SectionsName(int stones) {
    return absl::StrFormat("S%02d", stones);
  }

  int Tiers(int stones) const {
    return static_cast<int>((index_.layer_size(stones) + tier_indices_ - 1) /
                            tier_indices_);
  }
  Range Tier(int stones, int t) const {
    const uint64_t begin = t * tier_indices_;
    const uint64_t end =
        std::min(index_.layer_size(stones), begin + tier_indices_);
    return {begin, end, index_.layer_offset(stones) + begin, end - begin};
  }
  // Tier t of layer `stones` belongs to process (t + stones) % size(): small
  // layers, one tier each, go round the processes too.
  bool Mine(int stones, int t) const {
    return (t + stones) % cluster_.size() == cluster_.rank();
  }
  static std::string TierName(int stones, int t) {
    return absl::StrFormat("L%02d-T%06d", stones, t);
  }
  // Every process's status agreed on: this one's error, or kAborted when
  // another process stopped.
  absl::Status Agree(const absl::Status& status) {
    if (cluster_.AllOk(status.ok())) return absl::OkStatus();
    if (!status.ok()) return status;
    return absl::AbortedError("another process of the solve stopped");
  }

  // Sets `bit` of *word, which other threads may be setting bits of too:
  // read first, as most children are reached from several parents and a
  // locked write costs much more than a read.
  static void SetReached(uint64_t* word, uint64_t bit) {
    if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) == 0) {
      __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
    }
  }

  // Runs visit(walker, index, position, counts) over every position of
  // indices [begin, end) of a layer (counted from its first), or with
  // `reached` only over those whose bit is set there (LayerWalker::
  // WalkReached), in chunks shared out among the threads.
  template <typename Visit>
  Counts ForIndices(int stones, uint64_t begin, uint64_t end, Reached reached,
                    Visit&& visit) {
    // 64K positions a chunk; small ranges run on the calling thread.
    constexpr uint64_t kChunk = uint64_t{1} << 16;
    std::vector<Counts> counts(threads_);
    ParallelChunks(end - begin, kChunk, threads_,
                   [&](uint64_t from, uint64_t to, int worker) {
                     LayerWalker walker(game_, index_, stones);
                     Counts& mine = counts[worker];
                     uint64_t visits = 0;
                     const auto one = [&](uint64_t i, const Position& p) {
                       ++visits;
                       visit(walker, i, p, mine);
                     };
                     if (reached.words != nullptr) {
                       walker.WalkReached(begin + from, begin + to,
                                          reached.words, reached.first_word,
                                          one);
                     } else {
                       walker.WalkIndices(begin + from, begin + to, one);
                     }
                     progress_.Add(to - from);
                     index_visits_.fetch_add(visits, std::memory_order_relaxed);
                   });
    Counts total;
    for (const Counts& c : counts) total.Add(c);
    return total;
  }

  // The layer byte of a reachable position and its best move (*move stays
  // kNoMove when the game is over): by the rules (`end`, its Primitive())
  // when the game is over, else the policy's best child.
  template <typename Children>
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint8_t SolvePosition(LayerWalker& walker,
                                                     const Position& p,
                                                     std::optional<Value> end,
                                                     const Children& children,
                                                     Counts& c, int* move) {
    ++c.n[kReachable];
    c.CountFixed(game_, p);
    Value value;
    int plies = 0;
    if (end.has_value()) {
      value = *end;
      ++c.n[kTerminal];
      if (value == Value::kDraw) {
        ++c.n[kFullDraws];
      } else {
        const bool x_won = (value == Value::kWin) == (p.side_to_move() == 0);
        ++c.n[x_won ? kXWins : kOWins];
      }
    } else {
      walker.PrepareChildren();
      int best = -(1 << 20);
      uint8_t best_child = 0;
      for (Mask s = walker.legal(); s != 0; s &= s - 1) {
        const int cell = absl::countr_zero(s);
        const uint8_t child = children(walker.Child(cell));
        const int score = kChildScores.score[child];
        if (score > best) {
          best = score;
          best_child = child;
          *move = cell;
          if (child == kWinAtOnce) break;  // nothing is better
        }
      }
      value = Negate(static_cast<Value>(best_child >> kRemotenessBits));
      assert(value != Value::kUnreachable);
      plies = (best_child & kMaxRemoteness) + 1;
    }
    ++c.n[value == Value::kWin    ? kWins
          : value == Value::kDraw ? kDraws
                                  : kLosses];
    return RecordArrays::Details(value, plies);
  }

  void AddCounts(int stones, const Counts& counts) {
    SolveStats& stats = solution_.stats;
    stats.per_ply[stones] = counts.n[kReachable];
    for (int k = 0; k < kFixed; ++k) stats.*kStatOf[k] += counts.n[k];
    fixed_ += counts.n[kFixed];
    stats.index_visits = index_visits_.load(std::memory_order_relaxed);
    if (stones == 0) {
      const uint64_t images = stats.reachable + fixed_;
      assert(images % game_.symmetries().size() == 0);
      stats.canonical = images / game_.symmetries().size();
    }
  }

  // The values of a solved layer into the 2-bit section, or into the compact
  // layout (even layers only); the empty board's into the stats.
  void StoreValues(int stones, const uint8_t* layer, uint64_t begin,
                   uint64_t n) {
    const uint64_t offset = index_.layer_offset(stones) + begin;
    if (solution_.records.size() > 0) {
      for (uint64_t i = 0; i < n; ++i) {
        if (layer[i] != 0) {
          solution_.records.SetValue(
              offset + i, static_cast<Value>(layer[i] >> kRemotenessBits));
        }
      }
    } else if (Keeps(Layout::kCompact) && stones % 2 == 0) {
      const uint64_t first =
          compact_layout_.Entry(index_.layer_offset(stones), stones);
      for (uint64_t i = 0; i < n; ++i) {
        if (layer[i] != 0) {
          CompactLayout::Put(solution_.compact.data(), first + begin + i,
                             static_cast<Value>(layer[i] >> kRemotenessBits));
        }
      }
    }
    if (stones == 0 && begin == 0 && n > 0) {
      solution_.stats.start_value =
          static_cast<Value>(layer[0] >> kRemotenessBits);
      solution_.stats.start_remoteness = layer[0] & kMaxRemoteness;
    }
  }

  const Game& game_;
  const PositionIndex& index_;
  Solution& solution_;
  const TableLayout table_layout_;  // what the table keeps
  const bool forward_;
  // With a work dir, compressed: layers done are kept there, not in memory,
  // and tiers no longer needed are removed (SolveLayerInTiers).
  const bool drops_;
  const bool keep_;  // this process keeps records, sections and stats
  const bool resume_;
  const int threads_;
  const uint64_t tier_indices_;    // a power of two
  const int tier_shift_;           // its log2
  const WorkDir* const work_dir_;  // null: nothing is written
  Cluster& cluster_;
  const CompactLayout compact_layout_;
  Progress progress_;
  // Forward pass: one bit an index, a vector a layer.
  std::vector<std::vector<uint64_t>> reached_;
  std::vector<uint8_t> child_layer_;  // bytes of the layer below
  std::vector<uint8_t> spare_layer_;  // a buffer for the next layer
  // The compressed symbols of an even layer (in memory) or tier, its memory
  // reused.
  std::optional<CompressedLayerBuilder> builder_;
  // With a work dir: the payloads of the tier being solved and the tier
  // being written (alternately), and of the tier last gathered.
  std::string payloads_[2];
  uint64_t solved_tiers_ = 0;
  std::string gather_buffer_;
  const uint64_t widest_layer_ = WidestLayer(index_);
  // With a work dir: the tiers of the layer below that the tier being solved
  // reads (their bytes), and pointers to them (null: not loaded).
  std::vector<std::string> child_tiers_;
  std::vector<const uint8_t*> child_pointers_;
  uint64_t child_offset_ = 0;              // its first index
  uint64_t fixed_ = 0;                     // Counts::fixed of the layers so far
  std::atomic<uint64_t> index_visits_{0};  // SolveStats::index_visits
  // Compressed: each even layer's sections (by stones / 2), as solved.
  std::vector<std::vector<std::string>> layers_ =
      std::vector<std::vector<std::string>>(game_.cells() / 2 + 1);
  // The layer being gathered (SolveLayerInTiers); last, so that it is
  // waited for before anything it uses is destroyed.
  std::future<absl::Status> gathering_;
};

// The solve's work dir, if it has one: rank 0 opens it first (writing its
// manifest); the others then join it.
absl::StatusOr<std::optional<WorkDir>> OpenWorkDir(const Game& game,
                                                   const SolveOptions& options,
                                                   Cluster& cluster) {
  std::optional<WorkDir> work_dir;
  if (options.work_dir.empty()) return work_dir;
  const std::string manifest = Manifest(game, options);
  for (const bool first : {true, false}) {
    absl::Status status;
    if ((cluster.rank() == 0) == first) {
      absl::StatusOr<WorkDir> opened = WorkDir::Open(
          options.work_dir, manifest, first ? options.resume : true);
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

}  // namespace

absl::StatusOr<Solution> Solve(const Game& game, const SolveOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (absl::Status s = CheckSolvable(game); !s.ok()) return s;
  const PositionIndex index(game);
  const bool forward =
      !game.reachability_is_local() || options.forward_reachability;
  const uint64_t bytes = BytesNeeded(game, index, options, forward);
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
  if (!absl::has_single_bit(options.tier_indices)) {
    return absl::InvalidArgumentError(
        absl::StrCat("tiers of ", options.tier_indices,
                     " indices: expected a power of two"));
  }
  Cluster alone;
  Cluster& cluster = options.cluster != nullptr ? *options.cluster : alone;
  if (cluster.size() > 1 && options.work_dir.empty()) {
    return absl::InvalidArgumentError(
        "a solve shared among processes needs a work dir that all of them "
        "can reach (--work-dir)");
  }
  absl::StatusOr<std::optional<WorkDir>> work_dir =
      OpenWorkDir(game, options, cluster);
  if (!work_dir.ok()) return work_dir.status();
  const bool keep = cluster.rank() == 0;
  Solution solution(game, options.layout, keep);
  {
    LayeredSolver solver(options, solution,
                         work_dir->has_value() ? &**work_dir : nullptr,
                         cluster);
    if (absl::Status s = solver.MarkReachable(); !s.ok()) return s;
    for (int stones = game.cells(); stones >= 0; --stones) {
      if (absl::Status s = solver.SolveLayer(stones); !s.ok()) return s;
    }
  }
  solution.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return solution;
}

absl::Status SolveToTable(const Game& game, const SolveOptions& options,
                          const std::string& path) {
  if (absl::Status s = CheckTableTarget(path); !s.ok()) return s;
  SolveOptions full = options;
  full.layout = TableLayout::Full();
  absl::StatusOr<Solution> solved = Solve(game, full);
  if (!solved.ok()) return solved.status();
  return WriteTable(path, game.spec(), solved->records.view(),
                    solved->stats.reachable);
}

}  // namespace mnk
