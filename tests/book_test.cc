// The opening book (search/book) against the retrograde solver's records
// of Connect-style 5x4: every entry's value and remoteness, the best move of
// every position the book answers, the book layout's verify, a stopped
// run that resumes from its work dir to the same bytes, and every position
// of a layer. And the built-in
// 7x6 book against the search, on a random sample of its entries: minutes
// of search, so not part of `bazel test //...`:
//
//   bazel test //tests:book_sample_test --test_output=all
#include "search/book/book.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/numeric/bits.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "player/player.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "search/connect.h"
#include "solver/retrograde/solver.h"
#include "store/write.h"
#include "table/table.h"
#include "verify/verify.h"

namespace mnk {
namespace {

const GameSpec kSpec{5, 4, 4, true};

absl::StatusOr<BookEntries> Build(int plies, const std::string& work_dir,
                                  uint64_t* solved = nullptr, int threads = 1,
                                  bool every_position = false) {
  std::vector<std::unique_ptr<ConnectSearch>> searches;
  std::vector<ConnectSearch*> pointers;
  for (int t = 0; t < threads; ++t) {
    searches.push_back(*ConnectSearch::Create(*Game::Create(kSpec), {18}));
    pointers.push_back(searches.back().get());
  }
  BookOptions options;
  options.plies = plies;
  options.every_position = every_position;
  options.work_dir = work_dir;
  options.progress = [solved](const BookProgress& p) {
    if (solved != nullptr) *solved = p.solved;
  };
  return BuildBook(pointers, options);
}

TEST(BookTest, AgreesWithTheSolvedTable) {
  absl::StatusOr<BookEntries> book = Build(8, "");
  ASSERT_TRUE(book.ok()) << book.status();
  EXPECT_EQ(book->keys.size(), 3798u);
  absl::StatusOr<Table> table =
      Table::FromBytes(SerializeBookTable(kSpec, *book));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_STREQ(table->layout_name(), "book");
  const VerifyReport report = VerifyRecords(*table, 1);
  EXPECT_EQ(report.errors, 0u) << report.first_errors[0];
  EXPECT_EQ(report.reachable, book->keys.size());
  EXPECT_EQ(report.checked, 952u);

  const Game game = *Game::Create(kSpec);
  absl::StatusOr<Solution> solved = Solve(game, {2});
  ASSERT_TRUE(solved.ok()) << solved.status();
  int answered = 0;
  for (size_t i = 0; i < book->keys.size(); ++i) {
    const Position p = table->index().At(book->keys[i]);
    for (const Position& image : {p, game.Transform(p, 1)}) {
      const Record want =
          solved->records().view().Get(solved->index.Index(image));
      const std::optional<BookEntry> got = table->book()->Find(image);
      ASSERT_TRUE(got.has_value()) << game.Format(image);
      ASSERT_EQ(got->value, want.value) << game.Format(image);
      ASSERT_EQ(got->remoteness, want.remoteness) << game.Format(image);
      absl::StatusOr<Record> probed = table->Probe(image);
      if (probed.ok()) {
        ASSERT_EQ(*probed, want) << game.Format(image);
        ++answered;
      } else {
        ASSERT_EQ(probed.status().code(), absl::StatusCode::kNotFound);
      }
    }
  }
  EXPECT_EQ(answered, 2 * 952);
  // A position the book does not hold.
  EXPECT_EQ(
      table->Probe(*game.Parse("...../...../...../XXOO.")).status().code(),
      absl::StatusCode::kNotFound);
}

// The player answers from the book what the search answers, byte for byte,
// on every position the book holds and on the moves after them (which the
// search answers when the book cannot).
TEST(BookTest, ThePlayerAnswersFromTheBookAsTheSearchDoes) {
  absl::StatusOr<BookEntries> book = Build(8, "");
  ASSERT_TRUE(book.ok()) << book.status();
  const Table table = *Table::FromBytes(SerializeBookTable(kSpec, *book));
  const Game& game = table.game();
  std::unique_ptr<ConnectSearch> search = *ConnectSearch::Create(game, {18});
  const Oracle searched(search.get()), with_book(search.get(), &table);
  int compared = 0, from_book = 0;
  for (uint64_t key : book->keys) {
    const Position p = table.index().At(key);
    for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
      for (const Position& q :
           {p, game.Transform(p, 1), Game::Play(p, absl::countr_zero(s))}) {
        const std::string line = game.Format(q);
        ASSERT_EQ(AnswerLine(with_book, line, true),
                  AnswerLine(searched, line, true));
        ++compared;
        from_book += table.Probe(q).ok();
      }
    }
  }
  EXPECT_EQ(compared, 50895);
  // 10,115 held by the book and 194 over (the rules answer); the rest fell
  // through to the search.
  EXPECT_EQ(from_book, 10309);
}

TEST(BookTest, AStoppedRunResumesToTheSameBytes) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/book";
  uint64_t solved = 0;
  absl::StatusOr<BookEntries> first = Build(6, dir, &solved);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_GT(solved, 0u);
  // A run killed while writing leaves a torn record: it is cut off.
  std::ofstream(dir + "/book-5x4k4g.log", std::ios::app) << "torn";
  absl::StatusOr<BookEntries> again = Build(6, dir, &solved);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(solved, 0u);
  EXPECT_EQ(SerializeBookTable(kSpec, *again),
            SerializeBookTable(kSpec, *first));
  // A deeper book solves only what the shallower one did not.
  absl::StatusOr<BookEntries> deeper = Build(8, dir, &solved);
  ASSERT_TRUE(deeper.ok()) << deeper.status();
  EXPECT_EQ(SerializeBookTable(kSpec, *deeper),
            SerializeBookTable(kSpec, *Build(8, "")));
  // A shallower book from a deeper run's log holds only its own positions.
  EXPECT_EQ(SerializeBookTable(kSpec, *Build(6, dir, &solved)),
            SerializeBookTable(kSpec, *first));
  EXPECT_EQ(solved, 0u);
  EXPECT_LT(solved, 3798u - first->keys.size() + 1);
}

