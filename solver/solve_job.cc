#include "solver/solve_job.h"

#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/cli/cli.h"
#include "base/parallel/parallel.h"
#include "rules/game/printable.h"
#include "rules/index/index.h"
#include "solver/retrograde/sparse.h"
#include "store/work_dir.h"
#include "store/write.h"

namespace mnk {
namespace {

// Auto writes full tables up to this size.
constexpr uint64_t kAutoFullBytes = uint64_t{64} << 20;

constexpr char kFailureUrl[] = "mnk.dev/solve-failure";

absl::Status WithFailure(absl::Status status, SolveFailure failure) {
  status.SetPayload(kFailureUrl,
                    absl::Cord(absl::StrCat(static_cast<int>(failure))));
  return status;
}

// The layout asked for, checked against the remoteness asked for; nullopt
// for auto.
absl::StatusOr<std::optional<TableLayout>> AskedLayout(
    const SolveRequest& request) {
  const std::optional<Layout> layout = request.layout;
  const std::optional<bool> remoteness = request.remoteness;
  if (remoteness == false && layout == Layout::kFull) {
    return absl::InvalidArgumentError(
        "--remoteness=no with --layout=full: full tables always keep "
        "remoteness; use --layout=compressed (or leave --layout out)");
  }
  if (remoteness == false && layout == Layout::kBook) {
    return absl::InvalidArgumentError(
        "--remoteness=no with --layout=book: books always keep remoteness");
  }
  if (remoteness == true && layout == Layout::kCompact) {
    return absl::InvalidArgumentError(
        "--remoteness=yes with --layout=compact: compact tables never "
        "keep remoteness; use --layout=compressed or full");
  }
  if (!layout.has_value()) return std::optional<TableLayout>();
  if (*layout == Layout::kCompressed) {
    return std::optional<TableLayout>(
        TableLayout::Compressed(remoteness.value_or(true)));
  }
  return std::optional<TableLayout>(TableLayout::Of(*layout));
}

// Every option but the layout, checked.
absl::StatusOr<SolveOptions> Options(const SolveRequest& request) {
  if (request.threads < 0 || request.threads > kMaxThreads) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads ", request.threads,
                     ": expected 0 (one per core) to ", kMaxThreads));
  }
  if (!CheckTierIndices(request.tier_indices).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("tier_indices ", request.tier_indices,
                     ": expected a power of two from ", kMinTierIndices, " to ",
                     kMaxTierIndices, ", e.g. 1048576"));
  }
  if (request.resume && request.work_dir.empty()) {
    return absl::InvalidArgumentError("resume needs the work dir of the run");
  }
  SolveOptions options;
  options.threads = request.threads > 0 ? request.threads : DefaultThreads();
  options.max_bytes =
      request.memory > 0 ? request.memory : DefaultMemoryLimit();
  options.work_dir = request.work_dir;
  options.resume = request.resume;
  options.tier_indices = request.tier_indices;
  options.cluster = request.cluster;
  options.progress = request.progress;
  options.on_progress = request.on_progress;
  options.cancel = request.cancel;
  return options;
}

// Auto: a full table while it is small (a probe is one load, tens of
// nanoseconds), the compressed layout past that (10 to 30 times smaller)
// or without remoteness; then, if that solve does not fit in the memory,
// the compressed one, else the compact one, saying so in `note`.
TableLayout AutoLayout(const Game& game, bool remoteness, SolveOptions options,
                       std::string& note) {
  const bool small =
      TableFileSize(PositionIndex(game).size()) <= kAutoFullBytes;
  options.layout = small && remoteness ? TableLayout::Full()
                                       : TableLayout::Compressed(remoteness);
  const uint64_t preferred = SolveBytes(game, options);
  if (preferred <= options.max_bytes) return options.layout;
  const TableLayout first = options.layout;
  options.layout = TableLayout::Compressed(remoteness);
  if (SolveBytes(game, options) > options.max_bytes) {
    options.layout = TableLayout::Compact();
  }
  if (SolveBytes(game, options) <= options.max_bytes) {
    note = absl::StrCat(
        "--layout=auto: a ", first.name(), " table needs ", Bytes(preferred),
        " to solve, more than --memory=", Bytes(options.max_bytes),
        "; writing a ",
        options.layout == TableLayout::Compact() ? "compact (values only)"
                                                 : "compressed",
        " table instead");
  }
  return options.layout;
}

