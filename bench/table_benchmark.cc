// Probe speed on the built tic-tac-toe table, or on the table named by the
// environment variable MNK_TABLE, mapped (as play and serve load it) or,
// with MNK_TABLE_IN_MEMORY=1, read into memory (as serve --in_memory does).
//
//   bazel run //bench:table_benchmark -- --benchmark_repetitions=9
//   (add --benchmark_report_aggregates_only for the medians alone)
//   MNK_TABLE=/tmp/5x4k4.mnk bazel-bin/bench/table_benchmark
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "table/table.h"
#include "tools/cpp/runfiles/runfiles.h"

namespace mnk {
namespace {

const char* argv0 = "";

Table::Placement TablePlacement() {
  const char* in_memory = std::getenv("MNK_TABLE_IN_MEMORY");
  return in_memory != nullptr && std::string(in_memory) == "1"
             ? Table::Placement::kInMemory
             : Table::Placement::kMapped;
}

std::string TablePath() {
  if (const char* path = std::getenv("MNK_TABLE")) return path;
  std::string error;
  std::unique_ptr<bazel::tools::cpp::runfiles::Runfiles> runfiles(
      bazel::tools::cpp::runfiles::Runfiles::Create(argv0, &error));
  return runfiles == nullptr ? "" : runfiles->Rlocation("mnk/data/3x3k3.mnk");
}

// Reachable positions of the table in a fixed random order: all of them for
// small tables, else those among a million random indices (of a compact
// table, with X to move, checked by the rules).
std::vector<Position> ShuffledPositions(const Table& table) {
  constexpr uint64_t kSample = 1 << 20;
  const uint64_t size = table.index().size();
  std::mt19937_64 random(1);
  std::vector<Position> positions;
  for (uint64_t n = 0; n < std::min(size, kSample); ++n) {
    const uint64_t i = size <= kSample ? n : random() % size;
    const Position p = table.index().At(i);
    const bool reachable =
        table.layout() == Layout::kFull
            ? table.view().GetValue(i) != Value::kUnreachable
        : table.layout() == Layout::kCompact
            ? p.stones() % 2 == 0 && table.game().IsReachable(p)
            : table.game().IsReachable(p);
    if (reachable) positions.push_back(p);
  }
  std::shuffle(positions.begin(), positions.end(), random);
  return positions;
}

// The table, loaded and every page checked once for all the benchmarks, as
// a long-running player (serve) does: the steady state (a page's first read
// costs a CRC-32 of its 4 KiB, and a large table takes seconds to check).
const absl::StatusOr<Table>& CheckedTable() {
  static const absl::StatusOr<Table>* const table = [] {
    auto* loaded = new absl::StatusOr<Table>(
        Table::Load(TablePath(), std::nullopt, TablePlacement()));
    if (loaded->ok()) {
      if (absl::Status s = (*loaded)->CheckAll(); !s.ok()) *loaded = s;
    }
    return loaded;
  }();
  return *table;
}

// Which positions a benchmark draws: those with X to move (stones even:
// stored in compressed and compact tables), with O to move, or all.
enum Side { kXToMove = 0, kOToMove = 1, kEither = 2 };

// The table's shuffled reachable positions of a side, drawn once.
const std::vector<Position>& Positions(const Table& table, Side side) {
  static const auto* const lists = [&table] {
    auto* sides = new std::vector<Position>[3];
    sides[kEither] = ShuffledPositions(table);
    for (const Position& p : sides[kEither]) {
      sides[p.stones() % 2].push_back(p);
    }
    return sides;
  }();
  return lists[side];
}

// Runs probe(table, position) over random reachable positions of a side,
// cycling through a shuffled list of them.
template <typename Probe>
void OverPositions(benchmark::State& state, Probe probe, Side side = kEither) {
  const absl::StatusOr<Table>& table = CheckedTable();
  if (!table.ok()) {
    state.SkipWithError(std::string(table.status().message()).c_str());
    return;
  }
  const std::vector<Position>& positions = Positions(*table, side);
  if (positions.empty()) {
    state.SkipWithError("the table has no reachable position of that side");
    return;
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(probe(*table, positions[i]));
    if (++i == positions.size()) i = 0;
  }
}

// One Probe: value, remoteness and best move, with the record checks.
void BM_Probe(benchmark::State& state) {
  OverPositions(state,
                [](const Table& t, const Position& p) { return t.Probe(p); });
}
BENCHMARK(BM_Probe);

// The same with X to move (arg 0) or O to move (arg 1): a compressed table
// stores the first and derives the second from its children.
void BM_ProbeSide(benchmark::State& state) {
  OverPositions(
      state, [](const Table& t, const Position& p) { return t.Probe(p); },
      static_cast<Side>(state.range(0)));
}
BENCHMARK(BM_ProbeSide)->Arg(kXToMove)->Arg(kOToMove);

// The value alone (ValueOf): what a value-only probe costs; on compressed
// and compact tables odd layers come from the children.
void BM_ValueOf(benchmark::State& state) {
  OverPositions(state,
                [](const Table& t, const Position& p) { return t.ValueOf(p); });
}
BENCHMARK(BM_ValueOf);

// The same positions through Lookup: index and one record access, no checks.
void BM_Lookup(benchmark::State& state) {
  const absl::StatusOr<Table>& table = CheckedTable();
  if (!table.ok() || table->layout() != Layout::kFull) {
    state.SkipWithError("Lookup needs a table with the full layout");
    return;
  }
  OverPositions(state,
                [](const Table& t, const Position& p) { return t.Lookup(p); });
}
BENCHMARK(BM_Lookup);

// One entry of one section of a compressed table (arg 0: values, 1: moves,
// 2: remoteness), at random entries of the widest even layer: what a
// probe's lookups cost, each a block decoded up to the entry.
void BM_SectionGet(benchmark::State& state) {
  const absl::StatusOr<Table>& table = CheckedTable();
  if (!table.ok() || table->compressed() == nullptr ||
      (state.range(0) == 2 && !table->compressed()->has_remoteness())) {
    state.SkipWithError("needs a compressed table (with remoteness for 2)");
    return;
  }
  const CompressedSections& c = *table->compressed();
  int stones = 0;
  for (int l = 0; l <= table->game().cells(); l += 2) {
    if (table->index().layer_size(l) > table->index().layer_size(stones)) {
      stones = l;
    }
  }
  std::mt19937_64 random(1);
  std::vector<uint64_t> entries(1 << 16);
  for (uint64_t& e : entries) e = random() % table->index().layer_size(stones);
  size_t i = 0;
  for (auto _ : state) {
    const uint64_t e = entries[i++ & (entries.size() - 1)];
    benchmark::DoNotOptimize(state.range(0) == 0   ? c.value(stones, e)
                             : state.range(0) == 1 ? c.move(stones, e)
                                                   : c.remoteness(stones, e));
  }
}
BENCHMARK(BM_SectionGet)->Arg(0)->Arg(1)->Arg(2);

// Loading (reading and checking) the table file.
void BM_Load(benchmark::State& state) {
  const std::string path = TablePath();
  for (auto _ : state) {
    benchmark::DoNotOptimize(Table::Load(path, std::nullopt, TablePlacement()));
  }
}
BENCHMARK(BM_Load)->Unit(benchmark::kMicrosecond)->Iterations(3);

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  mnk::argv0 = argv[0];
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
