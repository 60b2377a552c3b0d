// verify: re-checks a table file completely: its checksum and header (by
// loading it), then every record against its children's records.
//
//   bazel run //verify:verify -- --table=/tmp/4x4k4.mnk
//
// A compressed table too big to check in memory (6x6 gravity: two layers
// of 7.6e10 entries; 5,5,4: of 2.6e10) is checked a tier at a time with
// --work-dir=DIR (scratch tiers there; --resume continues a verify stopped
// at any moment):
//
//   verify --table=/big/6x6.mnk --work-dir=/big/verify.work [--resume]
//
// A book's leaves (the entries whose moves it does not hold: the frontier
// of `solve --frontier`) are searched afresh with --leaves, a random
// sample or all:
//
//   verify --table=/tmp/7x6k4g-upto10.mnk --leaves=20000 --seed=1
//
// Exit status: 0 every record checks out; 1 bad command line; 3 the table is
// missing, unreadable, not a regular file or corrupt (checksum, size,
// header); 4 not enough memory; 5 records disagree with their children or
// the rules; 6 standard output could not be written; 7 the work dir cannot
// be created, written or read (a work dir in use without --resume, or
// another verify's: 1, as for solve).
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/cli/cli.h"
#include "base/cli/threads_flag.h"
#include "base/cli/work_dir_flag.h"
#include "base/parallel/parallel.h"
#include "rules/game/printable.h"
#include "store/tier_flags.h"
#include "table/table.h"
#include "verify/leaves.h"
#include "verify/verify.h"

ABSL_FLAG(std::string, table, "", "the table file to check");
ABSL_FLAG(bool, quiet, false, "no progress line on standard error");
ABSL_FLAG(std::string, leaves, "",
          "a book of a Connect-style game: also search this many of its "
          "leaves (the entries whose moves it does not hold), drawn at "
          "random, or all, each from an empty table, and compare");
ABSL_FLAG(uint64_t, seed, 1, "with --leaves: the seed of the draw");