TEST(BookTest, RefusesAWorkDirInUse) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/in-use";
  ASSERT_TRUE(Build(4, dir).ok());
  // Another process's lock: flock locks belong to the open file, so a
  // second open in this process stands for it.
  const int fd = open((dir + "/book-5x4k4g.log").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  const absl::Status in_use = Build(4, dir).status();
  EXPECT_EQ(in_use.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(in_use.message(),
              testing::HasSubstr("another process is building this book"));
  close(fd);
  EXPECT_TRUE(Build(4, dir).ok());
}

TEST(BookTest, ThreadsBuildTheSameBook) {
  absl::StatusOr<BookEntries> one = Build(8, "");
  absl::StatusOr<BookEntries> three = Build(8, "", nullptr, 3);
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_EQ(SerializeBookTable(kSpec, *three), SerializeBookTable(kSpec, *one));
}

// Every position of a layer: each position in play with 7 stones, one a
// mirror pair, with the solver's value and remoteness; on two threads as
// on one; resumed from its work dir to the same bytes.
TEST(BookTest, EveryPositionOfALayerAgreesWithTheSolvedTable) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/layer";
  uint64_t solved = 0;
  absl::StatusOr<BookEntries> layer = Build(7, dir, &solved, 2, true);
  ASSERT_TRUE(layer.ok()) << layer.status();
  EXPECT_EQ(solved, layer->keys.size());
  const Table table = *Table::FromBytes(SerializeBookTable(kSpec, *layer));
  const Game game = *Game::Create(kSpec);
  absl::StatusOr<Solution> solution = Solve(game, {2});
  ASSERT_TRUE(solution.ok()) << solution.status();
  const PositionIndex& index = solution->index;
  uint64_t in_play = 0;
  for (uint64_t i = index.layer_offset(7); i < index.layer_offset(8); ++i) {
    const Record want = solution->records().view().Get(i);
    const Position p = index.At(i);
    if (want.value == Value::kUnreachable || game.IsTerminal(p)) continue;
    in_play += game.IsCanonical(p);
    const std::optional<BookEntry> got = table.book()->Find(p);
    ASSERT_TRUE(got.has_value()) << game.Format(p);
    ASSERT_EQ(got->value, want.value) << game.Format(p);
    ASSERT_EQ(got->remoteness, want.remoteness) << game.Format(p);
  }
  EXPECT_EQ(layer->keys.size(), in_play);
  EXPECT_EQ(in_play, 4090u);
  EXPECT_EQ(SerializeBookTable(kSpec, *Build(7, "", nullptr, 1, true)),
            SerializeBookTable(kSpec, *layer));
  absl::StatusOr<BookEntries> again = Build(7, dir, &solved, 1, true);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(solved, 0u);
  EXPECT_EQ(SerializeBookTable(kSpec, *again),
            SerializeBookTable(kSpec, *layer));
}

