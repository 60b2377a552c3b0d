#include "solver/retrograde/sparse.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/index/index.h"
#include "search/connect.h"
#include "store/write.h"
#include "table/table.h"

namespace mnk {
namespace {

// The sparse solve of a small board against the dense one: the same counts,
// and the book holds exactly the canonical positions in play, each with the
// dense table's value and remoteness.
void ExpectMatchesDenseSolve(const GameSpec& spec) {
  SCOPED_TRACE(spec.Name());
  const Game game = *Game::Create(spec);
  absl::StatusOr<Solution> sparse = SolveSparse(game, {});
  ASSERT_TRUE(sparse.ok()) << sparse.status();
  SolveOptions options;
  options.layout = TableLayout::Full();
  absl::StatusOr<Solution> dense = Solve(game, options);
  ASSERT_TRUE(dense.ok()) << dense.status();

  const SolveStats& a = sparse->stats;
  const SolveStats& b = dense->stats;
  EXPECT_EQ(a.reachable, b.reachable);
  EXPECT_EQ(a.canonical, b.canonical);
  EXPECT_EQ(a.terminal, b.terminal);
  EXPECT_EQ(a.per_ply, b.per_ply);
  EXPECT_EQ(a.x_wins, b.x_wins);
  EXPECT_EQ(a.o_wins, b.o_wins);
  EXPECT_EQ(a.full_draws, b.full_draws);
  EXPECT_EQ(a.wins, b.wins);
  EXPECT_EQ(a.draws, b.draws);
  EXPECT_EQ(a.losses, b.losses);
  EXPECT_EQ(a.start_value, b.start_value);
  EXPECT_EQ(a.start_remoteness, b.start_remoteness);

  std::vector<uint64_t> in_play;
  const RecordView view = dense->records().view();
  for (uint64_t i = 0; i < view.size; ++i) {
    const Position p = dense->index.At(i);
    if (view.Get(i).value != Value::kUnreachable && game.IsCanonical(p) &&
        !game.IsTerminal(p)) {
      in_play.push_back(i);
    }
  }
  const BookEntries& book = sparse->book();
  ASSERT_EQ(book.keys, in_play);
  ASSERT_EQ(book.records.size(), in_play.size());
  for (size_t i = 0; i < in_play.size(); ++i) {
    const Record r = view.Get(in_play[i]);
    ASSERT_EQ(book.records[i], RecordArrays::Details(r.value, r.remoteness))
        << game.Format(dense->index.At(in_play[i]));
  }
}

TEST(SparseSolverTest, SmallBoardsMatchTheDenseSolve) {
  ExpectMatchesDenseSolve({3, 3, 3});
  ExpectMatchesDenseSolve({3, 3, 3, false, true});  // misère
  ExpectMatchesDenseSolve({4, 3, 3});
  ExpectMatchesDenseSolve({3, 3, 2});
  ExpectMatchesDenseSolve({4, 3, 3, true});
  ExpectMatchesDenseSolve({4, 4, 4, true});
  ExpectMatchesDenseSolve({4, 4, 3, true, true});  // misère, gravity
  ExpectMatchesDenseSolve({2, 6, 3, true});
}

TEST(SparseSolverTest, TicTacToe) {
  absl::StatusOr<Solution> s = SolveSparse(*Game::Create({3, 3, 3}), {});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->stats.reachable, 5478u);
  EXPECT_EQ(s->stats.canonical, 765u);
  EXPECT_EQ(s->stats.start_value, Value::kDraw);
  EXPECT_EQ(s->stats.start_remoteness, 9);
  // 765 classes, 138 of them over (Schaefer: 138 terminal positions up to
  // symmetry), 627 in play.
  EXPECT_EQ(s->book().keys.size(), 627u);
  EXPECT_EQ(s->layout, TableLayout::Book());
}

// A board past 32 cells that the dense index cannot hold in memory: one
// column of 40 with gravity. Its stones alternate up the column, so no one
// ever has two in a row: 41 positions, a draw when the column is full.
TEST(SparseSolverTest, OneColumnOfForty) {
  const Game game = *Game::Create({1, 40, 2, true});
  EXPECT_EQ(PositionIndex(game).size(), uint64_t{278116364686});
  absl::StatusOr<Solution> s = SolveSparse(game, {});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->stats.reachable, 41u);
  EXPECT_EQ(s->stats.terminal, 1u);
  EXPECT_EQ(s->stats.full_draws, 1u);
  EXPECT_EQ(s->stats.per_ply, std::vector<uint64_t>(41, 1));
  EXPECT_EQ(s->stats.start_value, Value::kDraw);
  EXPECT_EQ(s->stats.start_remoteness, 40);
  ASSERT_EQ(s->book().keys.size(), 40u);
  for (uint8_t r : s->book().records) {
    EXPECT_EQ(r >> kRemotenessBits, static_cast<int>(Value::kDraw));
  }
}

