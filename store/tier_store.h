// The tiers of a layered job on disk, shared by the solver
// (solver/retrograde) and verify (verify/verify_tiers.cc): which indices a
// tier holds, its file's name, the tiers of the layer below that hold a
// tier's children, the reachable bits of a forward pass, and a cache of the
// child tiers being read. What a tier's payload holds is the job's own.
//
//   mnk::TierStore store(game, index, /*tier_indices=*/4096, *work_dir);
//   const mnk::TierRange r = store.Tier(/*layer=*/7, /*t=*/3);
//   store.dir().Put(mnk::TierStore::Name('L', 7, 3), payload);  //
//   "L07-T000003" mnk::TierCache children; children.Hold(store, 'L', 8,
//   store.ChildTiers(7, r), head_bytes, size_of); children.At(j);  // the byte
//   of entry j of layer 8
//
// A layer of n indices is cut into tiers of tier_indices consecutive
// indices (a power of two, at least 64, so that no two tiers share a word
// of reachable bits), the last one shorter:
//
//   layer L:  | tier 0 | tier 1 | ... | tier T-1 (shorter) |
//             0        2^s      2 * 2^s                   n
//
// Reachable bits ("R<layer>-T<tier>", written by PutReach): bit j % 64 of
// little-endian word j / 64 for the tier's entry j, (count + 63) / 64 words.
#ifndef MNK_STORE_TIER_STORE_H_
#define MNK_STORE_TIER_STORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "store/work_dir.h"

namespace mnk {

// A tier: indices [begin, end) of its layer (counted from the layer's
// first), [first, first + count) of the whole index.
struct TierRange {
  uint64_t begin, end, first, count;
};

// Which indices each tier of each layer holds, and which tiers of the
// layer below hold a tier's children: the tiers' geometry, without a disk
// (solve --plan works it out for processes that do not run).
class TierLayout {
 public:
  // `tier_indices` as CheckTierIndices accepts; `game` and `index` outlive
  // the layout.
  TierLayout(const Game& game, const PositionIndex& index,
             uint64_t tier_indices);

  uint64_t tier_indices() const { return uint64_t{1} << shift_; }
  int shift() const { return shift_; }  // log2 of tier_indices

  int Tiers(int layer) const;
  TierRange Tier(int layer, int t) const;
  // "L07-T000003": tier 3 of layer 7 of the job's kind 'L'.
  static std::string Name(char kind, int layer, int t);
  // "D07": a file of the job's kind 'D' for the whole of layer 7.
  static std::string LayerName(char kind, int layer);

  // The tiers of layer + 1 that hold the children of the positions of
  // tier `r` of `layer`: through each move, the children of the tier's
  // patterns of one shape lie in the child shape of the move, in the same
  // order (PositionIndex::ChildPattern), from the first one's child to the
  // last one's, but not in every tier between. So a tier reads a few
  // tiers a move, however large the child shape (6x6 gravity's full
  // board: 9.1e9 indices).
  std::vector<bool> ChildTiers(int layer, const TierRange& r) const;
  // The same tiers' numbers, in order.
  std::vector<uint64_t> ChildTierNumbers(int layer, const TierRange& r) const;

  // Calls visit(child, low, high, slot) for each shape of tier `r` of
  // `layer` and each move from it: the tier's patterns of the shape are
  // [low, high], the move adds slot `slot`, and the child shape starts at
  // index `child` of layer + 1. Through the move the child of pattern p is
  // child + PositionIndex::ChildPattern(layer, p, slot), increasing with p.
  template <typename Visit>
  void ForChildRuns(int layer, const TierRange& r, Visit visit) const {
    const uint64_t patterns = index_.patterns(layer);
    const uint64_t child_patterns = index_.patterns(layer + 1);
    const uint64_t first_shape = r.begin / patterns;
    const uint64_t last_shape = (r.end - 1) / patterns;
    Mask occupied = index_.Shape(layer, first_shape);
    for (uint64_t shape = first_shape;; ++shape) {
      const uint64_t low = shape == first_shape ? r.begin % patterns : 0;
      const uint64_t high =
          shape == last_shape ? (r.end - 1) % patterns : patterns - 1;
      for (Mask s = game_.Playable(occupied); s != 0; s &= s - 1) {
        const int slot = absl::popcount(occupied & ((s & -s) - 1));
        visit(index_.ShapeRank(occupied | (s & -s)) * child_patterns, low, high,
              slot);
      }
      if (shape == last_shape) return;
      occupied = index_.NextShape(occupied);
    }
  }

 protected:
  const Game& game_;
  const PositionIndex& index_;

 private:
  // Appends to `tiers` the tiers of layer + 1 holding the children of
  // patterns [low, high] of one shape of `layer` through the move that adds
  // slot `slot`, whose child shape starts at index `child` of layer + 1.
  void AddChildTiers(int layer, uint64_t low, uint64_t high, int slot,
                     uint64_t child, std::vector<uint64_t>& tiers) const;

  int shift_;
};

// The tiers of a layout on disk, in a work dir.
class TierStore : public TierLayout {
 public:
  TierStore(const Game& game, const PositionIndex& index, uint64_t tier_indices,
            WorkDir dir);

  const WorkDir& dir() const { return dir_; }

  // Layer `layer`'s reachable bits (`words`: bit j % 64 of words[j / 64]
  // for its index j), a file a tier, on `threads` threads.
  absl::Status PutReach(int layer, const std::vector<uint64_t>& words,
                        int threads) const {
    return PutReach(layer, 0, words, threads);
  }
  // The same for the tiers of a window of the layer from index `begin` (a
  // tier's first), `words` holding its bits: the tiers it covers.
  absl::Status PutReach(int layer, uint64_t begin,
                        const std::vector<uint64_t>& words, int threads) const;
  // Tier t's reachable bits of `layer` (words from the tier's first); the
  // empty board's need no file. kDataLoss, saying that the `job` ("solve",
  // "verify") must start again in an empty work dir, when lost or damaged.
  absl::StatusOr<std::vector<uint64_t>> GetReach(int layer, int t,
                                                 const char* job) const;

  // Removes every tier of `kind` and `layer` (missing ones are fine).
  absl::Status RemoveLayer(char kind, int layer) const;

 private:
  WorkDir dir_;
};

// The tiers of one kind and layer that a job is reading (the children of
// the tier it works on), by tier number; those let go of are reused (a
// fresh buffer costs a page fault a page).
class TierCache {
 public:
  // Holds exactly the tiers `needed` of (kind, layer): of each, its payload
  // from byte `head` to head + its count. A tier's payload must be
  // payload_bytes(t) bytes long; kDataLoss for one lost, damaged or of the
  // wrong size, saying that the `job` must start again.
  absl::Status Hold(const TierStore& store, char kind, int layer,
                    const std::vector<bool>& needed, size_t head,
                    const std::function<uint64_t(int t)>& payload_bytes,
                    const char* job);
  // Lets go of every tier and buffer (their memory is freed).
  void Clear();

  // The byte of entry j of the layer (its tier held).
  uint8_t At(uint64_t j) const { return pointers_[j >> shift_][j & mask_]; }

 private:
  std::string key_;  // the name of tier 0 of the kind and layer held
  int shift_ = 0;
  uint64_t mask_ = 0;
  std::vector<std::string> tiers_, spare_;
  std::vector<const uint8_t*> pointers_;
};

}  // namespace mnk

#endif  // MNK_STORE_TIER_STORE_H_
