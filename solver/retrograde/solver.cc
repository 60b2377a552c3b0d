#include "solver/retrograde/solver.h"

#include <unistd.h>

#include <algorithm>
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
#include "solver/game/policy.h"
#include "solver/index/layer_walker.h"
#include "solver/parallel/parallel.h"
#include "solver/tiers/work_dir.h"
#include "table/compressed.h"
#include "table/file_io.h"

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
    // The tiers of the layer below that one tier reads (a few a playable
    // cell), a tier's payload three times over (built, compressed, read
    // back), two layers' reachable bits.
    const uint64_t tier = std::min(widest, options.tier_indices);
    return records + (2 * game.cells() + 15) * tier +
           (forward ? widest / 4 : 0);
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

absl::Status CheckSolvable(const Game& game) {
  if (game.cells() > kMaxTableCells) {
    return absl::InvalidArgumentError(
        absl::StrCat(game.spec().Name(), " has ", game.cells(),
                     " cells: tables hold boards of at most ", kMaxTableCells,
                     " (a remoteness takes 6 bits)"));
  }
  if (!PositionIndex(game).fits()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the index of ", game.spec().Name(),
        " would have 2^64 entries or more: no table of it can be made (its "
        "positions can still be played and searched)"));
  }
  return absl::OkStatus();
}

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
      "mnk solve tiers 2\ngame %s\nlayout %s\nremoteness %s\n"
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
// A tier on disk ("L<layer>-T<tier>", solver/tiers/work_dir.h), its payload:
//   72 bytes   its Counts (AppendCounts)
//   n bytes    the layer bytes of its n indices (value << 6 | remoteness)
//   n bytes    full layout only: each index's best move (kNoMove: none)
//   2n or 3n   compressed layout, even layers only: the symbols of its
//              entries (CompressedLayerBuilder::Slice)
// and "R<layer>" (gravity) holds a layer's reachable bits, one an index.
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
        keep_(cluster.rank() == 0),
        resume_(options.resume),
        threads_(std::max(1, options.threads)),
        tier_indices_(std::max<uint64_t>(1, options.tier_indices)),
        tier_shift_(absl::countr_zero(tier_indices_)),
        work_dir_(work_dir),
        cluster_(cluster),
        compact_layout_(index_),
        progress_(options.progress && keep_, "solve " + game_.spec().Name(),
                  index_.size() * (forward_ ? 2 : 1)) {
    solution_.stats.per_ply.assign(game_.cells() + 1, 0);
  }

  // Step 1 (gravity, or when asked): marks the reachable indices by a
  // forward pass from the empty board, layer by layer. With a work dir each
  // layer's bits are written there ("R<layer>") and only two layers' are
  // held at a time.
  absl::Status MarkReachable() {
    if (!forward_) return absl::OkStatus();
    reached_.assign(game_.cells() + 1, {});
    reached_[0] = {1};  // the empty board
    for (int stones = 0; stones < game_.cells(); ++stones) {
      progress_.SetPhase("marking", stones);
      const int next = stones + 1;
      if (resume_ && work_dir_ != nullptr) {
        absl::StatusOr<std::string> kept = work_dir_->Get(ReachName(next));
        const bool found = kept.ok() && kept->size() == Words(next) * 8;
        if (cluster_.AllOk(found)) {
          reached_[next].resize(Words(next));
          std::memcpy(reached_[next].data(), kept->data(), kept->size());
          DropReach(stones);
          progress_.Add(index_.layer_size(stones));
          continue;
        }
      }
      ReserveHugePages(reached_[next], Words(next));
      reached_[next].assign(Words(next), 0);
      const uint64_t* const bits = reached_[stones].data();
      uint64_t* const next_bits = reached_[next].data();
      const uint64_t next_offset = index_.layer_offset(next);
      const int tiers = Tiers(stones);
      for (int t = 0; t < tiers; ++t) {
        if (!Mine(stones, t)) continue;
        progress_.SetTier(t + 1, tiers);
        const Range r = Tier(stones, t);
        ForIndices(
            stones, r.begin, r.end, bits,
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
      if (cluster_.size() > 1) {
        cluster_.OrWords(next_bits, reached_[next].size());
      }
      absl::Status status;
      if (work_dir_ != nullptr && keep_) {
        status = work_dir_->Put(
            ReachName(next),
            absl::string_view(reinterpret_cast<const char*>(next_bits),
                              reached_[next].size() * 8));
        progress_.SetDisk(work_dir_->bytes_written());
      }
      if (absl::Status s = Agree(status); !s.ok()) return s;
      DropReach(stones);
    }
    return absl::OkStatus();
  }

  // Step 2, for every layer from the full board down to the empty one:
  // every position's record from its children's, which are final.
  absl::Status SolveLayer(int stones) {
    progress_.SetPhase("solving", stones);
    const uint64_t* reach = nullptr;
    if (forward_) {
      absl::StatusOr<const uint64_t*> r = Reach(stones);
      if (!r.ok()) return Agree(r.status());
      reach = *r;
    }
    absl::Status status = work_dir_ == nullptr
                              ? SolveLayerInMemory(stones, reach)
                              : SolveLayerInTiers(stones, reach);
    DropReach(stones);
    return status;
  }

 private:
  // This process alone, nothing on disk: the layer in one pass, records
  // and symbols stored as each position is solved.
  absl::Status SolveLayerInMemory(int stones, const uint64_t* reach) {
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
      layers_[stones / 2] = builder->Encode();
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
  absl::Status SolveLayerInTiers(int stones, const uint64_t* reach) {
    if (absl::Status s = Agree(SolveMyTiers(stones, reach)); !s.ok()) return s;
    if (!keep_) return absl::OkStatus();
    return GatherLayer(stones);
  }

  // This process's tiers of layer `stones` solved and written to the work
  // dir (or, resuming, found there whole).
  absl::Status SolveMyTiers(int stones, const uint64_t* reach) {
    const int tiers = Tiers(stones);
    absl::Status status;
    std::future<absl::Status> writing;
    for (int t = 0; t < tiers && status.ok(); ++t) {
      if (!Mine(stones, t)) continue;
      progress_.SetTier(t + 1, tiers);
      const Range r = Tier(stones, t);
      if (resume_) {
        absl::StatusOr<std::string> kept = work_dir_->Get(TierName(stones, t));
        if (kept.ok() && kept->size() == PayloadBytes(stones, r)) {
          ++solution_.stats.tiers_loaded;
          progress_.Add(r.count);
          continue;
        }
        if (kept.status().code() != absl::StatusCode::kNotFound) {
          ++solution_.stats.tiers_redone;
        }
      }
      status = LoadChildren(stones, r);
      if (!status.ok()) break;
      // Each tier is compressed and written on a thread of its own while the
      // next one is solved (one write in flight).
      std::string payload = SolveTier(stones, r, reach);
      status = FinishWrite(writing);
      if (!status.ok()) break;
      writing = std::async(
          std::launch::async,
          [this, name = TierName(stones, t), payload = std::move(payload)] {
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
  // sections encoded from the tiers in two passes (RunEncoder), so no
  // layer is ever held whole.
  absl::Status GatherLayer(int stones) {
    const int tiers = Tiers(stones);
    absl::Status status;
    std::vector<RunEncoder> encoders;
    if (KeepsSymbols(stones)) {
      encoders = CompressedLayerBuilder::Encoders(
          game_, table_layout_.has_remoteness());
    }
    Counts counts;
    // Pass 1 over the layer's tiers: counts, records, values, and the symbol
    // frequencies; pass 2 (compressed, even layers): the symbols encoded.
    for (int pass = 1; pass <= (encoders.empty() ? 1 : 2); ++pass) {
      for (int t = 0; t < tiers && status.ok(); ++t) {
        const Range r = Tier(stones, t);
        absl::StatusOr<std::string> kept = work_dir_->Get(TierName(stones, t));
        if (!kept.ok()) {
          status = kept.status();
        } else if (kept->size() != PayloadBytes(stones, r)) {
          status = absl::DataLossError(absl::StrCat(
              "tier ", TierName(stones, t), " in ", work_dir_->path(),
              " has the wrong size for this solve"));
        } else {
          Load(pass, stones, r, *kept, encoders, counts);
        }
      }
    }
    if (!status.ok()) return status;
    AddCounts(stones, counts);
    if (!encoders.empty()) {
      for (RunEncoder& e : encoders) layers_[stones / 2].push_back(e.Finish());
      if (stones == 0) solution_.sections = ArrangeSections(std::move(layers_));
    }
    return absl::OkStatus();
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
    for (size_t t = 0; t < needed.size(); ++t) {
      if (!needed[t]) {
        std::string().swap(child_tiers_[t]);
        child_pointers_[t] = nullptr;
        continue;
      }
      if (child_pointers_[t] != nullptr) continue;
      const Range c = Tier(below, static_cast<int>(t));
      absl::StatusOr<std::string> kept =
          work_dir_->Get(TierName(below, static_cast<int>(t)));
      if (!kept.ok()) return kept.status();
      if (kept->size() != PayloadBytes(below, c)) {
        return absl::DataLossError(
            absl::StrCat("tier ", TierName(below, static_cast<int>(t)), " in ",
                         work_dir_->path(), " has the wrong size"));
      }
      child_tiers_[t] = kept->substr(kCountBytes, c.count);
      child_pointers_[t] =
          reinterpret_cast<const uint8_t*>(child_tiers_[t].data());
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

  // Solves tier `r` of layer `stones` (its children loaded): its payload for
  // the work dir.
  std::string SolveTier(int stones, const Range& r, const uint64_t* reach) {
    std::string payload(PayloadBytes(stones, r), '\0');
    uint8_t* const bytes = reinterpret_cast<uint8_t*>(&payload[kCountBytes]);
    uint8_t* const moves = bytes + r.count;  // full layout only
    if (Keeps(Layout::kFull)) std::memset(moves, kNoMove, r.count);
    std::optional<CompressedLayerBuilder> symbols;
    if (KeepsSymbols(stones)) {
      symbols.emplace(game_, r.count, table_layout_.has_remoteness());
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
        Keeps(Layout::kFull)  ? solve(KeepMoves{moves, r.first})
        : symbols.has_value() ? solve(KeepSymbols{&game_, &*symbols, r.first})
                              : solve(KeepNothing{});
    std::string head;
    AppendCounts(counts, &head);
    payload.replace(0, kCountBytes, head);
    if (symbols.has_value()) {
      const std::string slice = symbols->Slice(0, r.count);
      payload.replace(kCountBytes + r.count, slice.size(), slice);
    }
    return payload;
  }

  // Takes a tier from its payload (SolveTier wrote it; its size checked).
  // Pass 1: its counts, its records or values (StoreValues) and its symbols
  // counted; pass 2: its symbols written.
  void Load(int pass, int stones, const Range& r, absl::string_view payload,
            std::vector<RunEncoder>& encoders, Counts& counts) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(payload.data());
    const uint8_t* symbols =
        p + kCountBytes + r.count * (Keeps(Layout::kFull) ? 2 : 1);
    if (pass == 2) {
      for (size_t k = 0; k < encoders.size(); ++k) {
        encoders[k].Write(symbols + k * r.count, r.count);
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
    StoreValues(stones, bytes, r.begin, r.count);
    for (size_t k = 0; k < encoders.size(); ++k) {
      encoders[k].Count(symbols + k * r.count, r.count);
    }
  }

  // Solves indices [begin, end) of layer `stones`: each position's byte into
  // bytes[i - base], and what the layout keeps besides into `keep` (one of
  // the Keep* types above).
  template <typename Children, typename Keep>
  Counts SolveIndices(int stones, uint64_t begin, uint64_t end,
                      const uint64_t* reach, const Children& children,
                      uint8_t* bytes, uint64_t base, Keep keep) {
    // Copies: byte stores could alias the members, which would then be
    // reloaded for every position.
    return ForIndices(
        stones, begin, end, reach,
        [&, children, bytes, base, reach, keep, game = &game_](
            LayerWalker& walker, uint64_t i, const Position& p, Counts& c) {
          std::optional<Value> end;
          if (reach != nullptr) {
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
  static std::string ReachName(int stones) {
    return absl::StrFormat("R%02d", stones);
  }
  // Layer `stones`' reachable bits, read back from the work dir if dropped.
  absl::StatusOr<const uint64_t*> Reach(int stones) {
    std::vector<uint64_t>& bits = reached_[stones];
    if (bits.empty() && stones == 0) bits = {1};
    if (bits.empty() && Words(stones) > 0) {
      absl::StatusOr<std::string> kept = work_dir_->Get(ReachName(stones));
      if (!kept.ok()) return kept.status();
      if (kept->size() != Words(stones) * 8) {
        return absl::DataLossError(
            absl::StrCat(ReachName(stones), " in ", work_dir_->path(),
                         " has the wrong size for this solve"));
      }
      bits.resize(Words(stones));
      std::memcpy(bits.data(), kept->data(), kept->size());
    }
    return bits.data();
  }
  // With a work dir, a layer's bits are not kept once used.
  void DropReach(int stones) {
    if (work_dir_ != nullptr && forward_) {
      std::vector<uint64_t>().swap(reached_[stones]);
    }
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
  Counts ForIndices(int stones, uint64_t begin, uint64_t end,
                    const uint64_t* reached, Visit&& visit) {
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
                     if (reached != nullptr) {
                       walker.WalkReached(begin + from, begin + to, reached,
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
  // The compressed symbols of an even layer (in memory), its memory reused.
  std::optional<CompressedLayerBuilder> builder_;
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

}  // namespace mnk