// Past 32 cells with lines to make: 3 columns of 11 with gravity, three in a
// row (908,449 canonical positions in play). Every one against the exact
// search for Connect-style boards.
TEST(SparseSolverTest, ThreeColumnsOfElevenMatchSearch) {
  const Game game = *Game::Create({3, 11, 3, true});
  absl::StatusOr<Solution> s = SolveSparse(game, {});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->stats.reachable, 3204881u);
  ASSERT_EQ(s->book().keys.size(), 908449u);
  std::unique_ptr<ConnectSearch> search = *ConnectSearch::Create(game, {20});
  const PositionIndex index(game);
  for (size_t i = 0; i < s->book().keys.size(); ++i) {
    const Position p = index.At(s->book().keys[i]);
    const SearchResult live = search->Solve(p);
    ASSERT_EQ(s->book().records[i],
              RecordArrays::Details(live.value, live.remoteness))
        << game.Format(p);
  }
}

TEST(SparseSolverTest, SaysWhereMemoryRanOut) {
  SolveOptions options;
  options.max_bytes = 4096;
  absl::StatusOr<Solution> s = SolveSparse(*Game::Create({4, 4, 4}), options);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.status().message().find("in play up to ply"), std::string::npos)
      << s.status();
}

// A frontier (SolveOptions::frontier): the layers up to 6 stones of 5x4
// gravity backed up from a book of layer 6 alone hold exactly what the
// whole solve holds for them.
BookEntries Layers(const Game& game, const BookEntries& book, int from,
                   int to) {
  const PositionIndex index(game);
  BookEntries kept;
  for (size_t i = 0; i < book.keys.size(); ++i) {
    const int stones = index.At(book.keys[i]).stones();
    if (stones < from || stones > to) continue;
    kept.keys.push_back(book.keys[i]);
    kept.records.push_back(book.records[i]);
  }
  return kept;
}

absl::StatusOr<Solution> SolveFrom(const Game& game,
                                   const BookEntries& frontier) {
  absl::StatusOr<Table> book =
      Table::FromBytes(SerializeBookTable(game.spec(), frontier));
  if (!book.ok()) return book.status();
  SolveOptions options;
  options.frontier = book->book();
  return SolveSparse(game, options);
}

TEST(SparseTest, BacksUpTheLayersBeforeAFrontier) {
  const Game game = *Game::Create({5, 4, 4, true});
  absl::StatusOr<Solution> whole = SolveSparse(game, {});
  ASSERT_TRUE(whole.ok()) << whole.status();
  const BookEntries frontier = Layers(game, whole->book(), 6, 6);
  EXPECT_EQ(frontier.keys.size(), 1626u);

  absl::StatusOr<Solution> backed = SolveFrom(game, frontier);
  ASSERT_TRUE(backed.ok()) << backed.status();
  const BookEntries expected = Layers(game, whole->book(), 0, 6);
  EXPECT_EQ(backed->book().keys, expected.keys);
  EXPECT_EQ(backed->book().records, expected.records);
  EXPECT_FALSE(backed->book().complete);
  EXPECT_EQ(backed->stats.start_value, whole->stats.start_value);
  EXPECT_EQ(backed->stats.start_remoteness, whole->stats.start_remoteness);
  EXPECT_EQ(backed->stats.per_ply[6], whole->stats.per_ply[6]);
  EXPECT_EQ(backed->stats.per_ply[7], 0u);

  // A position missing from the frontier; positions of two layers.
  BookEntries lacking = frontier;
  lacking.keys.erase(lacking.keys.begin() + 100);
  lacking.records.erase(lacking.records.begin() + 100);
  const absl::Status missing = SolveFrom(game, lacking).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(missing.message().find("the frontier book lacks"),
            std::string::npos)
      << missing;
  EXPECT_EQ(SolveFrom(game, Layers(game, whole->book(), 5, 6)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mnk
