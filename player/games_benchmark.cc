// Whole games of Connect Four 7x6 from the empty board, answered as `play`
// answers them with no flag (the answer call: its built-in opening book,
// then the exact search with play's default memory and threads, a source
// opened for each game and kept through it):
// the perfect player against a random and against a perfect opponent, as X
// and as O, each of its moves timed. What "every move under 100 ms at p99"
// is measured by.
//
//   bazel run //player:games_benchmark -- --games=100
//   bazel run //player:games_benchmark -- --book=/tmp/deeper-book.mnk
//   bazel run //player:games_benchmark -- --search_memory=64M
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "answer/answer.h"
#include "base/cli/cli.h"
#include "base/cli/search_flags.h"
#include "base/cli/threads_flag.h"
#include "rules/game/game.h"
#include "search/connect.h"

ABSL_FLAG(int, games, 50,
          "games against a random opponent, for each side (against a perfect "
          "one each side's game is always the same: one each)");
ABSL_FLAG(std::string, book, "",
          "the opening book (default: the built-in 7x6 book, as play uses)");
ABSL_FLAG(uint64_t, seed, 1, "random seed of the random opponent");

namespace mnk {
namespace {

using Clock = std::chrono::steady_clock;

struct MoveTime {
  double seconds;
  int ply;
  bool without_search;
};

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))];
}

// One game from the empty board on a source opened for it (as a `play`
// process is): the perfect player moves as `perfect_side`, the opponent at
// random (`rng`) or perfectly (null rng). Appends the times of the perfect
// player's moves (without search: from the book, or the game's rules).
absl::Status PlayGame(const SourceOptions& options, int perfect_side,
                      std::mt19937_64* rng, std::vector<MoveTime>* times) {
  absl::StatusOr<std::unique_ptr<AnswerSource>> source =
      AnswerSource::Open(GameSpec{7, 6, 4, true}, options);
  if (!source.ok()) return source.status();
  const Game& game = (*source)->game();
  for (Position p; !game.IsTerminal(p);) {
    int cell;
    if (p.side_to_move() == perfect_side || rng == nullptr) {
      const bool at_once = !(*source)->NeedsSearch(p);
      const Clock::time_point start = Clock::now();
      absl::StatusOr<Analysis> a =
          (*source)->Answer(p, {}, {}, Need::kBestMove);
      const double s =
          std::chrono::duration<double>(Clock::now() - start).count();
      if (!a.ok()) return a.status();
      if (p.side_to_move() == perfect_side) {
        times->push_back({s, p.stones(), at_once});
      }
      cell = a->record.best_move;
    } else {
      const std::vector<int> legal = game.LegalMoves(p);
      cell = legal[(*rng)() % legal.size()];
    }
    p = Game::Play(p, cell);
  }
  return absl::OkStatus();
}

void Report(const std::string& what, const std::vector<MoveTime>& times) {
  std::vector<double> seconds;
  int without_search = 0;
  MoveTime slowest = times[0];
  for (const MoveTime& t : times) {
    seconds.push_back(t.seconds);
    without_search += t.without_search;
    if (t.seconds > slowest.seconds) slowest = t;
  }
  int over = 0;
  for (double s : seconds) over += s > 0.1;
  std::printf(
      "%s: %zu moves (%d without search: book or immediate), p50 %.4f s, p99 "
      "%.4f s, max %.4f s "
      "(ply %d), %d over 100 ms\n",
      what.c_str(), seconds.size(), without_search, Percentile(seconds, 0.5),
      Percentile(seconds, 0.99), slowest.seconds, slowest.ply, over);
  std::fflush(stdout);
}

// Where the time goes: each ply's moves, their p99 and how many took over
// 100 ms (what a deeper book would take away).
void ReportPlies(const std::vector<MoveTime>& times) {
  for (int ply = 0; ply <= 42; ++ply) {
    std::vector<double> seconds;
    int over = 0;
    for (const MoveTime& t : times) {
      if (t.ply != ply) continue;
      seconds.push_back(t.seconds);
      over += t.seconds > 0.1;
    }
    if (seconds.empty()) continue;
    std::printf(
        "  ply %2d: %4zu moves, p99 %.4f s, max %.4f s, %d over 100 ms\n", ply,
        seconds.size(), Percentile(seconds, 0.99), Percentile(seconds, 1.0),
        over);
  }
}

// The options play's flags give: --book, --search_memory, --threads.
absl::StatusOr<SourceOptions> OptionsFromFlags() {
  SourceOptions options;
  options.book = absl::GetFlag(FLAGS_book);
  absl::StatusOr<SearchMemory> memory = SearchMemoryFromFlag();
  if (!memory.ok()) return memory.status();
  options.search_memory = memory->bytes;
  options.search_memory_name = memory->name;
  absl::StatusOr<int> threads = ThreadsFromFlag(ConnectSearch::kMaxThreads);
  if (!threads.ok()) return threads.status();
  options.search_threads = *threads;
  return options;
}

int Run() {
  absl::StatusOr<SourceOptions> options = OptionsFromFlags();
  if (!options.ok()) return Fail(kExitUsage, options.status());
  std::printf("7x6 with gravity, book %s, search memory %s, %d threads\n",
              options->book.empty() ? "built in" : options->book.c_str(),
              Bytes(options->search_memory).c_str(), options->search_threads);
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  std::vector<MoveTime> all;
  for (const bool random : {true, false}) {
    for (int side = 0; side < 2; ++side) {
      std::vector<MoveTime> times;
      const int games = random ? absl::GetFlag(FLAGS_games) : 1;
      for (int g = 0; g < games; ++g) {
        const absl::Status s =
            PlayGame(*options, side, random ? &rng : nullptr, &times);
        if (!s.ok()) {
          std::fprintf(stderr, "%s\n", s.ToString().c_str());
          return 1;
        }
      }
      Report(absl::StrCat("as ", side == 0 ? "X" : "O", " against a ",
                          random ? "random" : "perfect", " opponent, ", games,
                          " game(s)"),
             times);
      all.insert(all.end(), times.begin(), times.end());
    }
  }
  Report("every move", all);
  ReportPlies(all);
  return 0;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "games_benchmark",
          "times the perfect player's moves in whole games of Connect Four "
          "7x6,\nas play answers them.\n"
          "  games_benchmark [--games=50] [--book=FILE] [--threads=T]\n"
          "                  [--search_memory=16M]",
          argc, argv)) {
    return *done;
  }
  return mnk::Run();
}
