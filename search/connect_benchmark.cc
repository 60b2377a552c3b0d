// Figures of the exact Connect-style search: time per exact solve of
// positions drawn from random games at given plies (each from an empty
// transposition table), and the empty board from scratch.
//
//   bazel run //search:connect_benchmark -- --positions=100 --empty
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "base/cli/cli.h"
#include "base/cli/game_flags.h"
#include "base/cli/threads_flag.h"
#include "rules/game/game.h"
#include "rules/game/moves.h"
#include "search/connect.h"

ABSL_FLAG(std::vector<std::string>, plies,
          std::vector<std::string>({"8", "10", "12", "14"}),
          "plies at which positions are drawn");
ABSL_FLAG(int, positions, 100, "positions per ply");
ABSL_FLAG(int, table_bits, 24, "log2 of the transposition table's entries");
ABSL_FLAG(bool, empty, false, "also solve the empty board");
ABSL_FLAG(uint64_t, seed, 1, "random seed");
ABSL_FLAG(int, games, 0,
          "also play this many games from positions at --from_ply, the "
          "perfect player (its table kept through the game, as play does) "
          "against a random and against a perfect opponent, as X and as O, "
          "and time each of its moves");
ABSL_FLAG(std::vector<std::string>, game_answers,
          std::vector<std::string>({"best_move", "every_move"}),
          "how the perfect player answers in the games, each on the same "
          "games: best_move (BestMove, as play's moves and hints) or "
          "every_move (Analyze, as eval and serve)");
ABSL_FLAG(int, from_ply, 10,
          "where the games start: the end of an opening book of that depth");
ABSL_FLAG(bool, list, false,
          "print the drawn positions, one a line as play --batch reads "
          "them, and search none");
ABSL_FLAG(bool, every_move, false,
          "time every move's value and remoteness (Analyze, as eval, serve "
          "and the page ask) instead of the position's own (Solve)");
ABSL_FLAG(bool, sequences, false,
          "print each position as its moves (columns from 1, as Pons' and "
          "Steininger's solvers read them), its value, positions and time; "
          "with --list, its moves alone");
ABSL_FLAG(bool, stdin, false,
          "solve the positions read from standard input instead, one a line "
          "as their moves (columns from 1), each from an empty table, and "
          "print each one's --sequences line as soon as it is solved (for a "
          "driver that takes turns with another solver)");
ABSL_FLAG(bool, keep_table, false,
          "with --stdin: keep the transposition table from one position to "
          "the next (as book does), rather than empty it before each");

namespace mnk {
namespace {

using Clock = std::chrono::steady_clock;

// A position after `plies` random moves of a game that is not over then,
// and its moves as columns from 1; nullopt when `tries` games in a row
// ended sooner.
std::optional<Position> TryRandomPosition(const Game& game, int plies,
                                          std::mt19937_64& rng,
                                          std::string* moves, int tries) {
  for (int t = 0; t < tries; ++t) {
    Position p;
    moves->clear();
    while (p.stones() < plies && !game.IsTerminal(p)) {
      const Mask legal = game.LegalMask(p);
      int pick = static_cast<int>(rng() % absl::popcount(legal));
      Mask s = legal;
      while (pick-- > 0) s &= s - 1;
      const int cell = absl::countr_zero(s);
      moves->push_back(static_cast<char>('1' + cell % game.width()));
      p = Game::Play(p, cell);
    }
    if (!game.IsTerminal(p)) return p;
  }
  return std::nullopt;
}

// The same for a ply that CheckDrawable accepted.
Position RandomPosition(const Game& game, int plies, std::mt19937_64& rng,
                        std::string* moves) {
  return *TryRandomPosition(game, plies, rng, moves,
                            std::numeric_limits<int>::max());
}

// kInvalidArgument when 10,000 random games all end before `ply` (on a
// board where every game does, drawing a position there would never end).
absl::Status CheckDrawable(const Game& game, int ply, absl::string_view flag) {
  std::mt19937_64 rng(1);
  std::string moves;
  if (TryRandomPosition(game, ply, rng, &moves, 10000).has_value()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat(flag, ": 10,000 random games of ", game.spec().Name(),
                   " all ended before ply ", ply,
                   ": expected a ply that games reach unfinished"));
}

// The q-quantile of v, which must not be empty.
double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))];
}