// A layer seeded with the layer before (an opening table's), where each
// search starts from the worst of its parents' results: the same book,
// from fewer positions searched.
TEST(BookTest, ALayerSeededWithTheLayerBeforeIsTheSameBook) {
  absl::StatusOr<BookEntries> layer6 = Build(6, "", nullptr, 1, true);
  ASSERT_TRUE(layer6.ok()) << layer6.status();
  const Table before = *Table::FromBytes(SerializeBookTable(kSpec, *layer6));
  auto build = [](const BookReader* seed, uint64_t* nodes) {
    std::unique_ptr<ConnectSearch> search =
        *ConnectSearch::Create(*Game::Create(kSpec), {18});
    BookOptions options;
    options.plies = 7;
    options.every_position = true;
    options.seed = seed;
    absl::StatusOr<BookEntries> book = BuildBook({search.get()}, options);
    *nodes = search->nodes();
    return book;
  };
  uint64_t alone_nodes = 0, seeded_nodes = 0;
  absl::StatusOr<BookEntries> alone = build(nullptr, &alone_nodes);
  absl::StatusOr<BookEntries> seeded = build(before.book(), &seeded_nodes);
  ASSERT_TRUE(alone.ok() && seeded.ok());
  EXPECT_EQ(seeded->keys.size(), 4090u);
  EXPECT_EQ(SerializeBookTable(kSpec, *seeded),
            SerializeBookTable(kSpec, *alone));
  EXPECT_LT(seeded_nodes, alone_nodes);
  std::cout << "5x4 layer 7: " << alone_nodes << " positions searched alone, "
            << seeded_nodes << " seeded with layer 6\n";
}

// Entries drawn at random from the built-in book, each solved again by a
// search that starts from an empty table.
TEST(BookTest, DISABLED_BuiltInBookAgreesWithTheSearch) {
  constexpr int kSample = 60;
  absl::StatusOr<Table> table = Table::Load(std::string(getenv("TEST_SRCDIR")) +
                                            "/mnk/data/7x6k4g-opening.mnk");
  ASSERT_TRUE(table.ok()) << table.status();
  const Game& game = table->game();
  std::unique_ptr<ConnectSearch> search = *ConnectSearch::Create(game, {24});
  const BookReader& book = *table->book();
  std::mt19937_64 rng(2026);
  for (int n = 0; n < kSample; ++n) {
    const uint64_t i = rng() % book.size();
    const Position p = table->index().At(book.Key(i));
    search->Clear();
    const SearchResult want = search->Solve(p);
    const std::optional<BookEntry> got = book.Find(p);
    ASSERT_TRUE(got.has_value()) << game.Format(p);
    EXPECT_EQ(got->value, want.value) << game.Format(p);
    EXPECT_EQ(got->remoteness, want.remoteness) << game.Format(p);
    std::printf("entry %llu of %llu, ply %d: %s\n",
                static_cast<unsigned long long>(i),
                static_cast<unsigned long long>(book.size()), p.stones(),
                game.Format(p).c_str());
  }
}

TEST(BookTest, RefusesWhatItCannotBuild) {
  EXPECT_EQ(Build(21, "").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Build(4, "/proc/no/such/dir").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace mnk
