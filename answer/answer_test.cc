#include "answer/answer.h"

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "rules/index/index.h"
#include "table/readers.h"

namespace mnk {
namespace {

TEST(AnswerSourceTest, BuiltInTablesNeedNoFile) {
  for (const GameSpec& spec :
       {GameSpec{3, 3, 3}, GameSpec{3, 3, 3, false, true},
        GameSpec{4, 4, 4, true}}) {
    absl::StatusOr<std::unique_ptr<AnswerSource>> source =
        AnswerSource::Open(spec, {});
    ASSERT_TRUE(source.ok()) << source.status();
    EXPECT_EQ((*source)->origin(), "built-in");
    ASSERT_NE((*source)->table(), nullptr);
    EXPECT_FALSE((*source)->searched());
    EXPECT_EQ((*source)->game().spec(), spec);
  }
  const auto ttt = *AnswerSource::Open(GameSpec{3, 3, 3}, {});
  absl::StatusOr<Analysis> a = ttt->Answer("X.O/X.X/OO.");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->record, (Record{Value::kWin, 1, 4}));
}

TEST(AnswerSourceTest, ConnectFourBySearchAfterTheBuiltInBook) {
  SourceOptions options;
  options.search_memory = 16 << 20;
  options.searches = 2;
  const auto source = *AnswerSource::Open(GameSpec{7, 6, 4, true}, options);
  EXPECT_EQ(source->origin(), "search");
  ASSERT_NE(source->book(), nullptr);
  const Position empty{};
  EXPECT_FALSE(source->NeedsSearch(empty));  // in the book
  absl::StatusOr<Analysis> start = source->oracle().Analyze(empty);
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(start->record.value, Value::kWin);
  EXPECT_EQ(start->record.remoteness, 41);
  EXPECT_EQ(start->record.best_move, 38);  // the centre column, bottom row
  // Every move's answer by lookup alone: not one position searched.
  ASSERT_EQ(source->Answer(empty)->moves.size(), 7u);
  EXPECT_EQ(source->searched_nodes(), 0u);
  // Off the book: two answers at once, a search each.
  const std::string late = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO";
  EXPECT_TRUE(source->NeedsSearch(*source->game().Parse(late)));
  std::vector<std::thread> threads;
  std::vector<int> best(2, -1);
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back(
        [&, i] { best[i] = source->Answer(late)->record.best_move; });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(best, (std::vector<int>{16, 16}));
  EXPECT_GT(source->searched_nodes(), 0u);
}

// A position the book holds without all of its moves (its last ply): the
// search takes the book's result for it and searches only its moves.
TEST(AnswerSourceTest, TheBookAnswersItsPositionsBesideTheSearch) {
  SourceOptions options;
  options.search_memory = 16 << 20;
  const auto source = *AnswerSource::Open(GameSpec{7, 6, 4, true}, options);
  const BookReader& book = *source->book()->book();
  const PositionIndex index(source->game());
  std::optional<Position> edge;
  for (uint64_t i = 0; i < book.size() && !edge.has_value(); ++i) {
    const Position p = index.At(book.Key(i));
    if (p.stones() == 12 && source->NeedsSearch(p)) edge = p;
  }
  ASSERT_TRUE(edge.has_value());
  options.builtin = false;
  const auto plain = *AnswerSource::Open(GameSpec{7, 6, 4, true}, options);
  const absl::StatusOr<Analysis> want =
      plain->Answer(*edge, {}, {}, Need::kBestMove);
  const absl::StatusOr<Analysis> got =
      source->Answer(*edge, {}, {}, Need::kBestMove);
  ASSERT_TRUE(want.ok() && got.ok());
  EXPECT_EQ(got->record, want->record);
  EXPECT_EQ(got->record.value, book.Find(*edge)->value);
  EXPECT_EQ(got->record.remoteness, book.Find(*edge)->remoteness);
  // The root's score is the book's: only the moves were searched.
  EXPECT_LT(source->searched_nodes(), plain->searched_nodes());
}

TEST(AnswerSourceTest, FailuresSayWhy) {
  const auto ttt = *AnswerSource::Open(GameSpec{3, 3, 3}, {});
  absl::StatusOr<Analysis> a = ttt->Answer("XXX/OOO/...");
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FailureOf(a.status()), AnswerFailure::kBadPosition);
  EXPECT_EQ(a.status().message(),
            "position 'XXX/OOO/...': both players have 3 in a row: the game "
            "ends at the first line");
  absl::StatusOr<std::vector<Analysis>> all =
      ttt->AnswerAll({".........", "X.O/X.X/OO.", "bad"});
  EXPECT_EQ(FailureOf(all.status()), AnswerFailure::kBadPosition);
  EXPECT_EQ(all.status().message().substr(0, 18), "position 2 'bad': ");
  all = ttt->AnswerAll({".........", "X.O/X.X/OO."});
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ((*all)[1].record, (Record{Value::kWin, 1, 4}));
  EXPECT_EQ(FailureOf(absl::OkStatus()), AnswerFailure::kNone);
  EXPECT_EQ(FailureOf(absl::DataLossError("page 3")),
            AnswerFailure::kTableDamaged);
  EXPECT_EQ(FailureOf(absl::ResourceExhaustedError("memory")),
            AnswerFailure::kNoMemory);
  EXPECT_FALSE(IsSearchStop(absl::ResourceExhaustedError("memory")));

