// The compact layout against the full one: the same value for every
// reachable position, a best move that keeps it (the lowest such cell), no
// remoteness; verify passes it and catches a changed value.
#include <vector>

#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"
#include "store/write.h"
#include "table/table.h"
#include "verify/verify.h"

namespace mnk {
namespace {

TEST(CompactTest, SameValuesAsFullTables) {
  for (const GameSpec& spec : std::vector<GameSpec>{
           {3, 3, 3}, {4, 3, 3}, {4, 4, 3, true}, {5, 4, 4, true}, {3, 5, 3}}) {
    const Game game = *Game::Create(spec);
    SCOPED_TRACE(spec.Name());
    SolveOptions options;
    absl::StatusOr<Solution> full = Solve(game, options);
    options.layout = TableLayout::Compact();
    absl::StatusOr<Solution> compact = Solve(game, options);
    ASSERT_TRUE(full.ok() && compact.ok());
    EXPECT_EQ(compact->stats.reachable, full->stats.reachable);
    EXPECT_EQ(compact->compact().size(), CompactLayout(full->index).bytes());
    absl::StatusOr<Table> table = Table::FromBytes(SerializeCompactTable(
        spec, compact->compact(), compact->stats.reachable));
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_EQ(table->layout(), Layout::kCompact);
    EXPECT_EQ(table->file_bytes(), CompactTableFileSize(full->index));
    const RecordView records = full->records().view();
    for (uint64_t i = 0; i < records.size; ++i) {
      const Record expected = records.Get(i);
      if (expected.value == Value::kUnreachable) continue;
      const Position p = full->index.At(i);
      absl::StatusOr<Record> r = table->Probe(p);
      ASSERT_TRUE(r.ok()) << game.Format(p) << r.status();
      ASSERT_EQ(r->value, expected.value) << game.Format(p);
      ASSERT_EQ(r->remoteness, kUnknownRemoteness);
      // The best move keeps the value, and no lower cell does.
      int lowest = kNoMove;
      for (int cell : game.LegalMoves(p)) {
        const Record child =
            records.Get(full->index.Index(Game::Play(p, cell)));
        if (Negate(child.value) == expected.value) {
          lowest = cell;
          break;
        }
      }
      ASSERT_EQ(r->best_move, lowest) << game.Format(p);
    }
    const VerifyReport report = VerifyRecords(*table, 2);
    EXPECT_EQ(report.errors, 0u) << report.first_errors[0];
    EXPECT_EQ(report.reachable, full->stats.reachable);
  }
}

TEST(CompactTest, VerifyCatchesAChangedValue) {
  const GameSpec spec{4, 4, 3, true};
  const Game game = *Game::Create(spec);
  SolveOptions options;
  options.layout = TableLayout::Compact();
  absl::StatusOr<Solution> s = Solve(game, options);
  ASSERT_TRUE(s.ok());
  // X in column 0: turn the stored value of the position after O's reply in
  // column 1 into its neighbour digit.
  const Position p = *game.Parse("..../..../..../XO..");
  const CompactLayout layout(s->index);
  const uint64_t j = layout.Entry(s->index.Index(p), p.stones());
  const Value before = CompactLayout::Get(s->compact().data(), j);
  std::vector<uint8_t> changed = s->compact();
  static constexpr uint8_t kPower[5] = {1, 3, 9, 27, 81};
  if (before == Value::kWin) {
    changed[j / 5] -= kPower[j % 5];
  } else {
    changed[j / 5] += kPower[j % 5];
  }
  absl::StatusOr<Table> table = Table::FromBytes(
      SerializeCompactTable(spec, changed, s->stats.reachable));
  ASSERT_TRUE(table.ok());
  const VerifyReport report = VerifyRecords(*table, 1);
  EXPECT_GE(report.errors, 1u);
  EXPECT_NE(report.first_errors[0].find("stored"), std::string::npos)
      << report.first_errors[0];
}

}  // namespace
}  // namespace mnk
