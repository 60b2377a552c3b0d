// The seam between a solver and the table: the solver hands each solved
// layer (in memory) or tier (in a work dir) to a sink, and the sink keeps
// what its layout stores and writes the table file. One sink per layout:
// full records, compact values, compressed sections, a book's entries.
//
//   std::unique_ptr<mnk::LayerSink> sink = mnk::LayerSink::Make(
//       game, index, mnk::TableLayout::Compressed(), /*keep=*/true);
//   // per layer, from the full board down:
//   std::visit([&](auto keep) { /* keep.Solved(i, p, byte, move) */ },
//              sink->KeepLayer(stones, first, entries));
//   sink->Take(stones, 0, layer_bytes, entries, nullptr);
//   sink->LayerDone(stones, playing, /*head=*/0);  // compressed: encoded
//   // after layer 0:
//   sink->Finish();
//   sink->Write("4x4k4.mnk", spec, reachable);
//
// A layer byte is a position's value << kRemotenessBits | remoteness (0 for
// an unreachable one: table/record.h's details byte). A Keeper is what the
// solver calls for every reachable position it solves, inline:
// Solved(i, p, byte, move), `move` kNoMove when the game is over.
//
// In a work dir, a tier's payload (the solver's) is a head, then the layer
// bytes of its n indices, then the sink's own ExtraBytes(layer) * n bytes:
//   full:       n best moves (kNoMove: none)
//   compressed: even layers, the symbols of the tier's entries
//               (CompressedLayerBuilder::Slice: 2n or 3n bytes)
// A compressed sink with a work dir keeps each layer's sections there
// ("S<layer>": each section an 8-byte little-endian size and its bytes),
// not in memory, and the table is written from there a layer at a time.
#ifndef MNK_STORE_LAYER_SINK_H_
#define MNK_STORE_LAYER_SINK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "store/tier_store.h"
#include "store/write.h"
#include "table/compressed.h"
#include "table/layout.h"
#include "table/record.h"

namespace mnk {

// What a layout keeps of a solved position besides its layer byte.
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
using Keeper = std::variant<KeepNothing, KeepRecords, KeepMoves, KeepSymbols>;

// The kind of the solver's tiers in a work dir ("L07-T000003"), whose
// payloads a compressed sink reads again for their symbols.
inline constexpr char kSolvedTier = 'L';

class LayerSink {
 public:
  // The sink of `layout` (not the book's: MakeBook). Only a sink that
  // `keep`s (rank 0 of a shared solve) holds records or sections; with a
  // `store` a compressed sink keeps its layers' sections there.
  static std::unique_ptr<LayerSink> Make(const Game& game,
                                         const PositionIndex& index,
                                         TableLayout layout, bool keep,
                                         const TierStore* store = nullptr);
  static std::unique_ptr<LayerSink> MakeBook(BookEntries book);
  // The memory a sink of `layout` holds while a solve runs: records, or a
  // layer's symbols (only in memory: `in_tiers` false).
  static uint64_t MemoryBytes(const PositionIndex& index, TableLayout layout,
                              bool in_tiers);

  virtual ~LayerSink() = default;
  TableLayout layout() const { return layout_; }

  // In memory: what to keep of layer `stones`' positions (indices from
  // `first`, `entries` of them).
  virtual Keeper KeepLayer(int stones, uint64_t first, uint64_t entries) = 0;
  // In a work dir: bytes an index a tier's payload holds after its layer
  // bytes; what to keep of tier `r`'s positions into `extra`, and, solved,
  // its last bytes written there.
  virtual int ExtraBytes(int stones) const = 0;
  virtual Keeper KeepTier(int stones, const TierRange& r, uint8_t* extra) = 0;
  virtual void TierSolved(int stones, const TierRange& r, uint8_t* extra);

  // Whether Take() reads layer bytes (only a tier's head is read otherwise).
  virtual bool TakesBytes() const = 0;
  // The keeping sink, as layer `stones` is gathered: `n` layer bytes of
  // indices from `begin` (counted from the layer's first), and `extra` as
  // KeepTier wrote it (null in memory).
  virtual void Take(int stones, uint64_t begin, const uint8_t* bytes,
                    uint64_t n, const uint8_t* extra);
  // The keeping sink, once layer `stones` is taken whole (`playing`: its
  // positions reachable and not over); in a work dir its tiers' payloads
  // are read again from `store` past their `head` bytes as needed.
  virtual absl::Status LayerDone(int stones, uint64_t playing, size_t head);
  // Whether layers done are kept in the work dir (and the tiers nothing
  // reads again removed): compressed sinks with a store.
  virtual bool KeepsLayersOnDisk() const { return false; }
  // The keeping sink, after layer 0: ready to write.
  virtual absl::Status Finish() { return absl::OkStatus(); }

  // The table file's size, and the file written to `path`.
  virtual uint64_t FileBytes() const = 0;
  virtual absl::Status Write(const std::string& path, const GameSpec& spec,
                             uint64_t reachable) const = 0;
  // Compressed tables: each section's size, in file order; else empty.
  virtual std::vector<uint64_t> SectionSizes() const { return {}; }

  // What the layout keeps, for tests and tools that read it; empty for
  // other layouts.
  virtual RecordArrays& records();
  virtual std::vector<uint8_t>& compact();
  virtual std::vector<std::string>& sections();
  virtual BookEntries& book();

 protected:
  explicit LayerSink(TableLayout layout) : layout_(layout) {}

 private:
  TableLayout layout_;
};

}  // namespace mnk

#endif  // MNK_STORE_LAYER_SINK_H_
