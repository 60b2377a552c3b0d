#include "verify/leaves.h"

#include <string>

#include "base/parallel/parallel.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/index/index.h"
#include "solver/retrograde/sparse.h"
#include "store/write.h"
#include "table/record.h"
#include "table/table.h"

namespace mnk {
namespace {

// 5x4 gravity's positions up to 6 stones, from the whole sparse solve: a
// book whose leaves are the 1,626 positions of layer 6.
BookEntries UpTo6(const Game& game) {
  const PositionIndex index(game);
  const Solution whole = *SolveSparse(game, {});
  BookEntries kept;
  for (size_t i = 0; i < whole.book().keys.size(); ++i) {
    if (index.At(whole.book().keys[i]).stones() > 6) continue;
    kept.keys.push_back(whole.book().keys[i]);
    kept.records.push_back(whole.book().records[i]);
  }
  return kept;
}

Table BookTable(const Game& game, const BookEntries& book) {
  return *Table::FromBytes(SerializeBookTable(game.spec(), book));
}

TEST(LeavesTest, SearchesEveryLeafOrASample) {
  const Game game = *Game::Create({5, 4, 4, true});
  const Table table = BookTable(game, UpTo6(game));
  LeafCheckOptions options;
  options.threads = 2;
  options.table_bits = 16;
  absl::StatusOr<LeafReport> all = CheckLeaves(table, options);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->leaves, 1626u);
  EXPECT_EQ(all->checked, 1626u);
  EXPECT_EQ(all->errors, 0u);
  options.sample = 100;
  absl::StatusOr<LeafReport> some = CheckLeaves(table, options);
  ASSERT_TRUE(some.ok()) << some.status();
  EXPECT_EQ(some->checked, 100u);
  EXPECT_EQ(some->errors, 0u);
}

// The progress line counts the leaves searched of those drawn: every leaf
// when the sample asks for all of them or for more than there are.
TEST(LeavesTest, TellsTheProgressHowManyLeavesItSearches) {
  const Game game = *Game::Create({5, 4, 4, true});
  const Table table = BookTable(game, UpTo6(game));
  for (const uint64_t sample : {uint64_t{0}, uint64_t{5000}, uint64_t{100}}) {
    uint64_t done = 0, total = 0;
    {
      Progress progress(false, "leaves", 0, "leaves",
                        [&](const char*, int, uint64_t d, uint64_t t) {
                          done = d;
                          total = t;
                        });
      LeafCheckOptions options;
      options.sample = sample;
      options.table_bits = 16;
      ASSERT_TRUE(CheckLeaves(table, options, &progress).ok());
    }  // the callback's last call: at the end
    const uint64_t searched = sample == 100 ? 100 : 1626;
    EXPECT_EQ(done, searched) << sample;
    EXPECT_EQ(total, searched) << sample;
  }
}

TEST(LeavesTest, FindsAWrongLeaf) {
  const Game game = *Game::Create({5, 4, 4, true});
  BookEntries book = UpTo6(game);
  // The last entry is a leaf (layer 6 comes last): made a loss in 1.
  book.records.back() = RecordArrays::Details(Value::kLoss, 1);
  LeafCheckOptions options;
  options.table_bits = 16;
  absl::StatusOr<LeafReport> r = CheckLeaves(BookTable(game, book), options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->errors, 1u);
  ASSERT_EQ(r->first_errors.size(), 1u);
  EXPECT_THAT(r->first_errors[0],
              testing::HasSubstr(": the book says loss in 1, a fresh search "));
}

TEST(LeavesTest, RefusesWhatItCannotSearch) {
  const Game ttt = *Game::Create({3, 3, 3, false});
  const Table table = *Table::FromBytes(
      SerializeBookTable(ttt.spec(), SolveSparse(ttt, {})->book()));
  const absl::Status no_gravity = CheckLeaves(table, {}).status();
  EXPECT_EQ(no_gravity.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(no_gravity.message(), testing::HasSubstr("has none"));
}

}  // namespace
}  // namespace mnk
