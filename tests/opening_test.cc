// Connect Four 7x6 from the built-in opening table (data/README.md): every
// position of fewer than 11 stones is answered, every move, by lookup
// alone (the searches visit no position), and a position of 11 stones has
// its own value and remoteness from the table.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "answer/answer.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"

namespace mnk {
namespace {

constexpr int kFrontier = 11;  // the table's deepest layer

std::unique_ptr<AnswerSource> OpenConnectFour() {
  absl::StatusOr<std::unique_ptr<AnswerSource>> source =
      AnswerSource::Open(GameSpec{7, 6, 4, /*gravity=*/true}, {});
  EXPECT_TRUE(source.ok()) << source.status();
  return source.ok() ? *std::move(source) : nullptr;
}

// The positions in play after one more move from `layer`'s, one of each
// mirror pair.
std::vector<Position> NextLayer(const Game& game,
                                const std::vector<Position>& layer) {
  absl::flat_hash_set<Position> next;
  for (const Position& p : layer) {
    for (int cell : game.LegalMoves(p)) {
      const Position child = game.Canonical(Game::Play(p, cell));
      if (!game.IsTerminal(child)) next.insert(child);
    }
  }
  return {next.begin(), next.end()};
}

TEST(OpeningTest, EveryPositionBeforeTheFrontierIsAnsweredByLookup) {
  std::unique_ptr<AnswerSource> source = OpenConnectFour();
  ASSERT_NE(source, nullptr);
  const Game& game = source->game();
  std::vector<Position> layer = {Position{}};
  uint64_t answered = 0;
  for (int stones = 0; stones < kFrontier; ++stones) {
    for (const Position& p : layer) {
      ASSERT_FALSE(source->NeedsSearch(p)) << game.Format(p);
      absl::StatusOr<Analysis> a = source->Answer(p);
      ASSERT_TRUE(a.ok()) << game.Format(p) << ": " << a.status();
      ASSERT_EQ(a->moves.size(), game.LegalMoves(p).size()) << game.Format(p);
      ++answered;
    }
    layer = NextLayer(game, layer);
  }
  EXPECT_EQ(source->searched_nodes(), 0u);
  // One of each mirror pair of the positions in play with 0 to 10 stones
  // (OEIS A212693's 1 + 7 + ... + 1,662,623 less those with four in a row).
  EXPECT_EQ(answered, 1208493u);
  EXPECT_EQ(layer.size(), 2148087u);  // of 11 stones

  // Of 11 stones: the position's own result from the table, its moves'
  // from searches that agree with it.
  std::mt19937_64 rng(kFrontier);
  for (int n = 0; n < 20; ++n) {
    const Position& p = layer[rng() % layer.size()];
    const std::optional<BookEntry> entry = source->book()->book()->Find(p);
    ASSERT_TRUE(entry.has_value()) << game.Format(p);
    absl::StatusOr<Analysis> a = source->Answer(p);
    ASSERT_TRUE(a.ok()) << game.Format(p) << ": " << a.status();
    EXPECT_EQ(a->record.value, entry->value) << game.Format(p);
    EXPECT_EQ(a->record.remoteness, entry->remoteness) << game.Format(p);
  }
  EXPECT_GT(source->searched_nodes(), 0u);
}

}  // namespace
}  // namespace mnk
