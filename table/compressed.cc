#include "table/compressed.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/parallel/huge_pages.h"
#include "rules/index/layer_walker.h"

namespace mnk {

int CompressedSectionCount(const Game& game, bool remoteness) {
  const int even_layers = game.cells() / 2 + 1;
  return even_layers * (remoteness ? 3 : 2);
}

int BlockEntries(int base, uint64_t entries, uint64_t playing) {
  int block = base;
  while (block < kMaxBlockEntries && 4 * block * playing < base * entries) {
    block *= 2;
  }
  return block;
}

std::vector<RunEncoder> CompressedLayerBuilder::Encoders(const Game& game,
                                                         bool remoteness,
                                                         uint64_t entries,
                                                         uint64_t playing) {
  const bool gravity = game.spec().gravity;
  const auto block = [&](int base) {
    return BlockEntries(base, entries, playing);
  };
  std::vector<RunEncoder> encoders;
  encoders.emplace_back(
      3, block(gravity ? kGravityValueBlockEntries : kValueBlockEntries));
  encoders.emplace_back(gravity ? game.width() : game.cells(),
                        block(kDetailBlockEntries));
  if (remoteness) {
    encoders.emplace_back(kMaxRemoteness + 1, block(kDetailBlockEntries));
  }
  return encoders;
}

void CompressedLayerBuilder::Reset(uint64_t entries, uint64_t capacity) {
  for (std::vector<uint8_t>* kind : {&values_, &moves_, &plies_}) {
    if (kind == &plies_ && !remoteness_) break;
    kind->clear();  // nothing to copy when the memory grows
    ReserveHugePages(*kind, std::max(entries, capacity));
    kind->assign(entries, kDontCare);
  }
}

std::vector<std::string> CompressedLayerBuilder::Encode(
    uint64_t playing) const {
  std::vector<RunEncoder> encoders =
      Encoders(game_, remoteness_, values_.size(), playing);
  // The sections are independent: each on a thread of its own.
  const std::vector<uint8_t>* kinds[3] = {&values_, &moves_, &plies_};
  std::vector<std::string> sections(encoders.size());
  std::vector<std::thread> threads;
  for (size_t k = 0; k < encoders.size(); ++k) {
    threads.emplace_back([&, k] {
      encoders[k].Count(kinds[k]->data(), kinds[k]->size());
      encoders[k].Write(kinds[k]->data(), kinds[k]->size());
      sections[k] = encoders[k].Finish();
      // A layer held in memory (3 bytes an entry, within --memory) is far
      // from a 4 GiB stream; a work dir's layers are checked (solver.cc).
      assert(encoders[k].fits());
    });
  }
  for (std::thread& t : threads) t.join();
  return sections;
}

void CompressedLayerBuilder::Slice(uint64_t begin, uint64_t count,
                                   char* out) const {
  for (const std::vector<uint8_t>* kind : {&values_, &moves_, &plies_}) {
    if (kind == &plies_ && !remoteness_) break;
    assert(begin + count <= kind->size());
    std::memcpy(out, kind->data() + begin, count);
    out += count;
  }
}

std::vector<std::string> ArrangeSections(
    std::vector<std::vector<std::string>> layers) {
  std::vector<std::string> sections;
  for (size_t kind = 0; kind < layers[0].size(); ++kind) {
    for (std::vector<std::string>& layer : layers) {
      sections.push_back(std::move(layer[kind]));
    }
  }
  return sections;
}

std::vector<std::string> CompressSections(const Game& game,
                                          const PositionIndex& index,
                                          const RecordView& records,
                                          bool remoteness) {
  std::vector<std::vector<std::string>> layers;
  for (int stones = 0; stones <= game.cells(); stones += 2) {
    const uint64_t offset = index.layer_offset(stones);
    CompressedLayerBuilder layer(game, index.layer_size(stones), remoteness);
    LayerWalker walker(game, index, stones);
    uint64_t playing = 0;
    walker.Walk(0, index.shapes(stones), [&](uint64_t i, const Position& p) {
      const Record r = records.Get(i);
      // Unreachable, over (the rules say how) or not canonical: don't care.
      if (r.value == Value::kUnreachable || r.best_move == kNoMove) return;
      ++playing;
      if (game.IsCanonical(p)) {
        layer.Set(i - offset, r.value, r.remoteness, r.best_move);
      }
    });
    layers.push_back(layer.Encode(playing));
  }
  return ArrangeSections(std::move(layers));
}

absl::StatusOr<CompressedSections> CompressedSections::Open(
    const Game& game, const PositionIndex& index, bool remoteness,
    const std::vector<absl::string_view>& sections, const PageChecks* checks) {
  const int even_layers = game.cells() / 2 + 1;
  if (static_cast<int>(sections.size()) !=
      CompressedSectionCount(game, remoteness)) {
    return absl::DataLossError(
        absl::StrCat(sections.size(), " sections, expected ",
                     CompressedSectionCount(game, remoteness)));
  }
  CompressedSections c;
  for (size_t s = 0; s < sections.size(); ++s) {
    absl::StatusOr<RunReader> reader = RunReader::Open(sections[s], checks);
    if (!reader.ok()) {
      return absl::DataLossError(
          absl::StrCat("section ", s, ": ", reader.status().message()));
    }
    const int stones = 2 * (static_cast<int>(s) % even_layers);
    if (reader->size() != index.layer_size(stones)) {
      return absl::DataLossError(absl::StrCat(
          "section ", s, " has ", reader->size(), " entries, expected ",
          index.layer_size(stones), " (layer ", stones, ")"));
    }
    const int kind = static_cast<int>(s) / even_layers;
    (kind == 0   ? c.values_
     : kind == 1 ? c.moves_
                 : c.remoteness_)
        .push_back(*std::move(reader));
  }
  return c;
}

}  // namespace mnk
