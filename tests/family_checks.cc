#include "tests/family_checks.h"

#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/numeric/bits.h"
#include "gtest/gtest.h"
#include "search/search.h"

namespace mnk {
namespace {

// Stops a broken table from flooding the log.
constexpr int kMaxReported = 10;

}  // namespace

uint64_t EnumerateReachable(const Game& game) {
  absl::flat_hash_set<Position> seen = {Position{}};
  std::vector<Position> stack = {Position{}};
  while (!stack.empty()) {
    const Position p = stack.back();
    stack.pop_back();
    for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
      const Position child = Game::Play(p, absl::countr_zero(s));
      if (seen.insert(child).second) stack.push_back(child);
    }
  }
  return seen.size();
}

uint64_t CheckAgainstOracle(const Solution& s) {
  const Game& game = s.game;
  const GameSpec& spec = game.spec();
  const naive::Solved solved = naive::SolveNaively(spec);
  EXPECT_EQ(s.stats.canonical, naive::CountClasses(spec, solved));
  const RecordView view = s.records().view();
  uint64_t checked = 0;
  int reported = 0;
  for (uint64_t i = 0; i < view.size && reported < kMaxReported; ++i) {
    const Record r = view.Get(i);
    if (r.value == Value::kUnreachable) continue;
    const Position p = s.index.At(i);
    std::string board(spec.cells(), '.');
    for (int cell = 0; cell < spec.cells(); ++cell) {
      if (p.x >> cell & 1) board[cell] = 'X';
      if (p.o >> cell & 1) board[cell] = 'O';
    }
    const auto it = solved.find(board);
    if (it == solved.end()) {
      ADD_FAILURE() << board
                    << ": reachable in the table, not by the naive solver";
      ++reported;
      continue;
    }
    const naive::Result& o = it->second;
    const int move = o.best_move == naive::kNoBestMove ? kNoMove : o.best_move;
    if (r.value != o.value || r.remoteness != o.remoteness ||
        r.best_move != move) {
      ADD_FAILURE() << board << ": table " << ValueName(r.value) << " in "
                    << r.remoteness << " move " << r.best_move << ", naive "
                    << ValueName(o.value) << " in " << o.remoteness << " move "
                    << move;
      ++reported;
    }
    ++checked;
  }
  // Every table position is the naive solver's; equal counts make the sets
  // equal.
  EXPECT_EQ(checked, solved.size())
      << "positions reachable by the naive solver";
  EXPECT_EQ(s.stats.reachable, solved.size());
  return checked;
}

uint64_t CheckAllAgainstSearch(const Solution& s) {
  const Game& game = s.game;
  const RecordView view = s.records().view();
  AlphaBetaSearch cached(game, 20);
  auto search = [&](const Position& p) {
    return game.cells() < 10 ? AlphaBeta(game, p) : cached.Search(p);
  };
  uint64_t checked = 0;
  int reported = 0;
  for (uint64_t i = 0; i < view.size && reported < kMaxReported; ++i) {
    const Record r = view.Get(i);
    if (r.value == Value::kUnreachable) continue;
    const Position p = s.index.At(i);
    const SearchResult live = search(p);
    const int best_cell = PolicyMoveBySearch(game, p, search);
    const Record expected{live.value, live.remoteness, best_cell};
    if (!(r == expected)) {
      ADD_FAILURE() << game.Format(p) << ": table " << ValueName(r.value)
                    << " in " << r.remoteness << " move " << r.best_move
                    << ", search " << ValueName(live.value) << " in "
                    << live.remoteness << " move " << best_cell;
      ++reported;
    }
    ++checked;
  }
  return checked;
}

uint64_t CheckRandomAgainstSearch(const Solution& s, uint64_t count,
                                  uint64_t seed) {
  const Game& game = s.game;
  const RecordView view = s.records().view();
  AlphaBetaSearch search(game, 24);
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<uint64_t> pick(0, view.size - 1);
  uint64_t checked = 0;
  int reported = 0;
  while (checked < count && reported < kMaxReported) {
    const uint64_t i = pick(random);
    const Record r = view.Get(i);
    if (r.value == Value::kUnreachable) continue;
    const Position p = s.index.At(i);
    const SearchResult live = search.Search(p);
    bool ok = live.value == r.value && live.remoteness == r.remoteness;
    if (ok && r.best_move != kNoMove) {
      const SearchResult child = search.Search(Game::Play(p, r.best_move));
      ok = Negate(child.value) == r.value &&
           child.remoteness + 1 == r.remoteness;
    }
    if (!ok) {
      ADD_FAILURE() << game.Format(p) << ": table " << ValueName(r.value)
                    << " in " << r.remoteness << " move " << r.best_move
                    << ", search " << ValueName(live.value) << " in "
                    << live.remoteness;
      ++reported;
    }
    ++checked;
  }
  return checked;
}

uint64_t CheckTableAgainstSearch(const Table& table, uint64_t count,
                                 uint64_t seed) {
  const Game& game = table.game();
  const PositionIndex& index = table.index();
  const bool compact = table.layout() == Layout::kCompact;
  const bool plies = table.has_remoteness();
  AlphaBetaSearch search(game, 26);
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<uint64_t> pick(0, index.size() - 1);
  uint64_t checked = 0;
  int reported = 0;
  while (checked < count && reported < kMaxReported) {
    const Position p = index.At(pick(random));
    // Unreachable entries are not marked in these layouts: the rules decide.
    if ((compact && p.stones() % 2 != 0) || !game.IsReachable(p)) continue;
    const SearchResult live = search.Search(p);
    Record stored{table.ValueOf(p), kUnknownRemoteness, kNoMove};
    bool ok = stored.value == live.value;
    if (!compact) {
      absl::StatusOr<Record> r = table.Probe(p);
      ok = ok && r.ok() && r->value == live.value &&
           (!plies || r->remoteness == live.remoteness);
      if (ok && r->best_move != kNoMove) {
        // The move reaches a child that search scores as the record says.
        const SearchResult child = search.Search(Game::Play(p, r->best_move));
        ok = Negate(child.value) == r->value &&
             (!plies || child.remoteness + 1 == r->remoteness);
      }
      if (r.ok()) stored = *r;
    }
    if (!ok) {
      ADD_FAILURE() << game.Format(p) << ": table " << ValueName(stored.value)
                    << " in " << stored.remoteness << " move "
                    << stored.best_move << ", search " << ValueName(live.value)
                    << " in " << live.remoteness;
      ++reported;
    }
    ++checked;
  }
  return checked;
}

}  // namespace mnk