// The plies of --plies, or kInvalidArgument naming the one that is not a
// number of stones a game can be in play with.
absl::StatusOr<std::vector<int>> PliesFromFlag(const Game& game) {
  std::vector<int> plies;
  for (const std::string& text : absl::GetFlag(FLAGS_plies)) {
    int ply;
    if (!absl::SimpleAtoi(text, &ply) || ply < 0 || ply >= game.cells()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--plies: '", text, "' is not a ply: expected 0 to ",
                       game.cells() - 1, " (stones on the board)"));
    }
    if (absl::Status s = CheckDrawable(game, ply, "--plies"); !s.ok()) return s;
    plies.push_back(ply);
  }
  return plies;
}

// The other numeric flags' checks: kInvalidArgument naming the first bad
// one.
absl::Status CheckCounts(const Game& game) {
  if (absl::GetFlag(FLAGS_positions) < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--positions=", absl::GetFlag(FLAGS_positions),
                     ": expected 0 or more positions per ply"));
  }
  if (absl::GetFlag(FLAGS_games) < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--games=", absl::GetFlag(FLAGS_games), ": expected 0 or more games"));
  }
  const int from = absl::GetFlag(FLAGS_from_ply);
  if (from < 0 || from >= game.cells()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--from_ply=", from, ": expected 0 to ", game.cells() - 1,
                     " (stones on the board)"));
  }
  if (absl::GetFlag(FLAGS_games) > 0) {
    if (absl::Status s = CheckDrawable(game, from, "--from_ply"); !s.ok()) {
      return s;
    }
  }
  for (const std::string& answer : absl::GetFlag(FLAGS_game_answers)) {
    if (answer != "best_move" && answer != "every_move") {
      return absl::InvalidArgumentError(absl::StrCat(
          "--game_answers: '", answer, "' is not best_move or every_move"));
    }
  }
  return absl::OkStatus();
}

