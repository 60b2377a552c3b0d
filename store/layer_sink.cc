#include "store/layer_sink.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "table/file_io.h"

namespace mnk {
namespace {

// Each layer's first index, then the index's size (so that layer l has
// offsets[l + 1] - offsets[l] indices): a sink outlives the index it was
// made for (a solve's Solution is moved), so it keeps what it needs of it.
std::vector<uint64_t> LayerOffsets(const PositionIndex& index) {
  std::vector<uint64_t> offsets;
  for (int l = 0; l <= index.cells(); ++l) {
    offsets.push_back(index.layer_offset(l));
  }
  offsets.push_back(index.size());
  return offsets;
}

// Full records: every index's value, remoteness and best move.
class FullSink : public LayerSink {
 public:
  FullSink(const PositionIndex& index, bool keep)
      : LayerSink(TableLayout::Full()),
        offsets_(LayerOffsets(index)),
        file_bytes_(TableFileSize(index.size())),
        records_(keep ? index.size() : 0) {}

  Keeper KeepLayer(int, uint64_t, uint64_t) override {
    return KeepRecords{&records_};
  }
  int ExtraBytes(int) const override { return 1; }
  Keeper KeepTier(int, const TierRange& r, uint8_t* extra) override {
    std::memset(extra, kNoMove, r.count);
    return KeepMoves{extra, r.first};
  }
  bool TakesBytes() const override { return true; }
  void Take(int stones, uint64_t begin, const uint8_t* bytes, uint64_t n,
            const uint8_t* extra) override {
    if (records_.size() == 0) return;
    const uint64_t first = offsets_[stones] + begin;
    for (uint64_t j = 0; extra != nullptr && j < n; ++j) {
      records_.SetDetails(first + j, bytes[j], extra[j]);
    }
    for (uint64_t j = 0; j < n; ++j) {
      if (bytes[j] != 0) {
        records_.SetValue(first + j,
                          static_cast<Value>(bytes[j] >> kRemotenessBits));
      }
    }
  }
  uint64_t FileBytes() const override { return file_bytes_; }
  absl::Status Write(const std::string& path, const GameSpec& spec,
                     uint64_t reachable) const override {
    return WriteTable(path, spec, records_.view(), reachable);
  }
  RecordArrays& records() override { return records_; }

 private:
  const std::vector<uint64_t> offsets_;
  const uint64_t file_bytes_;
  RecordArrays records_;
};

// Compact: the values of the even layers, five to a byte.
class CompactSink : public LayerSink {
 public:
  CompactSink(const PositionIndex& index, bool keep)
      : LayerSink(TableLayout::Compact()),
        offsets_(LayerOffsets(index)),
        file_bytes_(CompactTableFileSize(index)),
        layout_(index),
        compact_(keep ? layout_.bytes() : 0, 0) {}

  Keeper KeepLayer(int, uint64_t, uint64_t) override { return KeepNothing{}; }
  int ExtraBytes(int) const override { return 0; }
  Keeper KeepTier(int, const TierRange&, uint8_t*) override {
    return KeepNothing{};
  }
  bool TakesBytes() const override { return true; }
  void Take(int stones, uint64_t begin, const uint8_t* bytes, uint64_t n,
            const uint8_t*) override {
    if (compact_.empty() || stones % 2 != 0) return;
    const uint64_t first = layout_.Entry(offsets_[stones], stones) + begin;
    for (uint64_t j = 0; j < n; ++j) {
      if (bytes[j] != 0) {
        CompactLayout::Put(compact_.data(), first + j,
                           static_cast<Value>(bytes[j] >> kRemotenessBits));
      }
    }
  }
  uint64_t FileBytes() const override { return file_bytes_; }
  absl::Status Write(const std::string& path, const GameSpec& spec,
                     uint64_t reachable) const override {
    return WriteCompactTable(path, spec, compact_, reachable);
  }
  std::vector<uint8_t>& compact() override { return compact_; }

 private:
  const std::vector<uint64_t> offsets_;
  const uint64_t file_bytes_;
  const CompactLayout layout_;
  std::vector<uint8_t> compact_;
};

// A layer's file that should be in the work dir but is not, or damaged:
// the tiers it came from are gone.
absl::Status LostLayer(const WorkDir& dir, const std::string& name,
                       const absl::Status& why) {
  return absl::DataLossError(absl::StrCat(
      name, " in ", dir.path(), " is lost (", why.message(),
      "); the tiers it came from are gone: start the solve again in an "
      "empty work dir"));
}

// The sections of the even layers kept in a work dir ("S<layer>"), the
// last layer read held.
class LayerSections {
 public:
  LayerSections(const WorkDir& dir, size_t kinds) : dir_(dir), kinds_(kinds) {}
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
    const std::string name =
        TierStore::LayerName('S', 2 * static_cast<int>(layer_));
    sections_.clear();
    absl::Status status = dir_.Get(name, bytes_);
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
    return status.ok() ? status : LostLayer(dir_, name, status);
  }

