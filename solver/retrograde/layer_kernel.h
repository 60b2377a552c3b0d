// The inner loops of the layered solver (solver.h), shared by its passes
// in memory (solver.cc) and in a work dir (tiered_solver.cc): a position's
// record from its children's layer bytes, the forward pass's marks, and
// what a solve counts. Internal to the solver.
//
//   LayerKernel kernel(game, index, threads, progress);
//   Counts c = kernel.SolveIndices(stones, 0, n, Reached{}, children,
//                                  bytes, first, KeepNothing{});
//
// A position's layer byte (table/record.h's details byte; 0: unreachable):
//
//   bit  7   6   5   4   3   2   1   0
//       [ value ][     remoteness     ]
#ifndef MNK_SOLVER_RETROGRADE_LAYER_KERNEL_H_
#define MNK_SOLVER_RETROGRADE_LAYER_KERNEL_H_

#include <atomic>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/numeric/bits.h"
#include "base/parallel/parallel.h"
#include "rules/game/game.h"
#include "rules/game/policy.h"
#include "rules/index/index.h"
#include "rules/index/layer_walker.h"
#include "solver/retrograde/solver.h"
#include "store/tier_store.h"
#include "table/record.h"

namespace mnk::retrograde_internal {

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
inline const ChildScores kChildScores;

// What a solve counts, per worker and per tier, in this order (a tier's
// payload stores them so): the first eight are SolveStats' fields.
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
// The counts of a tier on disk: kCounts little-endian uint64, in Count
// order.
constexpr size_t kCountBytes = kCounts * 8;

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
  // The positions in play (reachable, not over): how sparse a layer's
  // compressed sections are.
  uint64_t playing() const { return n[kReachable] - n[kTerminal]; }
  // On disk, kCountBytes.
  void AppendTo(std::string* out) const;
  static Counts Read(const char* p);
};

// A solve's statistics, from its layers' counts (SolveStats in solver.h).
class StatsAdder {
 public:
  explicit StatsAdder(const Game& game, SolveStats& stats);
  void Add(int stones, const Counts& counts, uint64_t index_visits);
  // The empty board's layer byte.
  void SetStart(uint8_t byte);
  // The statistics being added up (the tier counts are set directly).
  SolveStats& stats() { return stats_; }

 private:
  const Game& game_;
  SolveStats& stats_;
  uint64_t fixed_ = 0;  // Counts::n[kFixed] of the layers so far
};

// A layer's reachable bits, or a tier's of them: bit j % 64 of
// words[j / 64 - first_word] for the layer's index j. Null words: no
// forward pass, every index is tested by the rules (Game::CheckLines).
struct Reached {
  const uint64_t* words = nullptr;
  uint64_t first_word = 0;
};

// The bytes of the layer below, as the solver reads its children: one array
// (in memory), or the tiers of it that a work-dir solve holds.
struct FlatChildren {
  const uint8_t* bytes;
  uint64_t first;  // index of bytes[0]
  uint8_t operator()(uint64_t i) const { return bytes[i - first]; }
};
struct TieredChildren {
  const TierCache* tiers;
  uint64_t first;  // the layer's first index
  uint8_t operator()(uint64_t i) const { return tiers->At(i - first); }
};

class LayerKernel {
 public:
  // Once `cancel` (when given) is set, the chunks not yet begun are left
  // undone: the layer is then unfinished, for a solve that stops.
  LayerKernel(const Game& game, const PositionIndex& index, int threads,
              Progress& progress, const std::atomic<bool>* cancel = nullptr)
      : game_(game),
        index_(index),
        threads_(threads),
        progress_(progress),
        cancel_(cancel) {}

  uint64_t index_visits() const {
    return index_visits_.load(std::memory_order_relaxed);
  }