// Why a solve that needs `need` bytes, more than the memory, is refused,
// and what would need less.
std::string Refusal(const Game& game, const SolveOptions& options,
                    uint64_t need) {
  std::string hint;
  if (options.work_dir.empty()) {
    SolveOptions in_tiers = options;
    in_tiers.work_dir = "DIR";
    if (const uint64_t tiers = SolveBytes(game, in_tiers); tiers < need) {
      absl::StrAppend(&hint, "; with --work-dir=DIR it needs ", Bytes(tiers));
    }
  }
  if (options.layout != TableLayout::Compact()) {
    SolveOptions compact = options;
    compact.layout = TableLayout::Compact();
    if (const uint64_t less = SolveBytes(game, compact); less < need) {
      absl::StrAppend(&hint, "; --layout=compact needs ", Bytes(less));
    }
  }
  absl::StrAppend(&hint,
                  "; --layout=book needs 9 bytes a reachable position "
                  "(boards with far fewer positions than indices)");
  return absl::StrCat("solving ", game.spec().Name(), " needs ", Bytes(need),
                      "; the limit is ", Bytes(options.max_bytes),
                      " (--memory)", hint);
}

// The book layout and the plan each take only some options.
absl::Status CheckCombination(const SolveRequest& request, bool sparse) {
  if (sparse && (!request.work_dir.empty() ||
                 (request.cluster != nullptr && request.cluster->size() > 1))) {
    return absl::InvalidArgumentError(
        "--layout=book is solved in memory by one process: it takes no "
        "--work-dir and no MPI ranks");
  }
  if (request.plan_processes == 0) return absl::OkStatus();
  if (request.plan_processes < 1 || request.plan_processes > 65536) {
    return absl::InvalidArgumentError(
        absl::StrCat("--plan=", request.plan_processes,
                     ": expected a number of processes from 1 to 65536"));
  }
  if (request.work_dir.empty() || sparse) {
    return absl::InvalidArgumentError(
        "--plan plans a solve in tiers: it needs --work-dir=DIR (and not "
        "--layout=book, which is solved in memory)");
  }
  return absl::OkStatus();
}

// The book request.frontier names, checked whole: kInvalidArgument unless
// the layout is the book's and the file a book; Table::Load's errors.
absl::StatusOr<std::shared_ptr<const Table>> LoadFrontier(
    const SolveRequest& request, bool sparse) {
  const std::string flag =
      absl::StrCat("--frontier=", Printable(request.frontier));
  if (!sparse) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag,
                     " needs --layout=book: the layers before a "
                     "frontier are solved over their positions alone"));
  }
  absl::StatusOr<Table> table = Table::Load(request.frontier, request.game);
  if (!table.ok()) return table.status();
  if (table->book() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag,
                     " is not a book: expected every position of a layer "
                     "(book --every_position)"));
  }
  if (absl::Status s = table->CheckAll(); !s.ok()) return s;
  return std::make_shared<const Table>(*std::move(table));
}

// The table's size and sections and, with `out`, the table written there.
absl::Status WriteTable(Solved& solved, const std::string& out) {
  const Solution& s = solved.solution;
  solved.table_bytes = s.kept->FileBytes();
  // Compressed sections come values, moves, remoteness: one of each kind a
  // layer.
  const std::vector<uint64_t> sizes = s.kept->SectionSizes();
  const size_t layers = s.game.cells() / 2 + 1;
  uint64_t* kinds[3] = {&solved.value_bytes, &solved.move_bytes,
                        &solved.remoteness_bytes};
  for (size_t i = 0; i < sizes.size(); ++i) *kinds[i / layers] += sizes[i];
  if (out.empty()) return absl::OkStatus();
  return s.kept->Write(out, s.game.spec(), s.stats.reachable);
}

