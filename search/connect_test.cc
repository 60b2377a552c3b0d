// The exact Connect-style search against the plain alpha-beta of the game
// seam, on every position small boards reach and on late positions of big
// ones, and on positions whose answers are known.
#include "search/connect.h"

#include <cstdint>
#include <optional>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/numeric/bits.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "rules/game/policy.h"
#include "search/connect_board.h"
#include "search/search.h"

namespace mnk {
namespace {

std::unique_ptr<ConnectSearch> MakeSearch(const GameSpec& spec,
                                          int table_bits = 16,
                                          int threads = 1) {
  absl::StatusOr<Game> game = Game::Create(spec);
  EXPECT_TRUE(game.ok());
  absl::StatusOr<std::unique_ptr<ConnectSearch>> search =
      ConnectSearch::Create(*game, {table_bits, threads});
  EXPECT_TRUE(search.ok()) << search.status();
  return std::move(*search);
}

SearchLimits Nodes(uint64_t max_nodes) {
  SearchLimits limits;
  limits.max_nodes = max_nodes;
  return limits;
}

// Every position a game reaches, in order of stones.
std::vector<Position> Reachable(const Game& game) {
  std::vector<Position> all = {Position()};
  absl::flat_hash_set<Position> seen = {Position()};
  for (size_t i = 0; i < all.size(); ++i) {
    for (Mask s = game.LegalMask(all[i]); s != 0; s &= s - 1) {
      const Position next = Game::Play(all[i], absl::countr_zero(s));
      if (seen.insert(next).second) all.push_back(next);
    }
  }
  return all;
}

// A position with `stones` stones reached by random play that is not over.
Position RandomPosition(const Game& game, int stones, std::mt19937_64& rng) {
  for (;;) {
    Position p;
    while (p.stones() < stones && !game.IsTerminal(p)) {
      const Mask legal = game.LegalMask(p);
      int pick = static_cast<int>(rng() % absl::popcount(legal));
      Mask s = legal;
      while (pick-- > 0) s &= s - 1;
      p = Game::Play(p, absl::countr_zero(s));
    }
    if (!game.IsTerminal(p)) return p;
  }
}

// Each move's threats computed together (two at a time in vector lanes for
// k = 4) equal those computed one move at a time, on boards of 7, 5 and 12
// columns (k = 4) and with k = 3 (one at a time).
TEST(ConnectBoardTest, ThreatsAfterEachMoveComputedTogether) {
  const GameSpec specs[] = {
      {7, 6, 4, true}, {5, 4, 4, true}, {12, 4, 4, true}, {6, 5, 3, true}};
  std::mt19937_64 rng(7);
  for (const GameSpec& spec : specs) {
    const absl::StatusOr<Game> game = Game::Create(spec);
    ASSERT_TRUE(game.ok());
    const ConnectBoard board(*game);
    int threatening = 0;  // moves that leave a threat: the test has teeth
    for (int trial = 0; trial < 300; ++trial) {
      const Position p =
          RandomPosition(*game, trial % (game->cells() - 2), rng);
      const ConnectBoard::Bits b = board.ToBits(p);
      uint64_t moves[64], after[64];
      int n = 0;
      for (uint64_t s = board.Playable(b.mask); s != 0; s &= s - 1) {
        moves[n++] = s & -s;
      }
      board.WinningCellsAfter(b.mover, b.mask, moves, n, after);
      for (int i = 0; i < n; ++i) {
        const uint64_t one =
            board.WinningCells(b.mover | moves[i], b.mask | moves[i]);
        EXPECT_EQ(after[i], one) << game->Format(p) << " move " << i;
        threatening += one != 0;
      }
    }
    EXPECT_GT(threatening, 100) << spec.width << "x" << spec.height;
  }
}

// Claimeven's bound holds: where it says the side to move cannot win
// (0) or loses (-1), the seam's alpha-beta agrees, on random positions with
// an even number of stones of two even-height boards.
TEST(ConnectBoardTest, ClaimevenBoundsTheValue) {
  const GameSpec specs[] = {{5, 4, 4, true}, {6, 4, 4, true}};
  std::mt19937_64 rng(11);
  for (const GameSpec& spec : specs) {
    const Game game = *Game::Create(spec);
    const ConnectBoard board(game);
    AlphaBetaSearch oracle(game, 16);
    int no_win = 0, lost = 0;  // the bound's verdicts: the test has teeth
    for (int trial = 0; trial < 1000; ++trial) {
      const Position p =
          RandomPosition(game, 2 * (2 + trial % (game.cells() / 2 - 3)), rng);
      if (p.stones() % 2 != 0) continue;  // a game ended early
      const ConnectBoard::Bits b = board.ToBits(p);
      const int upper = board.ClaimevenUpper(b.mover, b.mover ^ b.mask, b.mask);
      if (upper == ConnectBoard::kNoBound) continue;
      const Value value = oracle.Search(p).value;
      if (upper == 0) {
        EXPECT_NE(value, Value::kWin) << game.Format(p);
        ++no_win;
      } else {
        EXPECT_EQ(upper, -1);
        EXPECT_EQ(value, Value::kLoss) << game.Format(p);
        ++lost;
      }
    }
    EXPECT_GT(no_win, 20) << spec.Name() << " " << no_win;
    EXPECT_GT(lost, 20) << spec.Name() << " " << lost;
  }
}

TEST(ConnectSearchTest, RefusesWhatItCannotPlay) {
  const Game tictactoe = *Game::Create({3, 3, 3});
  EXPECT_EQ(ConnectSearch::Create(tictactoe).status().code(),
            absl::StatusCode::kInvalidArgument);
  const Game misere = *Game::Create({4, 4, 3, true, true});
  EXPECT_EQ(ConnectSearch::Create(misere).status().code(),
            absl::StatusCode::kInvalidArgument);
  const Game wide = *Game::Create({8, 8, 4, true});  // 72 bits
  EXPECT_EQ(ConnectSearch::Create(wide).status().code(),
            absl::StatusCode::kInvalidArgument);
  const Game c4 = *Game::Create({7, 6, 4, true});
  EXPECT_EQ(ConnectSearch::Create(c4, {8}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(ConnectSearch::Create(*Game::Create({8, 7, 4, true}), {10}).ok());
  for (int threads : {0, ConnectSearch::kMaxThreads + 1}) {
    ConnectSearchOptions options;
    options.threads = threads;
    EXPECT_EQ(ConnectSearch::Create(c4, options).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
}

// Every reachable position of every gravity board up to 12 cells (k from 2
// to 4 where the board allows it): the same value and remoteness as plain
// alpha-beta, and BestMove plays the policy's move among alpha-beta's
// answers for the children.
TEST(ConnectSearchTest, AgreesWithAlphaBetaOnEveryPositionOfSmallBoards) {
  int compared = 0, moves_compared = 0;
  for (int width = 1; width <= 6; ++width) {
    for (int height = 1; width * height <= 12; ++height) {
      for (int k = 2; k <= 4 && k <= std::max(width, height); ++k) {
        const GameSpec spec{width, height, k, true};
        const Game game = *Game::Create(spec);
        std::unique_ptr<ConnectSearch> search = MakeSearch(spec);
        const std::vector<Position> reachable = Reachable(game);
        absl::flat_hash_map<Position, SearchResult> want;
        for (const Position& p : reachable) {
          want[p] = AlphaBeta(game, p);
          const SearchResult got = search->Solve(p);
          ASSERT_EQ(got.value, want[p].value)
              << spec.Name() << " " << game.Format(p);
          ASSERT_EQ(got.remoteness, want[p].remoteness)
              << spec.Name() << " " << game.Format(p);
          ++compared;
        }
        for (const Position& p : reachable) {
          if (game.IsTerminal(p)) continue;
          int best = -1, best_score = 0;
          for (int cell : game.LegalMoves(p)) {
            const SearchResult& child = want[Game::Play(p, cell)];
            const int score =
                PolicyScore(Negate(child.value), child.remoteness + 1);
            if (best < 0 || score > best_score) best = cell, best_score = score;
          }
          const MoveAnalysis got = search->BestMove(p);
          ASSERT_EQ(got.best_move, best)
              << spec.Name() << " " << game.Format(p);
          ASSERT_EQ(got.result.value, want[p].value);
          ASSERT_EQ(got.result.remoteness, want[p].remoteness);
          ASSERT_TRUE(got.moves.empty());
          ++moves_compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 101300);
  EXPECT_EQ(moves_compared, 85231);  // the positions not over
}

// A position solved after any of its parents, from the parent's result,
// answers as alone, on every position of four boards in play with a
// parent.
TEST(ConnectSearchTest, SolvesAfterAParentAsAlone) {
  int compared = 0;
  const GameSpec specs[] = {
      {4, 3, 3, true}, {4, 3, 4, true}, {3, 4, 3, true}, {6, 2, 3, true}};
  for (const GameSpec& spec : specs) {
    const Game game = *Game::Create(spec);
    std::unique_ptr<ConnectSearch> search = MakeSearch(spec);
    for (const Position& p : Reachable(game)) {
      if (game.IsTerminal(p)) continue;
      const SearchResult want = AlphaBeta(game, p);
      for (Mask s = game.LastMoveCells(p); s != 0; s &= s - 1) {
        const Position parent = Game::Take(p, absl::countr_zero(s));
        const SearchResult got = search->SolveAfter(p, AlphaBeta(game, parent));
        ASSERT_EQ(got.value, want.value)
            << spec.Name() << " " << game.Format(p);
        ASSERT_EQ(got.remoteness, want.remoteness)
            << spec.Name() << " " << game.Format(p);
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 85542);
}

// Late positions of boards past 32 cells (9 empty cells): the same answers
// as the seam's alpha-beta with a table, and Analyze's moves as Solve's.
TEST(ConnectSearchTest, AgreesWithAlphaBetaOnLatePositionsOfBigBoards) {
  std::mt19937_64 rng(2026);
  const GameSpec specs[] = {{6, 6, 4, true}, {7, 5, 4, true}, {7, 6, 4, true}};
  for (const GameSpec& spec : specs) {
    const Game game = *Game::Create(spec);
    std::unique_ptr<ConnectSearch> search = MakeSearch(spec);
    AlphaBetaSearch oracle(game, 16);
    int decided = 0;
    for (int trial = 0; trial < 40; ++trial) {
      const Position p = RandomPosition(game, game.cells() - 9, rng);
      const SearchResult want = oracle.Search(p);
      const MoveAnalysis got = search->Analyze(p);
      ASSERT_EQ(search->BestMove(p).best_move, got.best_move) << game.Format(p);
      ASSERT_EQ(got.result.value, want.value) << game.Format(p);
      ASSERT_EQ(got.result.remoteness, want.remoteness) << game.Format(p);
      for (const MoveResult& m : got.moves) {
        const SearchResult child = oracle.Search(Game::Play(p, m.cell));
        ASSERT_EQ(m.value, Negate(child.value))
            << game.Format(p) << " " << m.cell;
        ASSERT_EQ(m.remoteness, child.remoteness + 1)
            << game.Format(p) << " " << m.cell;
      }
      decided += want.value != Value::kDraw;
    }
    EXPECT_GT(decided, 10) << spec.Name();
  }
}

// Threads that share the table (positions with 20 or more empty cells,
// where they search together, and Analyze's moves with as many, which they
// share out) give one thread's answers, also when a budget stops them, and
// Analyze reports each move solved once, in order, on the calling thread.
TEST(ConnectSearchTest, TwoThreadsAnswerAsOne) {
  const Game game = *Game::Create({7, 6, 4, true});
  std::mt19937_64 rng(11);
  std::unique_ptr<ConnectSearch> one = MakeSearch(game.spec(), 20);
  std::unique_ptr<ConnectSearch> two = MakeSearch(game.spec(), 20, 2);
  int stops = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const Position p = RandomPosition(game, 16 + trial % 6, rng);
    stops += !two->BestMoveWithin(p, Nodes(100)).has_value();
    stops += !two->AnalyzeWithin(p, Nodes(100)).has_value();
    const MoveAnalysis want = one->Analyze(p);
    const MoveAnalysis best = two->BestMove(p);
    ASSERT_EQ(best.best_move, want.best_move) << game.Format(p);
    ASSERT_EQ(best.result.value, want.result.value) << game.Format(p);
    ASSERT_EQ(best.result.remoteness, want.result.remoteness);
    two->Clear();
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<std::pair<int, int>> reports;
    const MoveAnalysis got = two->Analyze(p, [&](int solved, int moves) {
      EXPECT_EQ(std::this_thread::get_id(), caller);
      reports.push_back({solved, moves});
    });
    const int moves = static_cast<int>(want.moves.size());
    ASSERT_EQ(reports.size(), want.moves.size());
    for (int i = 0; i < moves; ++i) {
      EXPECT_EQ(reports[i], std::make_pair(i + 1, moves));
    }
    ASSERT_EQ(got.best_move, want.best_move) << game.Format(p);
    for (size_t i = 0; i < want.moves.size(); ++i) {
      ASSERT_EQ(got.moves[i].value, want.moves[i].value) << game.Format(p);
      ASSERT_EQ(got.moves[i].remoteness, want.moves[i].remoteness);
    }
  }
  EXPECT_GE(stops, 10);  // the budget did stop searches on two threads
}

// Known results (a book's) are taken, not searched: by Solve, by Analyze
// for its moves, and by BestMove for the root and its moves; a known root
// bounds Analyze's search of its moves (the same answers, fewer positions);
// the score a result stands for round-trips through every value and
// remoteness.
TEST(ConnectSearchTest, TakesKnownResultsWithoutSearching) {
  const Game game = *Game::Create({7, 6, 4, true});
  std::mt19937_64 rng(5);
  std::unique_ptr<ConnectSearch> plain = MakeSearch(game.spec(), 20);
  std::unique_ptr<ConnectSearch> hooked = MakeSearch(game.spec(), 20);
  absl::flat_hash_map<Position, SearchResult> known;
  hooked->set_known([&](const Position& p) -> std::optional<SearchResult> {
    const auto it = known.find(p);
    if (it == known.end()) return std::nullopt;
    return it->second;
  });
  uint64_t plain_nodes = 0, bounded_nodes = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const Position p = RandomPosition(game, 14 + trial % 6, rng);
    plain->Clear();
    const uint64_t plain_before = plain->nodes();
    const MoveAnalysis want = plain->Analyze(p);
    plain_nodes += plain->nodes() - plain_before;
    // The root alone known: BestMove gives its result, searching the moves;
    // Analyze searches every move, above the bound the root's score sets.
    known = {{p, want.result}};
    const MoveAnalysis best = hooked->BestMove(p);
    EXPECT_EQ(best.best_move, want.best_move) << game.Format(p);
    EXPECT_EQ(best.result.value, want.result.value);
    EXPECT_EQ(best.result.remoteness, want.result.remoteness);
    hooked->Clear();
    const uint64_t bounded_before = hooked->nodes();
    const MoveAnalysis bounded = hooked->Analyze(p);
    bounded_nodes += hooked->nodes() - bounded_before;
    ASSERT_EQ(bounded.moves.size(), want.moves.size());
    for (size_t i = 0; i < want.moves.size(); ++i) {
      EXPECT_EQ(bounded.moves[i].value, want.moves[i].value) << game.Format(p);
      EXPECT_EQ(bounded.moves[i].remoteness, want.moves[i].remoteness);
    }
    // Every move known too: no position searched at all.
    for (const MoveResult& m : want.moves) {
      known[Game::Play(p, m.cell)] = {Negate(m.value), m.remoteness - 1};
    }
    hooked->Clear();
    const uint64_t all_known = hooked->nodes();
    const MoveAnalysis again = hooked->BestMove(p);
    const MoveAnalysis every = hooked->Analyze(p);
    EXPECT_EQ(hooked->nodes(), all_known) << game.Format(p);
    EXPECT_EQ(again.best_move, want.best_move);
    EXPECT_EQ(every.best_move, want.best_move);
    ASSERT_EQ(every.moves.size(), want.moves.size());
    for (size_t i = 0; i < want.moves.size(); ++i) {
      EXPECT_EQ(every.moves[i].value, want.moves[i].value);
      EXPECT_EQ(every.moves[i].remoteness, want.moves[i].remoteness);
    }
  }
  EXPECT_LT(bounded_nodes, plain_nodes);
  // Solve takes what it is told, true or not: it does not search.
  const Position p = RandomPosition(game, 10, rng);
  known = {{p, {Value::kLoss, 2}}};
  const uint64_t before = hooked->nodes();
  EXPECT_EQ(hooked->Solve(p).remoteness, 2);
  EXPECT_EQ(hooked->nodes(), before);
}

// A search stopped by its budget leaves only sound entries behind: the
// answers after it are a fresh search's, on one thread and on two (where
// Analyze's threads also stop each other on a move one of them solved).
class StoppedSearchTest : public testing::TestWithParam<int> {};

TEST_P(StoppedSearchTest, LeavesNothingWrong) {
  const Game game = *Game::Create({7, 6, 4, true});
  std::mt19937_64 rng(7);
  std::unique_ptr<ConnectSearch> stopped =
      MakeSearch(game.spec(), 18, GetParam());
  int stops = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Position p = RandomPosition(game, 16, rng);
    for (uint64_t budget : {uint64_t{10}, uint64_t{1000}, uint64_t{100000}}) {
      stops += !stopped->BestMoveWithin(p, Nodes(budget)).has_value();
      stops += !stopped->AnalyzeWithin(p, Nodes(budget)).has_value();
    }
    std::unique_ptr<ConnectSearch> fresh = MakeSearch(game.spec(), 18);
    const MoveAnalysis want = fresh->Analyze(p);
    const std::optional<MoveAnalysis> got =
        stopped->AnalyzeWithin(p, Nodes(uint64_t{1} << 40));
    ASSERT_TRUE(got.has_value());
    ASSERT_EQ(got->best_move, want.best_move) << game.Format(p);
    ASSERT_EQ(stopped->BestMoveWithin(p, Nodes(uint64_t{1} << 40))->best_move,
              want.best_move);
    ASSERT_EQ(got->result.value, want.result.value) << game.Format(p);
    ASSERT_EQ(got->result.remoteness, want.result.remoteness) << game.Format(p);
    for (size_t i = 0; i < want.moves.size(); ++i) {
      ASSERT_EQ(got->moves[i].value, want.moves[i].value) << game.Format(p);
      ASSERT_EQ(got->moves[i].remoteness, want.moves[i].remoteness);
    }
  }
  // The budgets did stop searches (how many depends on the move ordering).
  EXPECT_GE(stops, 30);
}

INSTANTIATE_TEST_SUITE_P(Threads, StoppedSearchTest, testing::Values(1, 2));

// Each limit stops a search of the empty 7x6 board (minutes of work) and
// says it was the one, on one thread and on two (Analyze's moves side by
// side); a poll that never stops changes no answer.
class EachLimitTest : public testing::TestWithParam<int> {};

TEST_P(EachLimitTest, StopsTheSearchAndSaysSo) {
  const Game game = *Game::Create({7, 6, 4, true});
  std::unique_ptr<ConnectSearch> search =
      MakeSearch(game.spec(), 20, GetParam());
  const Position empty;
  SearchStop why = SearchStop::kCancelled;
  EXPECT_FALSE(search->AnalyzeWithin(empty, Nodes(1000), {}, &why));
  EXPECT_EQ(why, SearchStop::kNodes);

  SearchLimits late;
  late.deadline = absl::Now() + absl::Milliseconds(50);
  EXPECT_FALSE(search->BestMoveWithin(empty, late, {}, &why));
  EXPECT_EQ(why, SearchStop::kDeadline);
  late.deadline = absl::InfinitePast();
  EXPECT_FALSE(search->AnalyzeWithin(empty, late, {}, &why));
  EXPECT_EQ(why, SearchStop::kDeadline);

  const std::atomic<bool> set{true};
  SearchLimits cancelled;
  cancelled.cancel = &set;
  why = SearchStop::kNodes;
  EXPECT_FALSE(search->AnalyzeWithin(empty, cancelled, {}, &why));
  EXPECT_EQ(why, SearchStop::kCancelled);

  int polls = 0;
  SearchLimits polled;
  polled.poll = [&polls] { return ++polls == 3; };
  why = SearchStop::kNodes;
  EXPECT_FALSE(search->AnalyzeWithin(empty, polled, {}, &why));
  EXPECT_EQ(why, SearchStop::kCancelled);
  EXPECT_EQ(polls, 3);

  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 8; ++trial) {
    const Position p = RandomPosition(game, 18, rng);
    polled.poll = [] { return false; };
    polled.deadline = absl::InfiniteFuture();
    const std::optional<MoveAnalysis> got = search->AnalyzeWithin(p, polled);
    ASSERT_TRUE(got.has_value()) << game.Format(p);
    const MoveAnalysis want = MakeSearch(game.spec(), 20)->Analyze(p);
    EXPECT_EQ(got->best_move, want.best_move) << game.Format(p);
    EXPECT_EQ(got->result.remoteness, want.result.remoteness);
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, EachLimitTest, testing::Values(1, 2));

}  // namespace
}  // namespace mnk