  // Sets the bit in `next_bits` (all of layer stones + 1) of every child
  // of the positions of indices [begin, end) of layer `stones` that are
  // reached and not over.
  //
  // Only the children in a window [first, last) of the next layer are
  // marked, bit j - first for index j (the forward pass in windows, when a
  // layer's bits are more than the memory allows).
  void MarkChildren(int stones, uint64_t begin, uint64_t end, Reached reached,
                    uint64_t* next_bits, uint64_t first = 0,
                    uint64_t last = ~uint64_t{0}) {
    const uint64_t from = index_.layer_offset(stones + 1) + first;
    const uint64_t width = last - first;
    // One thread sets its bits plainly: no other writes them.
    const bool alone = threads_ == 1;
    ForIndices(stones, begin, end, reached,
               [&](LayerWalker& walker, uint64_t, const Position& p, Counts&) {
                 if (game_.IsTerminal(p)) return;
                 walker.PrepareChildren();
                 for (Mask s = walker.legal(); s != 0; s &= s - 1) {
                   const uint64_t j = walker.Child(absl::countr_zero(s)) - from;
                   if (j >= width) continue;
                   const uint64_t bit = uint64_t{1} << (j & 63);
                   if (alone) {
                     next_bits[j >> 6] |= bit;
                   } else {
                     SetReached(&next_bits[j >> 6], bit);
                   }
                 }
               });
  }

  // Solves indices [begin, end) of layer `stones`: each position's byte into
  // bytes[i - base], and what the layout keeps besides into `keep` (one of
  // store/layer_sink.h's Keepers).
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
              SolvePosition(*game, walker, p, end, children, c, &move);
          bytes[i - base] = byte;
          keep.Solved(i, p, byte, move);
        });
  }

 private:
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
    ParallelChunks(
        end - begin, kChunk, threads_,
        [&](uint64_t from, uint64_t to, int worker) {
          if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
            return;
          }
          LayerWalker walker(game_, index_, stones);
          Counts& mine = counts[worker];
          uint64_t visits = 0;
          const auto one = [&](uint64_t i, const Position& p) {
            ++visits;
            visit(walker, i, p, mine);
          };
          if (reached.words != nullptr) {
            walker.WalkReached(begin + from, begin + to, reached.words,
                               reached.first_word, one);
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
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint8_t SolvePosition(
      const Game& game, LayerWalker& walker, const Position& p,
      std::optional<Value> end, const Children& children, Counts& c,
      int* move) {
    ++c.n[kReachable];
    c.CountFixed(game, p);
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
      // The best child as the largest key, without a branch to mispredict:
      //   bits 31..16 score + 32768, 15..8 255 - cell, 7..0 the child's byte
      // (the best score, then the lowest cell).
      uint32_t best = 0;
      for (Mask s = walker.legal(); s != 0; s &= s - 1) {
        const int cell = absl::countr_zero(s);
        const uint8_t child = children(walker.Child(cell));
        const uint32_t key =
            static_cast<uint32_t>(kChildScores.score[child] + 32768) << 16 |
            static_cast<uint32_t>(255 - cell) << 8 | child;
        best = std::max(best, key);
      }
      const uint8_t best_child = best & 0xff;
      *move = 255 - static_cast<int>((best >> 8) & 0xff);
      value = Negate(static_cast<Value>(best_child >> kRemotenessBits));
      assert(value != Value::kUnreachable);
      plies = (best_child & kMaxRemoteness) + 1;
    }
    ++c.n[value == Value::kWin    ? kWins
          : value == Value::kDraw ? kDraws
                                  : kLosses];
    return RecordArrays::Details(value, plies);
  }

  const Game& game_;
  const PositionIndex& index_;
  const int threads_;
  Progress& progress_;
  const std::atomic<bool>* const cancel_;
  std::atomic<uint64_t> index_visits_{0};  // SolveStats::index_visits
};

}  // namespace mnk::retrograde_internal

#endif  // MNK_SOLVER_RETROGRADE_LAYER_KERNEL_H_
