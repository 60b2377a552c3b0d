// The proof of a big table (one too big to solve in a test): random
// reachable positions of a table file with remoteness (full or compressed
// layout), each against the live alpha-beta search (value, remoteness, and
// the best move's child), and each against every symmetric image of itself
// in the same table. Positions with more empty cells than --max_empty are
// counted, by ply, and skipped: the search would take too long there.
//
//   bazel run //tests:table_check -- --table=/work/6x4k4.mnk --max_empty=12
//
// Prints the positions checked and skipped by ply, and the first ten
// disagreements and their number; exits 0 when --count positions were checked
// and all agree, 1 when one does not, 2 for bad flags or an unreadable table.
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "base/cli/cli.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "search/search.h"
#include "table/record.h"
#include "table/table.h"

ABSL_FLAG(std::string, table, "", "the table file to check");
ABSL_FLAG(uint64_t, count, 100000, "positions to check");
ABSL_FLAG(int, max_empty, 12,
          "positions with more empty cells are skipped (and counted)");
ABSL_FLAG(uint64_t, seed, 1, "random seed");
ABSL_FLAG(int, search_bits, 26, "log2 of the search's table entries");

namespace mnk {
namespace {

constexpr int kMaxShown = 10;

// What the table says of p, and whether the live search and p's symmetric
// images agree with it.
bool Agrees(const Table& table, AlphaBetaSearch& search, const Position& p,
            std::string* why) {
  const Game& game = table.game();
  const absl::StatusOr<Record> r = table.Probe(p);
  if (!r.ok()) {
    *why = std::string(r.status().message());
    return false;
  }
  const SearchResult live = search.Search(p);
  bool ok = r->value == live.value && r->remoteness == live.remoteness;
  if (ok && r->best_move != kNoMove) {
    const SearchResult child = search.Search(Game::Play(p, r->best_move));
    ok = Negate(child.value) == r->value &&
         child.remoteness + 1 == r->remoteness;
  }
  for (int s = 1; ok && s < static_cast<int>(game.symmetries().size()); ++s) {
    const absl::StatusOr<Record> image = table.Probe(game.Transform(p, s));
    ok = image.ok() && image->value == r->value &&
         image->remoteness == r->remoteness;
  }
  if (!ok) {
    *why = std::string(ValueName(r->value)) + " in " +
           std::to_string(r->remoteness) + ", move " +
           std::to_string(r->best_move) + "; search " +
           std::string(ValueName(live.value)) + " in " +
           std::to_string(live.remoteness);
  }
  return ok;
}

// What a sample found: positions checked and skipped, by ply, and how many
// disagree.
struct Sample {
  std::vector<uint64_t> checked, skipped;
  uint64_t total = 0, wrong = 0;
};

// --count random reachable positions with at most --max_empty empty cells
// checked (the first disagreements printed as they are found).
Sample CheckSample(const Table& table) {
  const Game& game = table.game();
  const PositionIndex& index = table.index();
  const int cells = game.cells();
  AlphaBetaSearch search(game, absl::GetFlag(FLAGS_search_bits));
  std::mt19937_64 random(absl::GetFlag(FLAGS_seed));
  std::uniform_int_distribution<uint64_t> pick(0, index.size() - 1);
  Sample s{std::vector<uint64_t>(cells + 1), std::vector<uint64_t>(cells + 1)};
  while (s.total < absl::GetFlag(FLAGS_count)) {
    const Position p = index.At(pick(random));
    if (!game.IsReachable(p)) continue;
    if (cells - p.stones() > absl::GetFlag(FLAGS_max_empty)) {
      ++s.skipped[p.stones()];
      continue;
    }
    std::string why;
    if (!Agrees(table, search, p, &why) && ++s.wrong <= kMaxShown) {
      std::printf("disagrees: %s: table %s\n", game.Format(p).c_str(),
                  why.c_str());
    }
    ++s.checked[p.stones()];
    ++s.total;
  }
  return s;
}

void Report(const Game& game, const Sample& s, double seconds) {
  std::printf("%s: %llu positions checked, %llu disagree, %.1f s\n",
              game.spec().Name().c_str(),
              static_cast<unsigned long long>(s.total),
              static_cast<unsigned long long>(s.wrong), seconds);
  for (int ply = 0; ply <= game.cells(); ++ply) {
    if (s.checked[ply] + s.skipped[ply] == 0) continue;
    std::printf("  ply %2d: %llu checked, %llu skipped (over %d empty cells)\n",
                ply, static_cast<unsigned long long>(s.checked[ply]),
                static_cast<unsigned long long>(s.skipped[ply]),
                absl::GetFlag(FLAGS_max_empty));
  }
}

int Run() {
  const std::string path = absl::GetFlag(FLAGS_table);
  if (path.empty()) {
    std::fprintf(stderr, "table_check: --table=FILE is required\n");
    return 2;
  }
  absl::StatusOr<Table> table = Table::Load(path);
  if (!table.ok()) {
    std::fprintf(stderr, "table_check: %s\n",
                 table.status().ToString().c_str());
    return 2;
  }
  const int cells = table->game().cells();
  if (absl::GetFlag(FLAGS_max_empty) < 0 ||
      absl::GetFlag(FLAGS_max_empty) > cells) {
    std::fprintf(stderr,
                 "table_check: --max_empty=%d: expected 0 to %d, the "
                 "board's cells\n",
                 absl::GetFlag(FLAGS_max_empty), cells);
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const Sample sample = CheckSample(*table);
  Report(table->game(), sample,
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
             .count());
  return sample.wrong == 0 ? 0 : 1;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "table_check",
          "checks random positions of a big table against alpha-beta and "
          "their\nsymmetric images.\n"
          "  table_check --table=FILE [--count=100000] [--max-empty=12]",
          argc, argv)) {
    return *done == mnk::kExitOk ? 0 : 2;  // 1 is a disagreement
  }
  return mnk::Run();
}
