// verify's record checks: the built table passes; every layout of every
// board up to 12 cells passes, normal and misère (each variant's own rule
// for what a record may claim); records changed behind a correct checksum
// are each caught and described.
#include "verify/verify.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "solver/retrograde/solver.h"
#include "solver/retrograde/sparse.h"
#include "store/write.h"
#include "table/table.h"
#include "tests/small_boards.h"
#include "tests/test_tables.h"

namespace mnk {
namespace {

// The built tic-tac-toe table with one record replaced, re-checksummed.
Table WithRecord(const Table& built, const Position& p, const Record& r) {
  RecordArrays records(built.index().size());
  for (uint64_t i = 0; i < records.size(); ++i) {
    records.Set(i, built.view().Get(i));
  }
  records.Set(built.index().Index(p), r);
  return *Table::FromBytes(
      SerializeTable(built.game().spec(), records.view(), built.reachable()));
}

TEST(VerifyTest, BuiltTablePasses) {
  const Table table = *LoadBuiltTable("3x3k3.mnk");
  const VerifyReport report = VerifyRecords(table, 2);
  EXPECT_EQ(report.indices, 6046u);
  EXPECT_EQ(report.reachable, 5478u);
  EXPECT_EQ(report.checked, 5478u);
  EXPECT_EQ(report.terminal, 958u);
  EXPECT_EQ(report.errors, 0u);
}

// Each layout's table of `spec`, made as `solve --layout=...` makes it.
std::vector<std::string> EveryLayout(const GameSpec& spec) {
  const Solution& full = SolvedSmallBoard(spec);
  const Game& game = full.game;
  SolveOptions compact_options;
  compact_options.layout = TableLayout::Compact();
  const Solution compact = *Solve(game, compact_options);
  const Solution book = *SolveSparse(game, {});
  const uint64_t reachable = full.stats.reachable;
  return {
      SerializeTable(spec, full.records().view(), reachable),
      SerializeCompactTable(spec, compact.compact(), reachable),
      SerializeCompressedTable(game, full.records().view(), reachable, true),
      SerializeCompressedTable(game, full.records().view(), reachable, false),
      SerializeBookTable(spec, book.book()),
  };
}

// Every layout of each of the 204 boards of one variant passes: the sweep
// is cut in four so that the test's shards share it.
void CheckEveryLayout(bool gravity, bool misere) {
  SmallBoardFilter filter;
  filter.gravity = gravity;
  filter.free = !gravity;
  filter.misere = misere;
  filter.normal = !misere;
  int tables = 0;
  for (const GameSpec& spec : SmallBoards(filter)) {
    for (const std::string& bytes : EveryLayout(spec)) {
      const Table table = *Table::FromBytes(bytes);
      SCOPED_TRACE(absl::StrCat(spec.Name(), " ", table.layout_name()));
      const VerifyReport report = VerifyRecords(table, 2);
      ASSERT_EQ(report.errors, 0u) << report.first_errors[0];
      ASSERT_GT(report.checked, 0u);
      ++tables;
    }
  }
  EXPECT_EQ(tables, 204 * 5);
}

TEST(VerifyTest, EveryLayoutOfEveryFreeBoardUpTo12CellsPasses) {
  CheckEveryLayout(/*gravity=*/false, /*misere=*/false);
}

TEST(VerifyTest, EveryLayoutOfEveryGravityBoardUpTo12CellsPasses) {
  CheckEveryLayout(/*gravity=*/true, /*misere=*/false);
}

TEST(VerifyTest, EveryLayoutOfEveryMisereFreeBoardUpTo12CellsPasses) {
  CheckEveryLayout(/*gravity=*/false, /*misere=*/true);
}

TEST(VerifyTest, EveryLayoutOfEveryMisereGravityBoardUpTo12CellsPasses) {
  CheckEveryLayout(/*gravity=*/true, /*misere=*/true);
}

// Misère tic-tac-toe's book: wins come on even plies (the opponent made
// the line), losses on odd ones; normal play's parities would refuse it.
TEST(VerifyTest, MisereBookRecordsFollowMisereParities) {
  const GameSpec spec{3, 3, 3, false, true};
  const Table table = *Table::FromBytes(EveryLayout(spec)[4]);
  const VerifyReport report = VerifyRecords(table, 1);
  EXPECT_EQ(report.errors, 0u);
  EXPECT_EQ(report.reachable, 627u);  // canonical, in play
  const Game& game = table.game();
  EXPECT_TRUE(game.PossibleOutcome(Value::kWin, 8, 8));
  EXPECT_FALSE(game.PossibleOutcome(Value::kWin, 7, 8));
  EXPECT_TRUE(game.PossibleOutcome(Value::kLoss, 1, 8));
  EXPECT_FALSE(game.PossibleOutcome(Value::kLoss, 2, 8));
  const Game normal = *Game::Create({3, 3, 3});
  EXPECT_FALSE(normal.PossibleOutcome(Value::kWin, 8, 8));
  EXPECT_TRUE(normal.PossibleOutcome(Value::kLoss, 8, 8));
  EXPECT_FALSE(normal.PossibleOutcome(Value::kDraw, 7, 8));
}

TEST(VerifyTest, CatchesEachKindOfWrongRecord) {
  const Table built = *LoadBuiltTable("3x3k3.mnk");
  const Game& game = built.game();
  const Position start{};
  const Position corner = *game.Parse("X../.../...");
  struct Case {
    Position p;
    Record r;
    const char* message;
    uint64_t errors;  // the record itself, and its parent when it has one
  };
  for (const Case& c : std::vector<Case>{
           // Another drawing first move: not the policy's (lowest cell).
           {start,
            {Value::kDraw, 9, 4},
            "stored draw in 9, move 4, its children give draw in 9, move 0",
            1},
           {start, {Value::kWin, 9, 0}, "stored win in 9", 1},
           {start, {Value::kDraw, 7, 0}, "stored draw in 7", 1},
           // The empty board above it now sees a losing reply: 2 errors.
           {corner, {Value::kLoss, 8, 4}, "its children give draw in 8", 2},
       }) {
    const VerifyReport report = VerifyRecords(WithRecord(built, c.p, c.r), 1);
    EXPECT_EQ(report.errors, c.errors) << c.message;
    ASSERT_EQ(report.first_errors.size(), c.errors);
    bool found = false;
    for (const std::string& e : report.first_errors) {
      found |= e.find(c.message) != std::string::npos;
    }
    EXPECT_TRUE(found) << c.message << " in " << report.first_errors[0];
  }
  // A reachable position marked unreachable: itself and its parents.
  const VerifyReport hidden =
      VerifyRecords(WithRecord(built, corner, Record{}), 1);
  EXPECT_EQ(hidden.errors, 2u);  // the corner, and the empty board above it
  EXPECT_NE(hidden.first_errors[0].find("marked unreachable"),
            std::string::npos);
}

}  // namespace
}  // namespace mnk
