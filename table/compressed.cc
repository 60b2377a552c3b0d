#include "table/compressed.h"

#include "absl/strings/str_cat.h"
#include "solver/index/layer_walker.h"

namespace mnk {

int CompressedSectionCount(const Game& game, bool remoteness) {
  const int even_layers = game.cells() / 2 + 1;
  return even_layers * (remoteness ? 3 : 2);
}

std::vector<std::string> CompressSections(const Game& game,
                                          const PositionIndex& index,
                                          const RecordView& records,
                                          bool remoteness) {
  const int even_layers = game.cells() / 2 + 1;
  std::vector<std::string> sections(CompressedSectionCount(game, remoteness));
  const bool gravity = game.spec().gravity;
  for (int stones = 0; stones <= game.cells(); stones += 2) {
    const uint64_t offset = index.layer_offset(stones);
    const uint64_t size = index.layer_size(stones);
    std::vector<uint8_t> values(size, kDontCare), moves(size, kDontCare),
        plies(remoteness ? size : 0, kDontCare);
    LayerWalker walker(game, index, stones);
    walker.Walk(0, index.shapes(stones), [&](uint64_t i, const Position& p) {
      const Record r = records.Get(i);
      // Unreachable, over (the rules say how) or not canonical: don't care.
      if (r.value == Value::kUnreachable || r.best_move == kNoMove ||
          !(game.Canonical(p) == p)) {
        return;
      }
      const uint64_t e = i - offset;
      values[e] = static_cast<uint8_t>(static_cast<int>(r.value) - 1);
      moves[e] = static_cast<uint8_t>(gravity ? r.best_move % game.width()
                                              : r.best_move);
      if (remoteness) plies[e] = static_cast<uint8_t>(r.remoteness);
    });
    const int layer = stones / 2;
    sections[layer] = EncodeRuns(values, 3, kValueBlockEntries);
    sections[even_layers + layer] = EncodeRuns(
        moves, gravity ? game.width() : game.cells(), kDetailBlockEntries);
    if (remoteness) {
      sections[2 * even_layers + layer] =
          EncodeRuns(plies, kMaxRemoteness + 1, kDetailBlockEntries);
    }
  }
  return sections;
}

absl::StatusOr<CompressedSections> CompressedSections::Open(
    const Game& game, const PositionIndex& index, bool remoteness,
    const std::vector<absl::string_view>& sections) {
  const int even_layers = game.cells() / 2 + 1;
  if (static_cast<int>(sections.size()) !=
      CompressedSectionCount(game, remoteness)) {
    return absl::DataLossError(
        absl::StrCat(sections.size(), " sections, expected ",
                     CompressedSectionCount(game, remoteness)));
  }
  CompressedSections c;
  for (size_t s = 0; s < sections.size(); ++s) {
    absl::StatusOr<RunReader> reader = RunReader::Open(sections[s]);
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
    c.bytes_[kind] += sections[s].size();
    (kind == 0   ? c.values_
     : kind == 1 ? c.moves_
                 : c.remoteness_)
        .push_back(*std::move(reader));
  }
  return c;
}

}  // namespace mnk