absl::StatusOr<Solution> SolveWithin(const SolveJob& job) {
  try {
    return job.sparse ? SolveSparse(job.game, job.options)
                      : Solve(job.game, job.options);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "solving ", job.game.spec().Name(),
        " ran out of memory: it needs about ",
        job.sparse ? "9 bytes a reachable position" : Bytes(job.bytes), " on ",
        job.options.threads, " threads, and that much could not be had"));
  }
}

}  // namespace

absl::Status SetLayout(SolveRequest& request, absl::string_view name) {
  request.layout = LayoutNamed(name);
  if (name == "auto" || request.layout.has_value()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("layout '", Printable(name),
                   "': expected auto, full, compact, compressed or book"));
}

absl::StatusOr<SolveJob> PlanSolveJob(const SolveRequest& request) {
  absl::StatusOr<Game> game = Game::Create(request.game);
  if (!game.ok()) return game.status();
  if (absl::Status s = CheckSolvable(*game); !s.ok()) return s;
  absl::StatusOr<std::optional<TableLayout>> asked = AskedLayout(request);
  if (!asked.ok()) return asked.status();
  absl::StatusOr<SolveOptions> options = Options(request);
  if (!options.ok()) return options.status();
  SolveJob job(*game);
  job.options = *std::move(options);
  job.out = request.out;
  job.options.layout = asked->has_value()
                           ? **asked
                           : AutoLayout(*game, request.remoteness != false,
                                        job.options, job.layout_note);
  job.sparse = job.options.layout == TableLayout::Book();
  if (absl::Status s = CheckCombination(request, job.sparse); !s.ok()) {
    return s;
  }
  if (!request.frontier.empty()) {
    absl::StatusOr<std::shared_ptr<const Table>> frontier =
        LoadFrontier(request, job.sparse);
    if (!frontier.ok()) return frontier.status();
    job.frontier = *std::move(frontier);
    job.options.frontier = job.frontier->book();
  }
  job.estimate = EstimateSolve(job.game, job.options);
  if (!job.sparse) {
    job.bytes = job.estimate.memory;
    if (job.bytes > job.options.max_bytes) {
      job.refusal = Refusal(job.game, job.options, job.bytes);
    }
  }
  if (request.plan_processes > 0) {
    job.plan = PlanSolve(job.game, job.options, request.plan_processes,
                         request.network);
  }
  return job;
}

absl::StatusOr<Solved> RunSolveJob(const SolveJob& job) {
  const bool lead =
      job.options.cluster == nullptr || job.options.cluster->rank() == 0;
  // A table that cannot be written is found out before the solve.
  if (lead && !job.out.empty()) {
    if (absl::Status s = CheckTableTarget(job.out); !s.ok()) {
      return WithFailure(s, SolveFailure::kTable);
    }
  }
  if (!job.refusal.empty()) {
    return WithFailure(absl::ResourceExhaustedError(job.refusal),
                       SolveFailure::kMemory);
  }
  absl::StatusOr<Solution> solution = SolveWithin(job);
  if (!solution.ok()) {
    const bool memory = absl::IsResourceExhausted(solution.status()) &&
                        (job.sparse || job.options.work_dir.empty());
    return WithFailure(solution.status(),
                       memory ? SolveFailure::kMemory : SolveFailure::kSolve);
  }
  Solved solved(*std::move(solution));
  if (!lead) return solved;  // rank 0 of a shared solve writes the table
  if (absl::Status s = WriteTable(solved, job.out); !s.ok()) {
    return WithFailure(s, SolveFailure::kTable);
  }
  return solved;
}

SolveFailure SolveFailureOf(const absl::Status& status) {
  const auto payload = status.GetPayload(kFailureUrl);
  int failure = 0;
  if (!payload.has_value() ||
      !absl::SimpleAtoi(std::string(*payload), &failure)) {
    return SolveFailure::kNone;
  }
  return static_cast<SolveFailure>(failure);
}

}  // namespace mnk
