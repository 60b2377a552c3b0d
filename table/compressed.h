// The compressed record layout (table layout 3): for each even layer (X to
// move), the value, best move and optionally remoteness of every position
// that is reachable, not over and the canonical member of its symmetry class
// (Game::Canonical), each in its own run-coded section (table/run_coder.h).
// Every other entry is "don't care" and costs next to nothing. A probe of
// another position canonicalizes it; odd layers are the best of their
// children, which are stored (table.h draws the file).
//
//   std::vector<std::string> sections =
//       mnk::CompressSections(game, index, records.view(), true);
//   absl::StatusOr<mnk::CompressedSections> c = mnk::CompressedSections::Open(
//       game, index, /*remoteness=*/true, views_of_the_sections);
//   c->value(stones, entry);  // entry = Index(canonical) - layer_offset
//
// Symbols: value 0 = loss, 1 = draw, 2 = win for X (the side to move); move
// = the policy's best cell, or with gravity its column; remoteness 0-63.
// Sections, in order: values of layers 0, 2, 4, ..., then moves of the same
// layers, then (when stored) remoteness of the same layers.
#ifndef MNK_TABLE_COMPRESSED_H_
#define MNK_TABLE_COMPRESSED_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "table/record.h"
#include "table/run_coder.h"

namespace mnk {

// Entries a block of each kind of section: a read decodes the runs of one
// block, and each block costs a 4-byte offset. Value blocks are short
// where value probes are many (128 entries: 0.39 bits a position for the
// values of 5,4,4, a value probe under a microsecond); a gravity board's
// index is sparser (6x5: 3.5 entries a reachable position, 5,4,4: 1.1), so
// its value blocks are four times longer for about the same cost a position.
inline constexpr int kValueBlockEntries = 128;
inline constexpr int kGravityValueBlockEntries = 512;
inline constexpr int kDetailBlockEntries = 256;

// The entries of a block in a layer of `entries` indices, `playing` of them
// reachable positions not over (stored, or their mirror image is): `base`
// (one of the above) doubled, up to kMaxBlockEntries, until a block holds
// base / 4 of them on average. The late layers of large boards have few
// positions among many indices (6x6 gravity's layer 34: 1.1%), and blocks
// of `base` entries would cost more in offsets and empty runs than their
// positions (89 bits a position); a read decodes about as many runs as in
// a dense layer.
int BlockEntries(int base, uint64_t entries, uint64_t playing);

// The number of sections a game's compressed table has.
int CompressedSectionCount(const Game& game, bool remoteness);

// One even layer's symbols, set by whoever knows the records (the writer
// from full records, the solver as it goes), then encoded. Entries not set
// are don't-cares.
class CompressedLayerBuilder {
 public:
  CompressedLayerBuilder(const Game& game, uint64_t entries, bool remoteness)
      : game_(game),
        gravity_(game.spec().gravity),
        width_(game.width()),
        values_(entries, kDontCare),
        moves_(entries, kDontCare),
        plies_(remoteness ? entries : 0, kDontCare),
        remoteness_(remoteness) {}
  // Starts over with `entries` entries, none stored (the memory of the
  // last layer is reused). Room is made for `capacity` entries if that is
  // more: a solve in memory reserves its widest layer's once, so that each
  // wider layer does not map (and the kernel clear) fresh pages again.
  void Reset(uint64_t entries, uint64_t capacity = 0);
  // A stored position (reachable, not over, canonical) at entry e of the
  // layer. Thread-safe for distinct entries.
  void Set(uint64_t e, Value value, int remoteness, int best_move) {
    values_[e] = static_cast<uint8_t>(static_cast<int>(value) - 1);
    moves_[e] = static_cast<uint8_t>(gravity_ ? best_move % width_ : best_move);
    if (remoteness_) plies_[e] = static_cast<uint8_t>(remoteness);
  }
  // The layer's value, move and (when kept) remoteness sections; `playing`
  // as BlockEntries takes it.
  std::vector<std::string> Encode(uint64_t playing) const;

  // The encoders of a layer's sections, in section order, as Encode() uses
  // them: for symbols fed in pieces (a solver's tiers, in Slice() layout),
  // giving the same bytes, for a layer of `entries` indices and `playing`
  // positions as BlockEntries takes them.
  static std::vector<RunEncoder> Encoders(const Game& game, bool remoteness,
                                          uint64_t entries, uint64_t playing);

  // Bytes an entry takes in Slice(): 3 with remoteness, else 2.
  int slice_bytes() const { return remoteness_ ? 3 : 2; }
  // The symbols of entries [begin, begin + count) into out[0, slice_bytes()
  // * count): all their values, then their moves, then their remoteness (a
  // solver's tier on disk).
  void Slice(uint64_t begin, uint64_t count, char* out) const;

 private:
  Game game_;
  bool gravity_;
  int width_;
  std::vector<uint8_t> values_, moves_, plies_;
  bool remoteness_;
};

// The file's section order (values of every even layer, then moves, then
// remoteness) from each even layer's Encode(), indexed by stones / 2.
std::vector<std::string> ArrangeSections(
    std::vector<std::vector<std::string>> layers);

// The sections of the compressed layout, from full records.
std::vector<std::string> CompressSections(const Game& game,
                                          const PositionIndex& index,
                                          const RecordView& records,
                                          bool remoteness);

class CompressedSections {
 public:
  // `sections` as CompressSections gives them (views into memory that
  // outlives this object, as do `checks`, the pages of the file holding
  // them, if given). kDataLoss when one is damaged or the wrong size.
  static absl::StatusOr<CompressedSections> Open(
      const Game& game, const PositionIndex& index, bool remoteness,
      const std::vector<absl::string_view>& sections,
      const PageChecks* checks = nullptr);

  bool has_remoteness() const { return !remoteness_.empty(); }
  // Entry `entry` of even layer `stones`; -1 for a damaged block.
  int value(int stones, uint64_t entry) const {
    return values_[stones / 2].Get(entry);
  }
  int move(int stones, uint64_t entry) const {
    return moves_[stones / 2].Get(entry);
  }
  int remoteness(int stones, uint64_t entry) const {
    return remoteness_[stones / 2].Get(entry);
  }
  // The readers of even layer `stones`' sections (remoteness only when
  // stored), to decode them whole.
  const RunReader& value_reader(int stones) const {
    return values_[stones / 2];
  }
  const RunReader& move_reader(int stones) const { return moves_[stones / 2]; }
  const RunReader& remoteness_reader(int stones) const {
    return remoteness_[stones / 2];
  }

 private:
  std::vector<RunReader> values_, moves_, remoteness_;
};

}  // namespace mnk

#endif  // MNK_TABLE_COMPRESSED_H_
