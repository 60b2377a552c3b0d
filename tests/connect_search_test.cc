// The exact Connect-style search (search/connect.h) against the
// retrograde solver's records: every reachable position of every gravity
// board up to 12 cells, and random ones of larger boards. Value,
// remoteness, the policy's best move and every move's outcome must agree.
//
// The large boards (6x4, 5x5, 6x5: 100,000 random positions each) take
// minutes and gigabytes, so they are not part of `bazel test //...`:
//
//   bazel test //tests:connect_search_large_test --test_output=all
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>

#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "search/connect.h"
#include "solver/retrograde/solver.h"
#include "store/write.h"
#include "table/record.h"
#include "table/table.h"
#include "tests/small_boards.h"

namespace mnk {
namespace {

constexpr int kMaxReported = 10;

// The table's record of a position.
using Probe = std::function<Record(const Position&)>;

// Analyze(p) against the records of p and its children; false (with a
// failure reported) when they differ.
bool Agrees(ConnectSearch& search, const Probe& probe, const Position& p) {
  const Game& game = search.game();
  const Record r = probe(p);
  const MoveAnalysis a = search.Analyze(p);
  bool ok = a.result.value == r.value && a.result.remoteness == r.remoteness &&
            (a.best_move < 0 ? kNoMove : a.best_move) == r.best_move;
  for (const MoveResult& m : a.moves) {
    const Record child = probe(Game::Play(p, m.cell));
    ok = ok && m.value == Negate(child.value) &&
         m.remoteness == child.remoteness + 1;
  }
  if (!ok) {
    ADD_FAILURE() << game.spec().Name() << " " << game.Format(p) << ": table "
                  << ValueName(r.value) << " in " << r.remoteness << " move "
                  << r.best_move << ", search " << ValueName(a.result.value)
                  << " in " << a.result.remoteness << " move " << a.best_move;
  }
  return ok;
}

Probe RecordsOf(const Solution& s) {
  return [&s](const Position& p) {
    return s.records().view().Get(s.index.Index(p));
  };
}

TEST(ConnectSearchTest, AgreesWithTheTablesOfEveryBoardUpTo12Cells) {
  uint64_t compared = 0;
  SmallBoardFilter gravity;
  gravity.misere = false;
  gravity.free = false;
  gravity.min_k = 2;
  gravity.max_k = 4;
  for (const GameSpec& spec : SmallBoards(gravity)) {
    const Solution& s = SolvedSmallBoard(spec);
    std::unique_ptr<ConnectSearch> search =
        *ConnectSearch::Create(s.game, {16});
    int reported = 0;
    for (uint64_t i = 0; i < s.index.size() && reported < kMaxReported; ++i) {
      if (s.records().view().GetValue(i) == Value::kUnreachable) continue;
      reported += !Agrees(*search, RecordsOf(s), s.index.At(i));
      ++compared;
    }
  }
  EXPECT_EQ(compared, 587461u);
}

// `count` random reachable positions of a table (index entries that the
// rules say a game reaches).
uint64_t CompareRandom(const Table& table, uint64_t count, uint64_t seed) {
  const Game& game = table.game();
  std::unique_ptr<ConnectSearch> search = *ConnectSearch::Create(game, {22});
  const Probe probe = [&table](const Position& p) {
    absl::StatusOr<Record> r = table.Probe(p);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : Record();
  };
  std::mt19937_64 random(seed);
  uint64_t compared = 0;
  int reported = 0;
  while (compared < count && reported < kMaxReported) {
    const Position p = table.index().At(random() % table.index().size());
    if (!game.IsLegal(p) || !game.IsReachable(p)) continue;
    reported += !Agrees(*search, probe, p);
    ++compared;
  }
  std::printf("%s: %llu random positions agree\n", game.spec().Name().c_str(),
              static_cast<unsigned long long>(compared));
  return compared;
}

// The board solved into a compressed table (with remoteness).
absl::StatusOr<Table> Solved(const GameSpec& spec) {
  SolveOptions options;
  options.layout = TableLayout::Compressed();
  absl::StatusOr<Solution> s = Solve(*Game::Create(spec), options);
  if (!s.ok()) return s.status();
  return Table::FromBytes(SerializeCompressedTable(
      spec, s->sections(), s->stats.reachable, /*remoteness=*/true));
}

uint64_t CompareRandom(const GameSpec& spec, uint64_t count, uint64_t seed) {
  absl::StatusOr<Table> table = Solved(spec);
  if (!table.ok()) {
    ADD_FAILURE() << spec.Name() << ": " << table.status();
    return 0;
  }
  return CompareRandom(*table, count, seed);
}

TEST(ConnectSearchTest, AgreesWithTheTableOf5x4) {
  EXPECT_EQ(CompareRandom({5, 4, 4, true}, 20000, 1), 20000u);
}

// The large boards: run by connect_search_large_test only (disabled here).
TEST(ConnectSearchTest, DISABLED_LargeAgreesWithTheTableOf6x4) {
  EXPECT_EQ(CompareRandom({6, 4, 4, true}, 100000, 2), 100000u);
}

TEST(ConnectSearchTest, DISABLED_LargeAgreesWithTheTableOf5x5) {
  EXPECT_EQ(CompareRandom({5, 5, 4, true}, 100000, 3), 100000u);
}

TEST(ConnectSearchTest, DISABLED_LargeAgreesWithTheTableOf6x5) {
  EXPECT_EQ(CompareRandom({6, 5, 4, true}, 100000, 4), 100000u);
}

}  // namespace
}  // namespace mnk
