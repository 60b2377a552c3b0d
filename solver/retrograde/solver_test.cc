#include "solver/retrograde/solver.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "search/search.h"

namespace mnk {
namespace {

TEST(SolverTest, TicTacToeCounts) {
  const Game game = *Game::Create({3, 3, 3});
  absl::StatusOr<Solution> s = Solve(game, {});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->stats.reachable, 5478u);
  EXPECT_EQ(s->stats.terminal, 958u);
  EXPECT_EQ(s->stats.x_wins, 626u);
  EXPECT_EQ(s->stats.o_wins, 316u);
  EXPECT_EQ(s->stats.full_draws, 16u);
  const Record start = s->records().view().Get(0);
  EXPECT_EQ(start.value, Value::kDraw);
  EXPECT_EQ(start.remoteness, 9);
  EXPECT_EQ(start.best_move, 0);
}

// A cancel set while layers are solved (from the progress callback, as the
// Python module's Ctrl-C and raising callbacks do) stops the solve with
// kCancelled, in memory (mid-layer) in each layout and with a work dir.
TEST(SolverTest, ACancelStopsTheSolve) {
  // A board that takes seconds, so that the first progress call (a
  // quarter second in) comes mid-solve.
  const Game game = *Game::Create({5, 5, 4, /*gravity=*/true});
  const std::string tmp = std::getenv("TEST_TMPDIR") != nullptr
                              ? std::getenv("TEST_TMPDIR")
                              : "/tmp";
  for (const TableLayout layout :
       {TableLayout::Full(), TableLayout::Compressed()}) {
    for (const bool tiers : {false, true}) {
      std::atomic<bool> cancel{false};
      int calls = 0;
      SolveOptions options;
      options.layout = layout;
      options.cancel = &cancel;
      options.on_progress = [&](const char*, int, uint64_t, uint64_t) {
        ++calls;
        cancel.store(true);
      };
      if (tiers) {
        options.work_dir = absl::StrCat(tmp, "/cancel-", layout.name());
        options.tier_indices = 1 << 16;
      }
      const absl::StatusOr<Solution> s = Solve(game, options);
      EXPECT_TRUE(absl::IsCancelled(s.status())) << s.status();
      EXPECT_EQ(s.status().message(),
                "the solve of 5,5,4 gravity was cancelled");
      EXPECT_GE(calls, 1);
    }
  }
}

TEST(SolverTest, RefusesTooLargeGames) {
  const Game game = *Game::Create({4, 4, 4});
  SolveOptions options;
  options.max_bytes = 1 << 20;
  EXPECT_EQ(Solve(game, options).status().code(),
            absl::StatusCode::kResourceExhausted);
}

// Every reachable position of small boards, with and without gravity, and
// with one and two threads, agrees with live alpha-beta.
void ExpectMatchesSearch(const GameSpec& spec, int threads) {
  const Game game = *Game::Create(spec);
  absl::StatusOr<Solution> s = Solve(game, {threads});
  ASSERT_TRUE(s.ok()) << s.status();
  const RecordView view = s->records().view();
  uint64_t checked = 0;
  for (uint64_t i = 0; i < view.size; ++i) {
    const Record r = view.Get(i);
    const Position p = s->index.At(i);
    const bool valid = game.IsReachable(p);
    ASSERT_EQ(r.value != Value::kUnreachable, valid) << game.Format(p);
    if (!valid) continue;
    const SearchResult live = AlphaBeta(game, p);
    ASSERT_EQ(r.value, live.value) << game.Format(p);
    ASSERT_EQ(r.remoteness, live.remoteness) << game.Format(p);
    ++checked;
  }
  EXPECT_EQ(checked, s->stats.reachable);
}

TEST(SolverTest, SmallBoardsMatchSearch) {
  ExpectMatchesSearch({3, 3, 3}, 1);
  ExpectMatchesSearch({4, 3, 3}, 2);
  ExpectMatchesSearch({3, 3, 2}, 2);
  ExpectMatchesSearch({4, 3, 3, true}, 1);
  ExpectMatchesSearch({4, 4, 4, true}, 2);
}

// Which gravity boards the default 16 GiB limit refuses (width x height),
// and which fit only in the compact layout: as the README says. Tall boards
// fit: they have few column-height vectors, so few indices.
TEST(SolverTest, GravityBoardsThatDoNotFitAreAsDocumented) {
  std::vector<std::string> refused, compact_only;
  for (int m = 1; m <= 30; ++m) {
    for (int n = 1; m * n <= 30; ++n) {
      const Game game = *Game::Create({m, n, std::max(m, n), true});
      SolveOptions options;
      const std::string name = std::to_string(m) + "x" + std::to_string(n);
      options.layout = TableLayout::Compact();
      if (SolveBytes(game, options) > options.max_bytes) {
        refused.push_back(name);
        continue;
      }
      options.layout = TableLayout::Full();
      if (SolveBytes(game, options) > options.max_bytes) {
        compact_only.push_back(name);
      }
    }
  }
  EXPECT_EQ(refused,
            (std::vector<std::string>{"10x3", "14x2", "15x2", "24x1", "25x1",
                                      "26x1", "27x1", "28x1", "29x1", "30x1"}));
  EXPECT_EQ(compact_only,
            (std::vector<std::string>{"6x5", "9x3", "13x2", "22x1", "23x1"}));
  // And Solve itself refuses one, at once, naming the memory.
  absl::StatusOr<Solution> s = Solve(*Game::Create({10, 3, 4, true}), {});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kResourceExhausted);
}

// With a work dir, a tier reads only the tiers of its children
// (TierStore::ChildTiers): 6x6 gravity's worst, at most 75 tiers of 2^20
// (79 MB, layer 30), where whole child shapes near the full board were
// 13.66 GB. The forward pass's widest layer of bits (75,736,129,136 indices:
// 9,467,016,142 bytes) is the most then; plus 27 tiers of buffers.
TEST(SolverTest, WorkDirMemoryCountsTheChildTiersATierReads) {
  const Game game = *Game::Create({6, 6, 4, true});
  SolveOptions options;
  options.layout = TableLayout::Compressed(true);
  options.work_dir = "unused";
  options.tier_indices = uint64_t{1} << 20;
  EXPECT_EQ(SolveBytes(game, options) -
                LayerSink::MemoryBytes(PositionIndex(game), options.layout,
                                       /*in_tiers=*/true),
            uint64_t{9467016142} + 27 * (uint64_t{1} << 20));
}

}  // namespace
}  // namespace mnk
