#include "search/book/merge.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "search/book/book.h"
#include "search/connect.h"
#include "store/write.h"
#include "table/table.h"

namespace mnk {
namespace {

const GameSpec kSpec{5, 4, 4, true};

// A book of Connect-style 5x4: its lines to `plies`, or every position of
// that many stones.
Table Book(int plies, bool every_position) {
  std::unique_ptr<ConnectSearch> search =
      *ConnectSearch::Create(*Game::Create(kSpec), {18});
  BookOptions options;
  options.plies = plies;
  options.every_position = every_position;
  ConnectSearch* searches[] = {search.get()};
  return *Table::FromBytes(
      SerializeBookTable(kSpec, *BuildBook(searches, options)));
}

std::map<uint64_t, uint8_t> Entries(const Table& table) {
  std::map<uint64_t, uint8_t> entries;
  for (uint64_t i = 0; i < table.book()->size(); ++i) {
    entries[table.book()->Key(i)] = table.book()->RecordByte(i);
  }
  return entries;
}

const std::vector<std::string> kNames = {"lines.mnk", "layer.mnk"};

TEST(MergeBooksTest, HoldsEveryPositionOfEitherOnce) {
  const Table lines = Book(6, false), layer = Book(4, true);
  const Table* books[] = {&lines, &layer};
  absl::StatusOr<BookEntries> merged = MergeBooks(books, kNames);
  ASSERT_TRUE(merged.ok()) << merged.status();
  std::map<uint64_t, uint8_t> both = Entries(lines);
  const std::map<uint64_t, uint8_t> second = Entries(layer);
  int shared = 0;
  for (const auto& [key, record] : second) {
    shared += both.count(key);
    both[key] = record;
  }
  EXPECT_EQ(lines.book()->size(), 1084u);
  EXPECT_EQ(layer.book()->size(), 177u);
  EXPECT_EQ(shared, 80);
  ASSERT_EQ(merged->keys.size(), 1084u + 177u - 80u);
  EXPECT_FALSE(merged->complete);
  const Table table = *Table::FromBytes(SerializeBookTable(kSpec, *merged));
  EXPECT_EQ(Entries(table), both);
}

TEST(MergeBooksTest, RefusesBooksThatDisagree) {
  const Table lines = Book(4, false);
  BookEntries changed;
  for (uint64_t i = 0; i < lines.book()->size(); ++i) {
    changed.keys.push_back(lines.book()->Key(i));
    changed.records.push_back(lines.book()->RecordByte(i));
  }
  changed.records[3] ^= 1;  // one more or one fewer ply
  const Table other = *Table::FromBytes(SerializeBookTable(kSpec, changed));
  const Table* books[] = {&lines, &other};
  absl::StatusOr<BookEntries> merged = MergeBooks(books, kNames);
  EXPECT_EQ(merged.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(merged.status().message(),
              testing::MatchesRegex("the books disagree on [.XO/]+: "
                                    "(win|draw|loss) in [0-9]+ in lines.mnk, "
                                    "(win|draw|loss) in [0-9]+ in layer.mnk"));
}

TEST(MergeBooksTest, RefusesABookOfAnotherGame) {
  const Table lines = Book(4, false);
  BookEntries none;
  const Table wider =
      *Table::FromBytes(SerializeBookTable(GameSpec{6, 4, 4, true}, none));
  const Table* two_games[] = {&lines, &wider};
  EXPECT_THAT(MergeBooks(two_games, kNames).status().message(),
              testing::HasSubstr("layer.mnk is a table for 6,4,4 gravity"));
}

}  // namespace
}  // namespace mnk
