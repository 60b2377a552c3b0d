#include "solver/solve_estimate.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/cli/cli.h"
#include "rules/index/index.h"
#include "store/write.h"

namespace mnk {
namespace {

// Per index, measured on two threads of a 2-core machine, whole process
// (docs/results.md, docs/figures.md; boards of 1e8 indices and more):
// the lowest and highest rate of each kind of solve.
struct Rates {
  Range nanoseconds;     // wall time an index, two threads
  Range work_dir_bytes;  // the work dir at its fullest, an index
  Range table_bytes;     // a compressed table with remoteness, an index
};

// Without gravity, in memory: 5,4,4 (24 s, 114 MB); 6,4,4 and 5,5,4 in
// tiers (3,209 s, 23.5 GB of tiers, 7.55 GB; 9,420 s, 15 GB, 14.19 GB).
// With gravity, in memory: 5x5 (4.8 s), 6x4 (6.1 s), 6x5 (192 s, 599 MB);
// in tiers: 6x5 (215 s), 6x6 (5,296-5,416 s, 17.9 GB, 9.59 GB) and 7x5
// (15,300 s, 25.4 GB, 15.63 GB).
constexpr Rates kFreeInMemory = {{32, 33}, {0, 0}, {0.087, 0.154}};
constexpr Rates kFreeInTiers = {{51, 75}, {0.092, 0.43}, {0.087, 0.154}};
constexpr Rates kGravityInMemory = {{19, 39}, {0, 0}, {0.015, 0.061}};
constexpr Rates kGravityInTiers = {{8.8, 27}, {0.026, 0.044}, {0.015, 0.061}};

// 600524301377 as "600,524,301,377".
std::string Thousands(uint64_t n) {
  std::string digits = absl::StrCat(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<size_t>(i), ",");
  }
  return digits;
}

std::string Duration(double seconds) {
  if (seconds < 120) return absl::StrFormat("%.0f s", std::max(seconds, 1.0));
  if (seconds < 7200) return absl::StrFormat("%.0f min", seconds / 60);
  return absl::StrFormat("%.1f hours", seconds / 3600);
}

}  // namespace

Range Times(Range r, double n) { return {r.low * n, r.high * n}; }

std::string Durations(Range r) {
  if (Duration(r.low) == Duration(r.high)) return "about " + Duration(r.low);
  return absl::StrCat(Duration(r.low), " to ", Duration(r.high));
}

std::string ByteRange(Range r) {
  const uint64_t low = static_cast<uint64_t>(r.low);
  const uint64_t high = static_cast<uint64_t>(r.high);
  if (Bytes(low) == Bytes(high)) return Bytes(low);
  return absl::StrCat(Bytes(low), " to ", Bytes(high));
}

SolveEstimate EstimateSolve(const Game& game, const SolveOptions& options) {
  const PositionIndex index(game);
  const bool tiers = !options.work_dir.empty();
  const Rates& rates = game.spec().gravity
                           ? (tiers ? kGravityInTiers : kGravityInMemory)
                           : (tiers ? kFreeInTiers : kFreeInMemory);
  const double n = static_cast<double>(index.size());
  SolveEstimate e;
  e.indices = index.size();
  e.reachable_bound = options.layout == TableLayout::Book();
  if (e.reachable_bound) return e;
  e.memory = SolveBytes(game, options);
  const double two_threads = 2.0 / std::max(options.threads, 1);
  e.seconds = Times(rates.nanoseconds, n * 1e-9 * two_threads);
  e.work_dir_bytes = Times(rates.work_dir_bytes, n);
  const Layout layout = options.layout.layout();
  if (layout == Layout::kFull) {
    const double bytes = static_cast<double>(TableFileSize(index.size()));
    e.table_bytes = {bytes, bytes};
  } else if (layout == Layout::kCompact) {
    const double bytes = static_cast<double>(CompactTableFileSize(index));
    e.table_bytes = {bytes, bytes};
  } else {
    e.table_bytes = Times(rates.table_bytes, n);
  }
  return e;
}

std::string EstimateReport(const Game& game, const SolveOptions& options,
                           const SolveEstimate& e) {
  std::string text = absl::StrCat(
      ToolName(), " ", game.spec().Name(), ", ", options.layout.name(), ", ",
      options.work_dir.empty() ? "in memory" : "in tiers in --work-dir", ", ",
      options.threads, options.threads == 1 ? " thread" : " threads", ":\n");
  absl::StrAppend(&text, "  indices   ", Thousands(e.indices),
                  " boards to test\n");
  if (e.reachable_bound) {
    absl::StrAppend(&text,
                    "  a book's memory, time and size follow its reachable "
                    "positions (9 bytes each in memory), unknown before the "
                    "solve\n");
    return text;
  }
  absl::StrAppend(&text, "  memory    ", Bytes(e.memory),
                  " at most (--memory: ", Bytes(options.max_bytes), ")\n");
  absl::StrAppend(&text, "  time      ", Durations(e.seconds), "\n");
  if (!options.work_dir.empty()) {
    absl::StrAppend(&text, "  work dir  ", ByteRange(e.work_dir_bytes),
                    " at most\n");
  }
  absl::StrAppend(&text, "  table     ", ByteRange(e.table_bytes), "\n");
  absl::StrAppend(
      &text,
      "time, work dir and a compressed table's size: the index times the "
      "rates of the boards measured (docs/results.md), scaled from two "
      "threads\n");
  return text;
}

}  // namespace mnk
