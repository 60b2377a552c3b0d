// The largest boards: published values and counts, and 100,000 random
// reachable positions each against alpha-beta with a transposition table.
// Minutes and gigabytes, so not part of `bazel test //...`:
//
//   bazel test //tests:large_test --test_output=all
#include <cstdio>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"
#include "store/write.h"
#include "table/table.h"
#include "tests/family_checks.h"

namespace mnk {
namespace {

struct Published {
  GameSpec spec;
  Value start;  // for the first player
  uint64_t reachable;
};

class LargeTest : public ::testing::TestWithParam<Published> {};

TEST_P(LargeTest, PublishedAndAgainstSearch) {
  const Published& p = GetParam();
  const Game game = *Game::Create(p.spec);
  absl::StatusOr<Solution> s = Solve(game, {2});
  ASSERT_TRUE(s.ok()) << s.status();
  std::printf(
      "%s: %s, %llu reachable, solved in %.1f s\n", game.spec().Name().c_str(),
      std::string(ValueName(s->records().view().Get(0).value)).c_str(),
      static_cast<unsigned long long>(s->stats.reachable), s->stats.seconds);
  EXPECT_EQ(s->records().view().Get(0).value, p.start);
  EXPECT_EQ(s->stats.reachable, p.reachable);
  EXPECT_EQ(CheckRandomAgainstSearch(*s, 100000, /*seed=*/p.spec.width),
            100000u);
  // The compressed layout made from these records: 100,000 random
  // reachable positions against search, and against the full records
  // (value, remoteness and best move), along with every symmetric image.
  absl::StatusOr<Table> compressed = Table::FromBytes(SerializeCompressedTable(
      game, s->records().view(), s->stats.reachable, /*remoteness=*/true));
  ASSERT_TRUE(compressed.ok()) << compressed.status();
  EXPECT_EQ(
      CheckTableAgainstSearch(*compressed, 100000, /*seed=*/p.spec.height),
      100000u);
  std::mt19937_64 random(p.spec.k);
  int compared = 0, reported = 0;
  while (compared < 100000 && reported < 10) {
    const uint64_t i = random() % s->index.size();
    const Record full = s->records().view().Get(i);
    if (full.value == Value::kUnreachable) continue;
    const Position position = s->index.At(i);
    absl::StatusOr<Record> r = compressed->Probe(position);
    bool ok = r.ok() && *r == full;
    for (int sym = 1; ok && sym < static_cast<int>(game.symmetries().size());
         ++sym) {
      const Record image = s->records().view().Get(
          s->index.Index(game.Transform(position, sym)));
      ok = image.value == full.value && image.remoteness == full.remoteness;
    }
    if (!ok) {
      ADD_FAILURE() << game.Format(position) << ": compressed "
                    << (r.ok() ? ValueName(r->value) : r.status().message());
      ++reported;
    }
    ++compared;
  }
  EXPECT_EQ(compared, 100000);
}

// m,n,k 5,4,4: draw, 674,794,169 positions. Connect-style (John Tromp's
// counts): 6x4 second-player win with 94,910,577 positions, 5x5 draw with
// 69,763,700; 5x4 has 3,945,711 positions (its value, a draw, is as solved
// here).
INSTANTIATE_TEST_SUITE_P(
    Boards, LargeTest,
    ::testing::Values(Published{{5, 4, 4}, Value::kDraw, 674794169},
                      Published{{6, 4, 4, true}, Value::kLoss, 94910577},
                      Published{{5, 5, 4, true}, Value::kDraw, 69763700},
                      Published{{5, 4, 4, true}, Value::kDraw, 3945711}));

// Connect-style 6x5 (Tromp: 2,818,972,642 positions), in the compact layout:
// about 5 GB and several minutes.
TEST(LargeCompactTest, SixByFiveGravity) {
  const GameSpec spec{6, 5, 4, true};
  SolveOptions options;
  options.layout = TableLayout::Compact();
  absl::StatusOr<Solution> s = Solve(*Game::Create(spec), options);
  ASSERT_TRUE(s.ok()) << s.status();
  std::printf("6,5,4 gravity: %s, %llu reachable, solved in %.1f s\n",
              std::string(ValueName(s->stats.start_value)).c_str(),
              static_cast<unsigned long long>(s->stats.reachable),
              s->stats.seconds);
  EXPECT_EQ(s->stats.reachable, 2818972642u);
  absl::StatusOr<Table> table = Table::FromBytes(
      SerializeCompactTable(spec, s->compact(), s->stats.reachable));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(CheckTableAgainstSearch(*table, 100000, /*seed=*/65), 100000u);
}

// The same board in the compressed layout, solved streaming (about 8 GB and
// six minutes): its positions and symmetry classes counted, and 100,000
// random reachable positions (both sides to move) against alpha-beta.
TEST(LargeCompressedTest, SixByFiveGravity) {
  const GameSpec spec{6, 5, 4, true};
  SolveOptions options;
  options.layout = TableLayout::Compressed();
  absl::StatusOr<Solution> s = Solve(*Game::Create(spec), options);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->stats.reachable, 2818972642u);
  EXPECT_EQ(s->stats.canonical, 1409488535u);
  absl::StatusOr<Table> table = Table::FromBytes(SerializeCompressedTable(
      spec, s->sections(), s->stats.reachable, /*remoteness=*/true));
  ASSERT_TRUE(table.ok()) << table.status();
  std::printf("6,5,4 gravity compressed: %llu bytes\n",
              static_cast<unsigned long long>(table->file_bytes()));
  EXPECT_EQ(CheckTableAgainstSearch(*table, 100000, /*seed=*/66), 100000u);
}

}  // namespace
}  // namespace mnk