  const WorkDir dir_;
  const size_t kinds_;
  size_t layer_ = -1;
  std::string bytes_;
  std::vector<absl::string_view> sections_;
};

// Compressed: the run-coded symbols of the canonical positions in play of
// the even layers, encoded as each layer is done.
class CompressedSink : public LayerSink {
 public:
  CompressedSink(const Game& game, const PositionIndex& index,
                 TableLayout layout, const TierStore* store)
      : LayerSink(layout),
        game_(game),
        offsets_(LayerOffsets(index)),
        widest_even_(index.widest_even_layer()),
        store_(store),
        layers_(game.cells() / 2 + 1) {}

  Keeper KeepLayer(int stones, uint64_t first, uint64_t entries) override {
    if (stones % 2 != 0) return KeepNothing{};
    return KeepSymbols{&game_, Builder(entries), first};
  }
  int ExtraBytes(int stones) const override {
    return stones % 2 != 0 ? 0 : layout().has_remoteness() ? 3 : 2;
  }
  Keeper KeepTier(int stones, const TierRange& r, uint8_t*) override {
    return KeepLayer(stones, r.first, r.count);
  }
  void TierSolved(int stones, const TierRange& r, uint8_t* extra) override {
    if (stones % 2 == 0) {
      builder_->Slice(0, r.count, reinterpret_cast<char*>(extra));
    }
  }
  bool TakesBytes() const override { return false; }
  absl::Status LayerDone(int stones, uint64_t playing, size_t head) override {
    if (stones % 2 != 0) return absl::OkStatus();
    if (store_ == nullptr) {
      layers_[stones / 2] = builder_->Encode(playing);
      return absl::OkStatus();
    }
    if (absl::Status s = EncodeTiers(stones, playing, head); !s.ok()) return s;
    absl::Status status = PutLayer(stones);
    std::vector<std::string>().swap(layers_[stones / 2]);
    return status;
  }
  bool KeepsLayersOnDisk() const override { return store_ != nullptr; }
  absl::Status Finish() override {
    if (store_ == nullptr) {
      sections_ = ArrangeSections(std::move(layers_));
      return absl::OkStatus();
    }
    return ArrangeLayersOnDisk();
  }

  uint64_t FileBytes() const override {
    return CompressedTableFileSize(Source().sizes);
  }
  absl::Status Write(const std::string& path, const GameSpec& spec,
                     uint64_t reachable) const override {
    return WriteCompressedTable(path, spec, Source(), reachable,
                                layout().has_remoteness());
  }
  std::vector<uint64_t> SectionSizes() const override { return Source().sizes; }
  std::vector<std::string>& sections() override { return sections_; }

 private:
  // The builder, reset to `entries` entries (its memory reused; in memory,
  // room for the widest even layer made at once).
  CompressedLayerBuilder* Builder(uint64_t entries) {
    if (!builder_.has_value()) {
      builder_.emplace(game_, 0, layout().has_remoteness());
    }
    builder_->Reset(entries, store_ == nullptr ? widest_even_ : 0);
    return &*builder_;
  }

  SectionSource Source() const {
    return on_disk_.fetch ? on_disk_ : SectionSource::Of(sections_);
  }

  // Even layer `stones`' sections from the symbols of its tiers (after
  // their `head` and layer bytes) in two passes: their frequencies, then
  // their codes; no layer is ever held whole.
  absl::Status EncodeTiers(int stones, uint64_t playing, size_t head) {
    std::vector<RunEncoder> encoders = CompressedLayerBuilder::Encoders(
        game_, layout().has_remoteness(),
        offsets_[stones + 1] - offsets_[stones], playing);
    for (int pass = 2; pass <= 3; ++pass) {
      for (int t = 0; t < store_->Tiers(stones); ++t) {
        const TierRange r = store_->Tier(stones, t);
        const std::string name = TierStore::Name(kSolvedTier, stones, t);
        if (absl::Status s = store_->dir().Get(name, buffer_); !s.ok()) {
          return s;
        }
        if (buffer_.size() != head + r.count * (1 + ExtraBytes(stones))) {
          return absl::DataLossError(
              absl::StrCat("tier ", name, " in ", store_->dir().path(),
                           " has the wrong size for this solve"));
        }
        const uint8_t* symbols =
            reinterpret_cast<const uint8_t*>(buffer_.data()) + head + r.count;
        for (size_t k = 0; k < encoders.size(); ++k) {
          if (pass == 2) encoders[k].Count(symbols + k * r.count, r.count);
          if (pass == 3) encoders[k].Write(symbols + k * r.count, r.count);
        }
      }
    }
    // Finish() lets go of each encoder's stream as its section is made.
    for (RunEncoder& e : encoders) {
      layers_[stones / 2].push_back(e.Finish());
      if (!e.fits()) {
        // Like a game whose index is too big (CheckSolvable): no table of
        // it can be written.
        return absl::InvalidArgumentError(absl::StrCat(
            "layer ", stones,
            ": a section's stream passes 4 GiB, past what its 32-bit block "
            "offsets can hold (the table format's limit)"));
      }
    }
    return absl::OkStatus();
  }