namespace mnk {
namespace {

// The report so far reached standard output.
bool Flushed() { return std::fflush(stdout) == 0 && !std::ferror(stdout); }

// Step 1: the table loaded and every checksum checked.
absl::StatusOr<Table> LoadChecked(const std::string& path) {
  absl::StatusOr<Table> table = Table::Load(path);
  if (!table.ok()) return table;
  std::printf("table       %s: %s, %llu bytes, format version %u\n",
              Printable(path).c_str(), table->game().spec().Name().c_str(),
              static_cast<unsigned long long>(table->file_bytes()),
              kTableVersion);
  // Load checks big tables page by page as they are read: here, all.
  if (absl::Status s = table->CheckAll(); !s.ok()) return s;
  std::printf(
      "checksum    CRC-32 of the file and of each of its pages match; "
      "header, size and sections agree\n");
  return table;
}

// Step 2: every record against its children, with a progress line; in
// memory, or a tier at a time with --work-dir (the forward pass, then each
// layer: twice the entries).
absl::StatusOr<VerifyReport> CheckRecords(const Table& table, int threads,
                                          const std::string& work_dir,
                                          const TierFlags& tiers) {
  const bool book = table.layout() == Layout::kBook;
  const uint64_t entries = book ? table.reachable() : table.index().size();
  Progress progress(!absl::GetFlag(FLAGS_quiet),
                    "verify " + table.game().spec().Name(),
                    work_dir.empty() ? entries : 2 * entries, "entries");
  progress.SetPhase("checking");
  const auto add = [&](uint64_t n) { progress.Add(n); };
  if (work_dir.empty()) return VerifyRecords(table, threads, add);
  TieredVerifyOptions options;
  options.work_dir = work_dir;
  options.threads = threads;
  options.tier_indices = tiers.tier_indices;
  options.resume = tiers.resume;
  return VerifyInWorkDir(table, options, add,
                         [&](uint64_t n) { progress.AddResumed(n); });
}

// --leaves: nullopt without it, 0 for all, else the sample's size;
// kInvalidArgument for anything else.
absl::StatusOr<std::optional<uint64_t>> LeavesFlag() {
  const std::string text = absl::GetFlag(FLAGS_leaves);
  if (text.empty()) return std::nullopt;
  if (text == "all") return uint64_t{0};
  uint64_t n = 0;
  if (absl::SimpleAtoi(text, &n) && n > 0) return n;
  return absl::InvalidArgumentError(
      absl::StrCat("--leaves=", Printable(text),
                   ": expected a number of leaves from 1 up, or all"));
}

// Step 2b (--leaves): a sample of a book's leaves, each searched afresh.
absl::StatusOr<LeafReport> CheckLeafSample(const Table& table, int threads,
                                           uint64_t sample) {
  LeafCheckOptions options;
  options.sample = sample;
  options.seed = absl::GetFlag(FLAGS_seed);
  options.threads = threads;
  Progress progress(!absl::GetFlag(FLAGS_quiet),
                    "verify " + table.game().spec().Name(), 0, "leaves");
  progress.SetPhase("searching");
  return CheckLeaves(table, options, &progress);
}

// A failed tiered check's exit status: its options or the work dir (the
// table's damaged sections are errors of its report).
int CheckFailed(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kFailedPrecondition:
      return Fail(kExitUsage, status);
    default:
      return Fail(kExitScratch, status);
  }
}

// Step 3: what was checked and what failed. Returns whether all passed.
bool PrintReport(const Table& table, const VerifyReport& report,
                 const std::optional<LeafReport>& leaves, double seconds) {
  // A compressed table stores no finished game: the rules decide those
  // while their parents are checked.
  const std::string terminal =
      table.layout() == Layout::kCompressed
          ? std::string(
                "terminal positions are not stored: the rules decide "
                "them")
      : table.layout() == Layout::kBook
          ? std::string(
                "a book holds positions in play only; the others "
                "are its leaves")
          : absl::StrCat(report.terminal,
                         " terminal, checked against the rules");
  std::printf(
      "records     %llu entries, %llu reachable (header: %llu), %llu stored "
      "records checked against their children (%s)\n",
      static_cast<unsigned long long>(report.indices),
      static_cast<unsigned long long>(report.reachable),
      static_cast<unsigned long long>(table.reachable()),
      static_cast<unsigned long long>(report.checked), terminal.c_str());
  for (const std::string& e : report.first_errors) {
    std::printf("error       %s\n", e.c_str());
  }
  uint64_t errors = report.errors;
  if (leaves.has_value()) {
    std::printf(
        "leaves      %llu of %llu leaves searched afresh (seed %llu), value "
        "and remoteness compared with the book's\n",
        static_cast<unsigned long long>(leaves->checked),
        static_cast<unsigned long long>(leaves->leaves),
        static_cast<unsigned long long>(absl::GetFlag(FLAGS_seed)));
    for (const std::string& e : leaves->first_errors) {
      std::printf("error       %s\n", e.c_str());
    }
    errors += leaves->errors;
  }
  if (report.reachable != table.reachable()) {
    std::printf("error       the header's reachable count differs\n");
    ++errors;
  }
  const bool ok = errors == 0;
  std::printf("result      %s, %llu errors, %.2f s\n", ok ? "ok" : "FAILED",
              static_cast<unsigned long long>(errors), seconds);
  return ok;
}

int Main() {
  const auto start = std::chrono::steady_clock::now();
  const std::string path = UserPath(absl::GetFlag(FLAGS_table));
  if (path.empty()) return Fail(kExitUsage, "expected --table=FILE");
  absl::StatusOr<int> threads = ThreadsFromFlag(kMaxThreads);
  if (!threads.ok()) return Fail(kExitUsage, threads.status());
  const std::string work_dir = WorkDirFromFlag();
  absl::StatusOr<TierFlags> tiers = TierFlagsFromFlags(work_dir);
  if (!tiers.ok()) return Fail(kExitUsage, tiers.status());
  absl::StatusOr<std::optional<uint64_t>> sample = LeavesFlag();
  if (!sample.ok()) return Fail(kExitUsage, sample.status());
  absl::StatusOr<Table> table = LoadChecked(path);
  if (!table.ok()) return Fail(TableExit(table.status()), table.status());
  if (!Flushed()) return OutputFailed("the report");
  const absl::StatusOr<VerifyReport> report =
      CheckRecords(*table, *threads, work_dir, *tiers);
  if (!report.ok()) return CheckFailed(report.status());
  std::optional<LeafReport> leaves;
  if (sample->has_value()) {
    absl::StatusOr<LeafReport> checked =
        CheckLeafSample(*table, *threads, **sample);
    if (absl::IsResourceExhausted(checked.status())) {
      return Fail(kExitMemory, checked.status());
    }
    if (!checked.ok()) return Fail(kExitUsage, checked.status());
    leaves = *std::move(checked);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const bool ok = PrintReport(*table, *report, leaves, seconds);
  if (!Flushed()) return OutputFailed("the report");
  return ok ? kExitOk : kExitDisagree;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "verify",
          "re-checks a table file, every record against its children.\n"
          "  verify --table=FILE [--threads=T] [--quiet] [--leaves=N|all "
          "[--seed=S]]\n"
          "  verify --table=FILE --work-dir=DIR [--tier-indices=N] "
          "[--resume]",
          argc, argv)) {
    return *done;
  }
  mnk::ExitOnTruncatedTable("verify", mnk::kExitTable);
  return mnk::RunGuarded(mnk::Main);
}
