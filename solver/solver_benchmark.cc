// Solver and live-search speed.
//
//   bazel run //solver:solver_benchmark -- --benchmark_repetitions=9
//   (add --benchmark_report_aggregates_only for the medians alone)
//   bazel run //solver:solver_benchmark --
//   --benchmark_filter='BM_Solve.*threads:2'
//       (the rate across sizes: 4,4,4 to 5,4,4, gravity 5x4 to 5x5; each
//       solve of the big ones takes 5 to 30 s and up to 0.8 GB)
#include "benchmark/benchmark.h"
#include "rules/game/game.h"
#include "search/search.h"
#include "solver/retrograde/solver.h"

namespace mnk {
namespace {

// Solving a whole game in-process: args are width, height, k, gravity,
// threads.
void BM_Solve(benchmark::State& state) {
  const Game game = *Game::Create(
      {static_cast<int>(state.range(0)), static_cast<int>(state.range(1)),
       static_cast<int>(state.range(2)), state.range(3) != 0});
  SolveOptions options;
  options.threads = static_cast<int>(state.range(4));
  uint64_t reachable = 0, visits = 0;
  for (auto _ : state) {
    absl::StatusOr<Solution> s = Solve(game, options);
    reachable = s->stats.reachable;
    visits = s->stats.index_visits;
    benchmark::DoNotOptimize(s->records().view().values);
  }
  state.counters["reachable"] = reachable;
  state.counters["positions/s"] = benchmark::Counter(
      reachable, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["index_visits/s"] =
      benchmark::Counter(visits, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Solve)
    ->ArgNames({"m", "n", "k", "gravity", "threads"})
    ->Args({3, 3, 3, 0, 1})
    ->Args({4, 4, 4, 1, 1})
    ->Args({4, 4, 4, 0, 2})
    ->Args({5, 4, 4, 1, 2})
    ->Args({4, 5, 4, 1, 2})
    ->Args({6, 4, 4, 1, 2})
    ->Args({5, 5, 4, 1, 2})
    ->Args({5, 4, 4, 0, 2})
    ->Unit(benchmark::kMicrosecond);

// The seed tutorials' way to choose a move from the empty board: plain
// minimax on every move, no memory.
void BM_SeedMinimaxFirstMove(benchmark::State& state) {
  const Game game = *Game::Create({3, 3, 3});
  uint64_t nodes = 0;
  for (auto _ : state) {
    int best = -2, best_cell = -1;
    nodes = 0;
    for (int cell : game.LegalMoves(Position{})) {
      const int score = -Minimax(game, Game::Play(Position{}, cell), &nodes);
      if (score > best) {
        best = score;
        best_cell = cell;
      }
    }
    benchmark::DoNotOptimize(best_cell);
  }
  state.counters["nodes"] = nodes;
}
BENCHMARK(BM_SeedMinimaxFirstMove)->Unit(benchmark::kMicrosecond);

void BM_AlphaBetaEmptyBoard(benchmark::State& state) {
  const Game game = *Game::Create({3, 3, 3});
  for (auto _ : state) {
    benchmark::DoNotOptimize(AlphaBeta(game, Position{}));
  }
}
BENCHMARK(BM_AlphaBetaEmptyBoard)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace mnk

BENCHMARK_MAIN();