  // Layer `stones`' sections into "S<layer>", as parts, never joined (a
  // large layer's sections are gigabytes).
  absl::Status PutLayer(int stones) const {
    const std::vector<std::string>& sections = layers_[stones / 2];
    std::vector<std::array<char, 8>> sizes(sections.size());
    std::vector<absl::string_view> parts;
    for (size_t k = 0; k < sections.size(); ++k) {
      PutLittleEndian(sizes[k].data(), sections[k].size(), 8);
      parts.emplace_back(sizes[k].data(), 8);
      parts.emplace_back(sections[k]);
    }
    return store_->dir().PutParts(TierStore::LayerName('S', stones), parts);
  }

  // The file's sections read from the work dir a layer at a time as the
  // table is written (all of them might not fit in memory), their sizes
  // taken now.
  absl::Status ArrangeLayersOnDisk() {
    const size_t layers = layers_.size();
    const size_t kinds = layout().has_remoteness() ? 3 : 2;
    auto read = std::make_shared<LayerSections>(store_->dir(), kinds);
    on_disk_.sizes.resize(kinds * layers);
    for (size_t layer = 0; layer < layers; ++layer) {
      absl::StatusOr<absl::string_view> first = read->Get(layer, 0);
      if (!first.ok()) return first.status();
      for (size_t kind = 0; kind < kinds; ++kind) {
        on_disk_.sizes[kind * layers + layer] = read->Get(layer, kind)->size();
      }
    }
    on_disk_.fetch = [read, layers](size_t section) {
      return read->Get(section % layers, section / layers);
    };
    return absl::OkStatus();
  }

  const Game game_;
  const std::vector<uint64_t> offsets_;  // LayerOffsets
  const uint64_t widest_even_;
  // The solve's tiers, while it runs (the sections are then read from
  // their own copy of the work dir).
  const TierStore* const store_;
  std::optional<CompressedLayerBuilder> builder_;
  // Each even layer's sections (by stones / 2), as encoded.
  std::vector<std::vector<std::string>> layers_;
  std::vector<std::string> sections_;  // in memory: the file's sections
  SectionSource on_disk_;              // with a store: read from there
  std::string buffer_;
};

// A book's positions, as the sparse solver lists them.
class BookSink : public LayerSink {
 public:
  explicit BookSink(BookEntries book)
      : LayerSink(TableLayout::Book()), book_(std::move(book)) {}
  Keeper KeepLayer(int, uint64_t, uint64_t) override { return KeepNothing{}; }
  int ExtraBytes(int) const override { return 0; }
  Keeper KeepTier(int, const TierRange&, uint8_t*) override {
    return KeepNothing{};
  }
  bool TakesBytes() const override { return false; }
  uint64_t FileBytes() const override { return BookTableFileSize(book_.keys); }
  absl::Status Write(const std::string& path, const GameSpec& spec,
                     uint64_t) const override {
    return WriteBookTable(path, spec, book_);
  }
  BookEntries& book() override { return book_; }

 private:
  BookEntries book_;
};

}  // namespace

std::unique_ptr<LayerSink> LayerSink::Make(const Game& game,
                                           const PositionIndex& index,
                                           TableLayout layout, bool keep,
                                           const TierStore* store) {
  switch (layout.layout()) {
    case Layout::kFull:
      return std::make_unique<FullSink>(index, keep);
    case Layout::kCompact:
      return std::make_unique<CompactSink>(index, keep);
    case Layout::kCompressed:
      return std::make_unique<CompressedSink>(game, index, layout, store);
    case Layout::kBook:
      break;
  }
  return MakeBook(BookEntries());
}

std::unique_ptr<LayerSink> LayerSink::MakeBook(BookEntries book) {
  return std::make_unique<BookSink>(std::move(book));
}

uint64_t LayerSink::MemoryBytes(const PositionIndex& index, TableLayout layout,
                                bool in_tiers) {
  switch (layout.layout()) {
    case Layout::kFull:
      return RecordView::ValueBytes(index.size()) + 2 * index.size();
    case Layout::kCompact:
      return CompactLayout(index).bytes();
    case Layout::kCompressed: {
      // In memory, the symbols of one even layer (value, move, remoteness);
      // the encoded sections are small beside them.
      return in_tiers ? 0 : 3 * index.widest_even_layer();
    }
    case Layout::kBook:
      break;
  }
  return 0;
}

void LayerSink::TierSolved(int, const TierRange&, uint8_t*) {}
void LayerSink::Take(int, uint64_t, const uint8_t*, uint64_t, const uint8_t*) {}
absl::Status LayerSink::LayerDone(int, uint64_t, size_t) {
  return absl::OkStatus();
}

RecordArrays& LayerSink::records() {
  static RecordArrays none(0);
  return none;
}
std::vector<uint8_t>& LayerSink::compact() {
  static std::vector<uint8_t> none;
  return none;
}
std::vector<std::string>& LayerSink::sections() {
  static std::vector<std::string> none;
  return none;
}
BookEntries& LayerSink::book() {
  static BookEntries none;
  return none;
}

}  // namespace mnk
