#include "player/sample.h"

#include <algorithm>
#include <optional>
#include <random>

#include "absl/container/flat_hash_set.h"
#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "table/sha256.h"

namespace mnk {
namespace {

// Tries per position of a ply's share before the ply is given up as
// having no more positions to find.
constexpr int kTries = 50;
// Rounds over the plies: what one round leaves (plies with fewer positions
// than their share) goes to the plies with more in the next.
constexpr int kPasses = 4;

// A random game's position after `plies` moves, or nullopt when the game
// ended before (a line, or a full board).
std::optional<Position> RandomGame(const Game& game, int plies,
                                   std::mt19937_64& rng) {
  Position p;
  for (int ply = 0; ply < plies; ++ply) {
    if (game.IsTerminal(p)) return std::nullopt;
    Mask legal = game.LegalMask(p);
    for (uint64_t skip = rng() % absl::popcount(legal); skip > 0; --skip) {
      legal &= legal - 1;
    }
    p = Game::Play(p, absl::countr_zero(legal));
  }
  return p;
}

struct PositionHash {
  size_t operator()(const Position& p) const { return absl::HashOf(p.x, p.o); }
};

std::string Remoteness(int plies) {
  return plies == kUnknownRemoteness ? "unknown" : absl::StrCat(plies);
}

// What the sample is and how to read it.
std::string Header(const Table& table, int count, uint64_t seed, size_t drawn) {
  return absl::StrCat(
      "# ", table.game().spec().Name(), ": ", drawn,
      " random reachable positions, spread over the plies, with the "
      "table's answers\n# table SHA-256 ",
      Sha256(table), "\n# drawn by: sample --table=FILE --count=", count,
      " --seed=", seed,
      "\n# a line: position (rows from the top, X O or . a cell), value for "
      "the side to move, remoteness (plies to the end), best move (a cell, "
      "0 the top left, row by row; none once the game is over)\n");
}

}  // namespace

std::vector<Position> DrawSample(const Game& game, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> drawn;
  absl::flat_hash_set<Position, PositionHash> seen;
  // Plies whose positions ran out (a share not found in its tries).
  std::vector<bool> exhausted(game.cells() + 1, false);
  for (int pass = 0; pass < kPasses; ++pass) {
    int open =
        static_cast<int>(std::count(exhausted.begin(), exhausted.end(), false));
    for (int ply = 0; ply <= game.cells() && open > 0; ++ply) {
      if (exhausted[ply]) continue;
      // This ply's share of what is left.
      const int share = (count - static_cast<int>(drawn.size())) / open--;
      int found = 0;
      for (int tries = 0; found < share && tries < share * kTries; ++tries) {
        const std::optional<Position> p = RandomGame(game, ply, rng);
        if (!p.has_value() || !seen.insert(*p).second) continue;
        drawn.push_back(*p);
        ++found;
      }
      exhausted[ply] = found < share;
    }
  }
  std::stable_sort(drawn.begin(), drawn.end(),
                   [](const Position& a, const Position& b) {
                     return a.stones() < b.stones();
                   });
  return drawn;
}

absl::StatusOr<std::string> SampleText(const Oracle& oracle,
                                       const std::vector<Position>& positions,
                                       absl::string_view header) {
  const Game& game = oracle.game();
  std::string text(header);
  for (const Position& p : positions) {
    absl::StatusOr<Analysis> a = oracle.Analyze(p, {}, Need::kBestMove);
    if (!a.ok()) return a.status();
    const Record& r = a->record;
    absl::StrAppend(&text, game.Format(p), " ", ValueName(r.value), " ",
                    Remoteness(r.remoteness), " ",
                    r.best_move == kNoMove ? std::string("none")
                                           : absl::StrCat(r.best_move),
                    "\n");
  }
  return text;
}
absl::StatusOr<std::string> TableSample(const Table& table, int count,
                                        uint64_t seed) {
  const std::vector<Position> positions = DrawSample(table.game(), count, seed);
  return SampleText(table, positions,
                    Header(table, count, seed, positions.size()));
}

}  // namespace mnk
