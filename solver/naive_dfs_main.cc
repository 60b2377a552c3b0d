// A yardstick for the solver: the naive way to solve a game completely, a
// memoized depth-first search over an array indexed by the board in base 3
// (3^cells bytes, one a board: 0 = not yet solved, else value << 6 |
// remoteness). It visits every reachable position once, as the solver does,
// but in recursion order and through a sparse array. Benchmarks compare the
// two, whole process, in the same run (docs/figures.md):
//
//   bazel build -c opt //solver:naive_dfs //solver:solve
//   bazel-bin/solver/naive_dfs --width=4 --height=4 --k=4
//   bazel-bin/solver/solve --width=4 --height=4 --k=4 --quiet
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>

#include "absl/numeric/bits.h"
#include "base/cli/cli.h"
#include "base/cli/game_flags.h"
#include "rules/game/game.h"
#include "rules/game/policy.h"

namespace mnk {
namespace {

class NaiveDfs {
 public:
  explicit NaiveDfs(const Game& game) : game_(game) {
    uint64_t size = 1;
    for (int cell = 0; cell < game.cells(); ++cell) {
      power_[cell] = size;
      size *= 3;
    }
    memo_.reset(new uint8_t[size]());
  }

  // Value << 6 | remoteness of p (code: p in base 3, X = 1, O = 2).
  uint8_t Solve(const Position& p, uint64_t code) {
    if (memo_[code] != 0) return memo_[code];
    ++positions_;
    uint8_t result;
    if (const std::optional<Value> end = game_.Primitive(p)) {
      result = static_cast<uint8_t>(static_cast<int>(*end) << 6);
    } else {
      const uint64_t stone = p.side_to_move() == 0 ? 1 : 2;
      int best_score = -(1 << 20);
      result = 0;
      for (Mask s = game_.LegalMask(p); s != 0; s &= s - 1) {
        const int cell = absl::countr_zero(s);
        const uint8_t child =
            Solve(Game::Play(p, cell), code + stone * power_[cell]);
        const Value v = Negate(static_cast<Value>(child >> 6));
        const int plies = (child & 63) + 1;
        const int score = PolicyScore(v, plies);
        if (score > best_score) {
          best_score = score;
          result = static_cast<uint8_t>(static_cast<int>(v) << 6 | plies);
        }
      }
    }
    memo_[code] = result;
    return result;
  }
  uint64_t positions() const { return positions_; }

 private:
  const Game& game_;
  uint64_t power_[32] = {};
  std::unique_ptr<uint8_t[]> memo_;
  uint64_t positions_ = 0;
};

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "naive_dfs",
          "solves a game by the naive memoized depth-first search, the\n"
          "yardstick of solve's speed (the game: 4,4,4 unless the game flags\n"
          "say otherwise; at most 20 cells).\n"
          "  naive_dfs [--width=4 --height=4 --k=4] [--gravity] [--misere]",
          argc, argv)) {
    return *done;
  }
  absl::StatusOr<mnk::Game> game = mnk::GameFromFlags({4, 4, 4});
  if (!game.ok()) return mnk::Fail(mnk::kExitUsage, game.status());
  if (game->cells() > 20) {
    return mnk::Fail(mnk::kExitUsage,
                     "expected at most 20 cells (3^cells bytes)");
  }
  return mnk::RunGuarded([&] {
    const auto start = std::chrono::steady_clock::now();
    mnk::NaiveDfs dfs(*game);
    const uint8_t root = dfs.Solve(mnk::Position{}, 0);
    std::printf(
        "%s: %s in %d, %llu positions, %.3f s\n", game->spec().Name().c_str(),
        std::string(mnk::ValueName(static_cast<mnk::Value>(root >> 6))).c_str(),
        root & 63, static_cast<unsigned long long>(dfs.positions()),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
    return mnk::kExitOk;
  });
}