  // A search stopped by each of its limits, in the search.
  SourceOptions options;
  options.search_memory = 16 << 20;
  const auto c4 = *AnswerSource::Open(GameSpec{7, 6, 4, true}, options);
  const std::string early = "......./......./.X...../.OO..../XOX.O../XXO.X.O";
  ASSERT_TRUE(c4->NeedsSearch(*c4->game().Parse(early)));
  AnswerLimits nodes;
  nodes.max_nodes = 1000;
  a = c4->Answer(early, nodes);
  EXPECT_EQ(a.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(FailureOf(a.status()), AnswerFailure::kNodeLimit);
  EXPECT_TRUE(IsSearchStop(a.status()));
  AnswerLimits time;
  time.max_time = absl::Milliseconds(1);
  a = c4->Answer(early, time);
  EXPECT_EQ(FailureOf(a.status()), AnswerFailure::kDeadline) << a.status();
  const std::atomic<bool> cancelled{true};
  AnswerLimits cancel;
  cancel.cancel = &cancelled;
  a = c4->Answer(early, cancel);
  EXPECT_EQ(FailureOf(a.status()), AnswerFailure::kCancelled) << a.status();
  all = c4->AnswerAll(
      {"......./......./......./......./......./.......", early}, nodes);
  EXPECT_EQ(FailureOf(all.status()), AnswerFailure::kNodeLimit);
  EXPECT_EQ(all.status().message().substr(0, 12), "position 1: ");
}

TEST(AnswerSourceTest, SaysWhyAGameHasNoSource) {
  absl::StatusOr<std::unique_ptr<AnswerSource>> none =
      AnswerSource::Open(GameSpec{4, 4, 4}, {});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(none.status().message(),
            "no built-in table for 4,4,4: `solve --width=4 --height=4 --k=4 "
            "--estimate` says what solving it takes; `solve --width=4 "
            "--height=4 --k=4 --out=FILE` makes one, and --table=FILE plays "
            "from it");
  SourceOptions options;
  options.how_to_solve = [](const GameSpec& g) { return g.Title(); };
  EXPECT_EQ(AnswerSource::Open(GameSpec{4, 4, 4}, options).status().message(),
            "no built-in table for 4,4,4: 4,4,4: four in a row on 4x4");
  none = AnswerSource::Open(GameSpec{8, 8, 5}, {});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(none.status().message().find("has 64 cells"), std::string::npos);
  // Connect Four misère, which the search does not play either: the flags
  // of its variant.
  none = AnswerSource::Open(GameSpec{7, 6, 4, true, true}, {});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(none.status().message().find(
                "--width=7 --height=6 --k=4 --gravity --misere --estimate`"),
            std::string::npos)
      << none.status();
  EXPECT_EQ(AnswerSource::Open(GameSpec{3, 3, 9}, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(AnswerSource::Open(std::nullopt, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  SourceOptions little;
  little.search_memory = 1024;
  little.search_memory_name = "--search_memory=1K";
  absl::StatusOr<std::unique_ptr<AnswerSource>> starved =
      AnswerSource::Open(GameSpec{7, 6, 4, true}, little);
  EXPECT_EQ(starved.status().message(),
            "--search_memory=1K is too little: expected at least 16 KiB");
  SourceOptions missing;
  missing.table = "/nonexistent/t.mnk";
  EXPECT_EQ(AnswerSource::Open(GameSpec{3, 3, 3}, missing).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace mnk