// The perfect player's moves, timed, in games from --from_ply on: the same
// games (the same seed) for each way of answering.
void TimeGames(const Game& game, ConnectSearch& search, uint64_t seed,
               const std::string& answer) {
  const bool every_move = answer == "every_move";
  std::mt19937_64 rng(seed);
  for (const bool perfect_opponent : {false, true}) {
    std::vector<double> seconds;
    for (int g = 0; g < absl::GetFlag(FLAGS_games); ++g) {
      std::string moves;
      Position p =
          RandomPosition(game, absl::GetFlag(FLAGS_from_ply), rng, &moves);
      const int perfect_side = g % 2;  // as X, then as O
      search.Clear();
      while (!game.IsTerminal(p)) {
        int cell;
        if (p.side_to_move() == perfect_side || perfect_opponent) {
          const Clock::time_point start = Clock::now();
          cell = every_move ? search.Analyze(p).best_move
                            : search.BestMove(p).best_move;
          if (p.side_to_move() == perfect_side) {
            seconds.push_back(
                std::chrono::duration<double>(Clock::now() - start).count());
          }
        } else {
          const std::vector<int> legal = game.LegalMoves(p);
          cell = legal[rng() % legal.size()];
        }
        p = Game::Play(p, cell);
      }
    }
    std::printf("%s, games from ply %d against a %s opponent: %zu moves",
                answer.c_str(), absl::GetFlag(FLAGS_from_ply),
                perfect_opponent ? "perfect" : "random", seconds.size());
    if (!seconds.empty()) {
      std::printf(", p50 %.4f s, p99 %.4f s, max %.4f s",
                  Percentile(seconds, 0.5), Percentile(seconds, 0.99),
                  Percentile(seconds, 1.0));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
}

// --list: the positions the benchmark would search, as play reads them
// (or, with --sequences, as their moves).
void ListPositions(const Game& game, const std::vector<int>& plies) {
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  for (const int ply : plies) {
    for (int i = 0; i < absl::GetFlag(FLAGS_positions); ++i) {
      std::string moves;
      const Position p = RandomPosition(game, ply, rng, &moves);
      std::printf("%s\n", absl::GetFlag(FLAGS_sequences)
                              ? moves.c_str()
                              : game.Format(p).c_str());
    }
  }
}

// One position solved from an empty table: its result, the positions
// searched and the seconds taken.
struct Solved {
  SearchResult result;
  uint64_t nodes;
  double seconds;
};

Solved SolveFresh(ConnectSearch& search, const Position& p) {
  if (!absl::GetFlag(FLAGS_keep_table)) search.Clear();
  const uint64_t before = search.nodes();
  const Clock::time_point start = Clock::now();
  const SearchResult r = absl::GetFlag(FLAGS_every_move)
                             ? search.Analyze(p).result
                             : search.Solve(p);
  return {r, search.nodes() - before,
          std::chrono::duration<double>(Clock::now() - start).count()};
}

// The --sequences line of a position: its moves, value and remoteness,
// positions searched and seconds.
void PrintSequence(const std::string& moves, const Solved& solved) {
  std::printf("%s %s in %d, %llu positions, %.4f s\n", moves.c_str(),
              std::string(ValueName(solved.result.value)).c_str(),
              solved.result.remoteness,
              static_cast<unsigned long long>(solved.nodes), solved.seconds);
}

// --stdin: each position read, solved and printed in turn; 1 at the first
// line that is not a position's moves.
int SolveStdin(const Game& game, ConnectSearch& search) {
  std::string moves;
  while (std::getline(std::cin, moves)) {
    absl::StatusOr<Position> p = FromMoves(game, moves, Notation::kDigits);
    if (!p.ok()) return Fail(kExitUsage, p.status());
    PrintSequence(moves, SolveFresh(search, *p));
    std::fflush(stdout);
  }
  return 0;
}

int Run() {
  absl::StatusOr<Game> created = GameFromFlags({7, 6, 4, /*gravity=*/true});
  if (!created.ok()) return Fail(kExitUsage, created.status());
  const Game game = *created;
  const absl::StatusOr<std::vector<int>> plies = PliesFromFlag(game);
  if (!plies.ok()) return Fail(kExitUsage, plies.status());
  if (absl::Status s = CheckCounts(game); !s.ok()) return Fail(kExitUsage, s);
  if (absl::GetFlag(FLAGS_list)) {
    ListPositions(game, *plies);
    return 0;
  }
  absl::StatusOr<int> threads = ThreadsFromFlag(ConnectSearch::kMaxThreads);
  if (!threads.ok()) return Fail(kExitUsage, threads.status());
  ConnectSearchOptions options;
  options.table_bits = absl::GetFlag(FLAGS_table_bits);
  options.threads = *threads;
  auto search = ConnectSearch::Create(game, options);
  if (!search.ok()) return Fail(kExitUsage, search.status());
  if (absl::GetFlag(FLAGS_stdin)) return SolveStdin(game, **search);
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  std::printf("%s, table 2^%d entries, %d thread(s)\n",
              game.spec().Name().c_str(), absl::GetFlag(FLAGS_table_bits),
              options.threads);
  for (const int ply : *plies) {
    if (absl::GetFlag(FLAGS_positions) == 0) break;
    std::vector<double> seconds;
    uint64_t nodes = 0;
    double total = 0;
    for (int i = 0; i < absl::GetFlag(FLAGS_positions); ++i) {
      std::string moves;
      const Position p = RandomPosition(game, ply, rng, &moves);
      const Solved solved = SolveFresh(**search, p);
      if (absl::GetFlag(FLAGS_sequences)) PrintSequence(moves, solved);
      seconds.push_back(solved.seconds);
      total += solved.seconds;
      nodes += solved.nodes;
    }
    std::printf(
        "ply %2d: %zu positions, median %.4f s, p90 %.4f s, max %.4f s, "
        "%.3g positions/s, %llu positions\n",
        ply, seconds.size(), Percentile(seconds, 0.5), Percentile(seconds, 0.9),
        Percentile(seconds, 1.0), nodes / total,
        static_cast<unsigned long long>(nodes));
    std::fflush(stdout);
  }
  if (absl::GetFlag(FLAGS_games) > 0) {
    const uint64_t seed = rng();
    for (const std::string& answer : absl::GetFlag(FLAGS_game_answers)) {
      TimeGames(game, **search, seed, answer);
    }
  }
  if (absl::GetFlag(FLAGS_empty)) {
    (*search)->Clear();
    const uint64_t before = (*search)->nodes();
    const Clock::time_point start = Clock::now();
    const SearchResult r = (*search)->Solve(Position());
    const double s =
        std::chrono::duration<double>(Clock::now() - start).count();
    const uint64_t nodes = (*search)->nodes() - before;
    std::printf("empty board: %s in %d, %.1f s, %.3g positions (%.3g/s)\n",
                std::string(ValueName(r.value)).c_str(), r.remoteness, s,
                static_cast<double>(nodes), nodes / s);
  }
  return 0;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "connect_benchmark",
          "times the exact search of a Connect-style game (Connect Four 7x6\n"
          "unless the game flags say otherwise) on positions of random games.\n"
          "  connect_benchmark [--plies=8,10] [--positions=N] [--threads=T] "
          "[--empty]",
          argc, argv)) {
    return *done;
  }
  return mnk::Run();
}
