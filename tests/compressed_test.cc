// The compressed layout (3) against the full one: with remoteness, the very
// same record for every reachable position (value, remoteness, best move);
// without, the same value and a best move that keeps it. Every position of
// the boards up to 12 cells, normal and misère, with and without gravity;
// 100,000 random reachable positions of 4,4,4. verify passes them and
// catches a damaged table, in memory and a tier at a time (gravity).
#include <atomic>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"
#include "store/write.h"
#include "table/sha256.h"
#include "table/table.h"
#include "tests/small_boards.h"
#include "verify/verify.h"

namespace mnk {
namespace {

// VerifyInWorkDir's report in a fresh scratch dir, tiers of `tier` indices.
VerifyReport VerifyInTiers(const Table& table, uint64_t tier, int threads) {
  static int runs = 0;
  TieredVerifyOptions options;
  options.work_dir =
      absl::StrCat(std::getenv("TEST_TMPDIR"), "/verify", ++runs);
  options.tier_indices = tier;
  options.threads = threads;
  absl::StatusOr<VerifyReport> report = VerifyInWorkDir(table, options);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : VerifyReport{};
}

// Checks the positions i of `full` for which pick(i) is true.
template <typename Pick>
void CheckAgainstFull(const Solution& full, bool remoteness, Pick pick) {
  const Game& game = full.game;
  absl::StatusOr<Table> table = Table::FromBytes(SerializeCompressedTable(
      game, full.records().view(), full.stats.reachable, remoteness));
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->layout(), Layout::kCompressed);
  ASSERT_EQ(table->has_remoteness(), remoteness);
  const RecordView records = full.records().view();
  for (uint64_t i = 0; i < records.size; ++i) {
    const Record expected = records.Get(i);
    if (expected.value == Value::kUnreachable || !pick(i)) continue;
    const Position p = full.index.At(i);
    absl::StatusOr<Record> r = table->Probe(p);
    ASSERT_TRUE(r.ok()) << game.Format(p) << r.status();
    ASSERT_EQ(r->value, expected.value) << game.Format(p);
    ASSERT_EQ(table->ValueOf(p), expected.value) << game.Format(p);
    if (remoteness) {
      ASSERT_EQ(r->remoteness, expected.remoteness) << game.Format(p);
      ASSERT_EQ(r->best_move, expected.best_move) << game.Format(p);
    } else {
      // Unknown, except where the rules say the game is over.
      ASSERT_EQ(r->remoteness,
                expected.remoteness == 0 ? 0 : kUnknownRemoteness);
      if (expected.best_move == kNoMove) {
        ASSERT_EQ(r->best_move, kNoMove);
      } else {
        const Record child =
            records.Get(full.index.Index(Game::Play(p, r->best_move)));
        ASSERT_EQ(Negate(child.value), expected.value) << game.Format(p);
      }
    }
  }
}

TEST(CompressedTest, EveryBoardUpTo12Cells) {
  int boards = 0;
  for (const GameSpec& spec : SmallBoards()) {
    SCOPED_TRACE(spec.Name());
    for (bool remoteness : {true, false}) {
      CheckAgainstFull(SolvedSmallBoard(spec), remoteness,
                       [](uint64_t) { return true; });
    }
    ++boards;
  }
  EXPECT_EQ(boards, 816);
}

TEST(CompressedTest, RandomPositionsOf444) {
  absl::StatusOr<Solution> full = Solve(*Game::Create({4, 4, 4}), {2});
  ASSERT_TRUE(full.ok());
  // About 100,000 of the 9,722,011 reachable positions.
  std::mt19937_64 rng(3);
  const uint64_t n = full->index.size();
  std::vector<bool> picked(n);
  for (int i = 0; i < 120000; ++i) picked[rng() % n] = true;
  CheckAgainstFull(*full, true, [&](uint64_t i) { return picked[i]; });
}

// The solver's compressed mode (sections encoded layer by layer, no full
// records) writes the very bytes made from full records, whatever the
// thread count.
TEST(CompressedTest, SolverWritesTheSameBytes) {
  for (const GameSpec& spec : std::vector<GameSpec>{{3, 3, 3},
                                                    {4, 4, 4},
                                                    {4, 4, 4, true},
                                                    {5, 4, 4, true},
                                                    {4, 3, 3, false, true}}) {
    SCOPED_TRACE(spec.Name());
    const Game game = *Game::Create(spec);
    absl::StatusOr<Solution> full = Solve(game, {2});
    ASSERT_TRUE(full.ok());
    for (bool remoteness : {true, false}) {
      const std::string expected = SerializeCompressedTable(
          game, full->records().view(), full->stats.reachable, remoteness);
      for (int threads : {1, 2}) {
        SolveOptions options;
        options.threads = threads;
        options.layout = TableLayout::Compressed(remoteness);
        absl::StatusOr<Solution> s = Solve(game, options);
        ASSERT_TRUE(s.ok());
        EXPECT_EQ(s->records().size(), 0u);
        EXPECT_EQ(s->stats.reachable, full->stats.reachable);
        EXPECT_TRUE(SerializeCompressedTable(spec, s->sections(),
                                             s->stats.reachable,
                                             remoteness) == expected);
      }
    }
  }
}

TEST(CompressedTest, SmallerThanFullAndVerified) {
  const GameSpec spec{4, 4, 4, true};
  absl::StatusOr<Solution> full = Solve(*Game::Create(spec), {2});
  ASSERT_TRUE(full.ok());
  const std::string bytes = SerializeCompressedTable(
      full->game, full->records().view(), full->stats.reachable, true);
  // 43,522 bytes against 454,461 (44,269 before blocks grew in sparse
  // layers).
  EXPECT_EQ(bytes.size(), 43522u);
  EXPECT_EQ(TableFileSize(full->index.size()), 454461u);
  absl::StatusOr<Table> table = Table::FromBytes(bytes);
  ASSERT_TRUE(table.ok());
  VerifyReport report = VerifyRecords(*table, 2);
  EXPECT_EQ(report.errors, 0u) << report.first_errors[0];
  EXPECT_EQ(report.reachable, 161029u);
  // A flipped byte in the sections: the checksum refuses the file.
  std::string damaged = bytes;
  damaged[bytes.size() / 2] ^= 0x10;
  EXPECT_EQ(Table::FromBytes(damaged).status().code(),
            absl::StatusCode::kDataLoss);
}

// Sections that do not decode (a table loaded without its whole-file
// check, its bytes flipped) are an error of both verifiers' reports, named
// alike, not a failure of the work dir.
TEST(CompressedTest, DamagedSectionsAreAnErrorOfBothReports) {
  absl::StatusOr<Solution> full =
      Solve(*Game::Create(GameSpec{5, 4, 4, true}), {2});
  ASSERT_TRUE(full.ok());
  const std::string intact = SerializeCompressedTable(
      full->game, full->records().view(), full->stats.reachable, true);
  std::mt19937_64 rng(1);
  int damaged_sections = 0;
  for (int flip = 0; flip < 200 && damaged_sections < 2; ++flip) {
    std::string bytes = intact;
    bytes[intact.size() / 4 + rng() % (intact.size() / 2)] ^=
        static_cast<char>(1 << rng() % 8);
    absl::StatusOr<Table> table =
        Table::FromBytes(std::move(bytes), {}, "damaged", 0);
    if (!table.ok()) continue;
    const VerifyReport memory = VerifyRecords(*table, 2);
    if (memory.first_errors.empty() ||
        memory.first_errors[0].find("its sections are damaged") ==
            std::string::npos) {
      continue;
    }
    ++damaged_sections;
    const VerifyReport tiers = VerifyInTiers(*table, 4096, 1);
    ASSERT_EQ(tiers.errors, 1u);
    EXPECT_EQ(tiers.first_errors[0], memory.first_errors[0]);
  }
  EXPECT_EQ(damaged_sections, 2);
}

// verify re-derives every stored record from its children: a value, a
// remoteness or a move changed in one record is found, and named first
// (layers are checked from the last, one thread: before its ancestors).
TEST(CompressedTest, VerifyFindsRecordsThatLie) {
  const GameSpec spec{4, 4, 4, true};
  absl::StatusOr<Solution> full = Solve(*Game::Create(spec), {2});
  ASSERT_TRUE(full.ok());
  const Game& game = full->game;
  const Position p = *game.Parse("..../..../..../XO..");
  ASSERT_TRUE(game.Canonical(p) == p);
  const uint64_t i = full->index.Index(p);
  const Record truth = full->records().view().Get(i);
  ASSERT_EQ(truth, (Record{Value::kDraw, 14, 8}));  // column 0
  // Column 3 (cell 15) is no better; without remoteness it is only checked
  // to keep the value.
  const Value column3 = Negate(
      full->records().view().Get(full->index.Index(Game::Play(p, 15))).value);
  for (bool remoteness : {true, false}) {
    for (const Record& lie :
         {Record{Value::kWin, 14, 8}, Record{Value::kDraw, 12, 8},
          Record{Value::kDraw, 14, 15}}) {
      if (!remoteness && lie.remoteness != truth.remoteness) continue;
      full->records().Set(i, lie);
      absl::StatusOr<Table> table = Table::FromBytes(SerializeCompressedTable(
          game, full->records().view(), full->stats.reachable, remoteness));
      full->records().Set(i, truth);
      ASSERT_TRUE(table.ok()) << table.status();
      for (const VerifyReport& report :
           {VerifyRecords(*table, 1), VerifyInTiers(*table, 4096, 1)}) {
        if (!remoteness && lie.best_move == 15 && column3 == Value::kDraw) {
          EXPECT_EQ(report.errors, 0u) << report.first_errors[0];
          continue;
        }
        ASSERT_GE(report.errors, 1u) << lie.best_move;
        EXPECT_NE(report.first_errors[0].find(absl::StrCat(
                      "index ", i, " ", game.Format(p), ": stored ")),
                  std::string::npos)
            << report.first_errors[0];
      }
    }
  }
}

// A verify in a work dir is resumed only for the table it began with: a
// table of the same game and size put at its place (every checksum right,
// as another build's re-solve writes it) is refused, whatever the work dir
// holds; verified afresh, the lie is found.
TEST(CompressedTest, ResumedVerifyRefusesAnotherTable) {
  const GameSpec spec{4, 4, 4, true};
  absl::StatusOr<Solution> full = Solve(*Game::Create(spec), {2});
  ASSERT_TRUE(full.ok());
  const Game& game = full->game;
  const std::string intact = SerializeCompressedTable(
      game, full->records().view(), full->stats.reachable, true);
  // Another best move (column) in the record of an early position, the
  // first that leaves the file's size as it was.
  std::string other;
  for (const char* text : {"..../..../..../XO..", "..../..../..../X..O",
                           "..../..../..../.XO.", "..../..../X.../O..."}) {
    const uint64_t i = full->index.Index(*game.Parse(text));
    const Record truth = full->records().view().Get(i);
    full->records().Set(i, Record{truth.value, truth.remoteness,
                                  12 + (truth.best_move + 1) % 4});
    other = SerializeCompressedTable(game, full->records().view(),
                                     full->stats.reachable, true);
    full->records().Set(i, truth);
    if (other.size() == intact.size()) break;
  }
  ASSERT_EQ(other.size(), intact.size());
  ASSERT_TRUE(other != intact);

  TieredVerifyOptions options;
  options.work_dir = absl::StrCat(std::getenv("TEST_TMPDIR"), "/swapped");
  options.tier_indices = 4096;
  const Table first = *Table::FromBytes(intact);
  absl::StatusOr<VerifyReport> done = VerifyInWorkDir(first, options);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(done->errors, 0u);
  const Table swapped = *Table::FromBytes(other);
  EXPECT_NE(Sha256(swapped), Sha256(first));
  options.resume = true;
  absl::StatusOr<VerifyReport> resumed = VerifyInWorkDir(swapped, options);
  EXPECT_EQ(resumed.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(resumed.status().message().find(absl::StrCat(
                "holds a verify of another table: its content had SHA-256 ",
                Sha256(first), ", this table's is ", Sha256(swapped))),
            std::string::npos)
      << resumed.status();
  // The table it began with resumes, all found done.
  absl::StatusOr<VerifyReport> again = VerifyInWorkDir(first, options);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->errors, 0u);
  EXPECT_EQ(VerifyInTiers(swapped, 4096, 1).errors, 1u);
}

// On a free board a tier at a time derives every position, not only the
// canonical ones the table keeps: a lie in a stored record is found there,
// as in memory, and not again at its symmetric images or its parents.
TEST(CompressedTest, VerifyInTiersFindsLiesOnFreeBoards) {
  const GameSpec spec{4, 4, 4};
  absl::StatusOr<Solution> full = Solve(*Game::Create(spec), {2});
  ASSERT_TRUE(full.ok());
  const Game& game = full->game;
  const Position p = game.Canonical(*game.Parse("X.../.O../..../...."));
  const uint64_t i = full->index.Index(p);
  const Record truth = full->records().view().Get(i);
  ASSERT_EQ(truth.value, Value::kDraw);
  full->records().Set(i, {Value::kWin, truth.remoteness, truth.best_move});
  absl::StatusOr<Table> table = Table::FromBytes(SerializeCompressedTable(
      game, full->records().view(), full->stats.reachable, true));
  full->records().Set(i, truth);
  ASSERT_TRUE(table.ok()) << table.status();
  const VerifyReport memory = VerifyRecords(*table, 1);
  const VerifyReport tiers = VerifyInTiers(*table, 4096, 1);
  for (const VerifyReport& report : {memory, tiers}) {
    ASSERT_GE(report.errors, 1u);
    EXPECT_EQ(report.first_errors[0].find(absl::StrCat(
                  "index ", i, " ", game.Format(p), ": stored win")),
              0u)
        << report.first_errors[0];
  }
  EXPECT_EQ(tiers.errors, 1u);
  EXPECT_EQ(tiers.reachable, full->stats.reachable);
}

// A tier at a time, the same report as in memory: gravity and free boards
// of up to 16 cells with k = 3 or 4, normal and misère, with and without
// remoteness, tiers from 64 indices (one to hundreds a layer).
TEST(CompressedTest, VerifyInTiersGivesTheSameReport) {
  int boards = 0;
  for (const GameSpec& spec :
       {GameSpec{3, 3, 3, true}, GameSpec{4, 3, 3, true, true},
        GameSpec{4, 4, 3, true}, GameSpec{4, 4, 4, true},
        GameSpec{4, 4, 4, true, true}, GameSpec{5, 3, 3, true},
        GameSpec{3, 3, 3}, GameSpec{4, 3, 3, false, true}, GameSpec{4, 4, 3},
        GameSpec{4, 4, 4}}) {
    absl::StatusOr<Solution> full = Solve(*Game::Create(spec), {2});
    ASSERT_TRUE(full.ok());
    for (bool remoteness : {true, false}) {
      absl::StatusOr<Table> table = Table::FromBytes(
          SerializeCompressedTable(full->game, full->records().view(),
                                   full->stats.reachable, remoteness));
      ASSERT_TRUE(table.ok()) << table.status();
      const VerifyReport memory = VerifyRecords(*table, 2);
      ASSERT_EQ(memory.errors, 0u) << memory.first_errors[0];
      const uint64_t small = spec.cells() <= 12 ? 64 : 4096;
      for (uint64_t tier : {small, uint64_t{1} << 16}) {
        const VerifyReport tiers = VerifyInTiers(*table, tier, 2);
        EXPECT_EQ(tiers.errors, 0u)
            << spec.Name() << ": " << tiers.first_errors[0];
        EXPECT_EQ(tiers.indices, memory.indices) << spec.Name();
        EXPECT_EQ(tiers.reachable, full->stats.reachable) << spec.Name();
        EXPECT_EQ(tiers.checked, memory.checked) << spec.Name();
      }
      ++boards;
    }
  }
  EXPECT_EQ(boards, 20);
}

// A finished verify resumed in its work dir gives the same report, does
// no work and reports all of it found done: as many entries as the first
// run's progress counted (the progress line's "s left" after a resume).
TEST(CompressedTest, VerifyInTiersResumedCountsWhatItFindsDone) {
  absl::StatusOr<Solution> full = Solve(*Game::Create(GameSpec{4, 4, 4}), {2});
  ASSERT_TRUE(full.ok());
  absl::StatusOr<Table> table = Table::FromBytes(SerializeCompressedTable(
      full->game, full->records().view(), full->stats.reachable, true));
  ASSERT_TRUE(table.ok()) << table.status();
  TieredVerifyOptions options;
  options.work_dir = absl::StrCat(std::getenv("TEST_TMPDIR"), "/resumed");
  options.tier_indices = 4096;
  std::atomic<uint64_t> done[2] = {0, 0}, found[2] = {0, 0};
  VerifyReport reports[2];
  for (int run : {0, 1}) {
    options.resume = run == 1;
    absl::StatusOr<VerifyReport> report = VerifyInWorkDir(
        *table, options, [&](uint64_t n) { done[run] += n; },
        [&](uint64_t n) { found[run] += n; });
    ASSERT_TRUE(report.ok()) << report.status();
    reports[run] = *report;
  }
  const uint64_t entries = table->index().size();
  const uint64_t full_board = table->index().layer_size(16);
  EXPECT_EQ(done[0], 2 * entries - full_board);
  EXPECT_EQ(found[0], 0u);
  EXPECT_EQ(done[1], 0u);
  EXPECT_EQ(found[1], 2 * entries - full_board);
  EXPECT_EQ(reports[1].errors, 0u);
  EXPECT_EQ(reports[1].reachable, full->stats.reachable);
  EXPECT_EQ(reports[1].checked, reports[0].checked);
}

// Tables a tier at a time cannot check: other layouts than compressed; a
// bad tier size.
TEST(CompressedTest, VerifyInTiersRefuses) {
  const GameSpec spec{3, 3, 3};
  absl::StatusOr<Solution> full = Solve(*Game::Create(spec), {2});
  ASSERT_TRUE(full.ok());
  for (bool compressed : {false, true}) {
    absl::StatusOr<Table> table = Table::FromBytes(
        compressed
            ? SerializeCompressedTable(full->game, full->records().view(),
                                       full->stats.reachable, true)
            : SerializeTable(spec, full->records().view(),
                             full->stats.reachable));
    ASSERT_TRUE(table.ok()) << table.status();
    TieredVerifyOptions options;
    options.work_dir = absl::StrCat(std::getenv("TEST_TMPDIR"), "/refused");
    options.tier_indices = compressed ? 100 : 64;
    const absl::Status s = VerifyInWorkDir(*table, options).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_NE(s.message().find(compressed ? "expected a power of two"
                                          : "compressed tables only"),
              std::string::npos)
        << s;
  }
}

}  // namespace
}  // namespace mnk
