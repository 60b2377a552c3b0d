#include "solver/solve_command.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <cassert>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/numeric/bits.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/cli/cli.h"
#include "base/cli/game_flags.h"
#include "base/cli/threads_flag.h"
#include "base/cli/work_dir_flag.h"
#include "nlohmann/json.hpp"
#include "rules/game/game.h"
#include "rules/game/game_json.h"
#include "rules/game/printable.h"
#include "solver/retrograde/solver.h"
#include "solver/retrograde/sparse.h"
#include "solver/solve_estimate.h"
#include "solver/solve_plan.h"
#include "store/tier_flags.h"
#include "store/work_dir.h"
#include "store/write.h"
#include "table/file_io.h"
#include "table/layout.h"

ABSL_FLAG(std::string, out, "", "write the table to this file");
ABSL_FLAG(bool, json, false, "print the summary as one JSON object");
ABSL_FLAG(bool, quiet, false, "no progress line on standard error");
ABSL_FLAG(std::string, layout, "auto",
          "full, compact, compressed, book or auto: auto is full up to 64 "
          "MiB, else compressed; book lists the reachable positions alone, "
          "for boards whose index is far larger (docs/tables.md)");
ABSL_FLAG(std::string, memory, "",
          "the most memory the solve may use, e.g. 12G (K, M, G, T: powers "
          "of 1024; default 3/4 of this machine's)");
ABSL_FLAG(bool, estimate, false,
          "print the memory, time and disk the solve would take, from the "
          "rates of the boards measured, and exit without solving");
ABSL_FLAG(int, plan, 0,
          "print what each of this many processes (solve_mpi ranks, "
          "--threads each) would hold, write, read and join, layer by "
          "layer, and exit without solving; needs --work-dir");
ABSL_FLAG(std::string, network, "125M",
          "with --plan: bytes a second between a process and the shared "
          "work dir (K, M, G: powers of 1024)");
ABSL_FLAG(std::string, remoteness, "",
          "yes or no: whether the table keeps remoteness (default yes; no "
          "writes a compressed table without it, smaller)");

namespace mnk {
namespace {

// --layout=auto writes full tables up to this size.
constexpr uint64_t kAutoFullBytes = uint64_t{64} << 20;

// Compressed tables: the bytes of each kind of section.
struct SectionBytes {
  uint64_t values = 0, moves = 0, remoteness = 0;
};

// What the solve wrote: its layout, size and sections.
struct Written {
  uint64_t table_bytes = 0;
  SectionBytes sections;
};

// "full layout", "compressed layout without remoteness": what the summary
// says the table keeps.
std::string LayoutText(TableLayout layout) {
  return absl::StrCat(
      layout.name(), " layout",
      layout == TableLayout::Compressed(false) ? " without remoteness" : "");
}

// The most memory this process has held (its peak resident set).
uint64_t PeakRssBytes() {
  rusage usage = {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
}

// A process of a shared solve, on standard error once its part is done:
// what it held, wrote, read and joined (solve --plan says it beforehand).
void ReportProcess(const SolveStats& st) {
  std::fprintf(stderr,
               "%s: peak memory %s; work dir: wrote %s (payloads %s), read "
               "%s (payloads %s); joined %s of reachable bits\n",
               ToolName().c_str(), Bytes(PeakRssBytes()).c_str(),
               Bytes(st.file_written).c_str(),
               Bytes(st.payload_written).c_str(), Bytes(st.file_read).c_str(),
               Bytes(st.payload_read).c_str(), Bytes(st.joined).c_str());
}

std::string Summary(const Solution& s, const Written& w,
                    const std::string& out) {
  const SolveStats& st = s.stats;
  std::string text = absl::StrFormat(
      "game        %s (%dx%d, %d in a row %s%s)\n"
      "start       %s for X, the first player, in %d plies\n"
      "reachable   %d positions, %d terminal (%d won by X, %d won by O, %d "
      "drawn); %d up to symmetry\n"
      "by ply      %s\n"
      "by value    %d wins, %d draws, %d losses for the side to move\n",
      s.game.spec().Name(), s.game.width(), s.game.height(), s.game.spec().k,
      s.game.spec().misere ? "loses" : "wins",
      s.game.spec().gravity ? ", gravity" : "", ValueName(st.start_value),
      st.start_remoteness, st.reachable, st.terminal, st.x_wins, st.o_wins,
      st.full_draws, st.canonical, absl::StrJoin(st.per_ply, " "), st.wins,
      st.draws, st.losses);
  absl::StrAppendFormat(
      &text, "table       %s, %d bytes, %.2f bits per reachable position%s\n",
      LayoutText(s.layout), w.table_bytes, 8.0 * w.table_bytes / st.reachable,
      out.empty()
          ? "; not written (no --out=FILE)"
          : absl::StrCat(", written to ", Printable(AbsolutePath(out))));
  absl::StrAppendFormat(
      &text,
      "time        %.6f s, %.3g reachable positions a second, %d index "
      "visits, %s peak memory\n",
      st.seconds, st.reachable / std::max(st.seconds, 1e-9), st.index_visits,
      Bytes(PeakRssBytes()));
  return text;
}

std::string Json(const Solution& s, const Written& w) {
  const SolveStats& st = s.stats;
  nlohmann::ordered_json j = {
      {"game", GameJson(s.game.spec())},
      {"start_value", std::string(ValueName(st.start_value))},
      {"start_remoteness", st.start_remoteness},
      {"reachable", st.reachable},
      {"canonical", st.canonical},
      {"symmetries", s.game.symmetries().size()},
      {"terminal", st.terminal},
      {"terminal_by_outcome",
       {{"x_wins", st.x_wins},
        {"o_wins", st.o_wins},
        {"draws", st.full_draws}}},
      {"by_ply", st.per_ply},
      {"by_value", {{"win", st.wins}, {"draw", st.draws}, {"loss", st.losses}}},
      {"indices", s.index.size()},
      {"layout", s.layout.name()},
      {"remoteness", s.layout.has_remoteness()},
      {"table_bytes", w.table_bytes},
      {"bits_per_position", 8.0 * w.table_bytes / st.reachable},
      {"seconds", st.seconds},
      {"positions_per_second", st.reachable / std::max(st.seconds, 1e-9)},
      {"index_visits", st.index_visits},
      {"peak_rss_bytes", PeakRssBytes()},
  };
  if (st.tiers_solved + st.tiers_loaded + st.layers_loaded > 0) {
    j["tiers"] = {{"solved", st.tiers_solved},
                  {"loaded", st.tiers_loaded},
                  {"redone", st.tiers_redone},
                  {"layers_loaded", st.layers_loaded}};
    j["work_dir"] = {{"file_written", st.file_written},
                     {"payload_written", st.payload_written},
                     {"file_read", st.file_read},
                     {"payload_read", st.payload_read},
                     {"joined", st.joined}};
  }
  if (w.sections.values > 0) {
    j["section_bits_per_position"] = {
        {"values", 8.0 * w.sections.values / st.reachable},
        {"moves", 8.0 * w.sections.moves / st.reachable},
        {"remoteness", 8.0 * w.sections.remoteness / st.reachable}};
  }
  return j.dump() + "\n";
}

// SIGINT / SIGTERM: no half-written temporary file is left behind.
void OnSignal(int signal) {
  RemovePendingTempFile();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// The layout --layout and --remoteness ask for; nullopt for --layout=auto
// (then `remoteness` says whether --remoteness=no was given).
struct LayoutRequest {
  std::optional<TableLayout> layout;
  bool remoteness = true;
};

absl::StatusOr<LayoutRequest> LayoutFromFlags() {
  const std::string name = absl::GetFlag(FLAGS_layout);
  const std::optional<Layout> layout = LayoutNamed(name);
  if (name != "auto" && !layout.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--layout=", Printable(name),
                     ": expected auto, full, compact, compressed or book"));
  }
  const std::string remoteness = absl::GetFlag(FLAGS_remoteness);
  if (!remoteness.empty() && remoteness != "yes" && remoteness != "no") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--remoteness=", Printable(remoteness), ": expected yes or no"));
  }
  if (remoteness == "no" && layout == Layout::kFull) {
    return absl::InvalidArgumentError(
        "--remoteness=no with --layout=full: full tables always keep "
        "remoteness; use --layout=compressed (or leave --layout out)");
  }
  if (remoteness == "no" && layout == Layout::kBook) {
    return absl::InvalidArgumentError(
        "--remoteness=no with --layout=book: books always keep remoteness");
  }
  if (remoteness == "yes" && layout == Layout::kCompact) {
    return absl::InvalidArgumentError(
        "--remoteness=yes with --layout=compact: compact tables never "
        "keep remoteness; use --layout=compressed or full");
  }
  LayoutRequest request;
  request.remoteness = remoteness != "no";
  if (layout == Layout::kCompressed) {
    request.layout = TableLayout::Compressed(request.remoteness);
  } else if (layout.has_value()) {
    request.layout = TableLayout::Of(*layout);
  }
  return request;
}

// Every option but the layout, from the flags.
absl::StatusOr<SolveOptions> OptionsFromFlags(Cluster& cluster) {
  SolveOptions options;
  absl::StatusOr<int> threads = ThreadsFromFlag(kMaxThreads);
  if (!threads.ok()) return threads.status();
  options.threads = *threads;
  options.progress = !absl::GetFlag(FLAGS_quiet);
  options.max_bytes = DefaultMemoryLimit();
  if (const std::string m = absl::GetFlag(FLAGS_memory); !m.empty()) {
    absl::StatusOr<uint64_t> parsed = BytesFlag("memory", m);
    if (!parsed.ok()) return parsed.status();
    options.max_bytes = *parsed;
  }
  options.work_dir = WorkDirFromFlag();
  absl::StatusOr<TierFlags> tiers = TierFlagsFromFlags(options.work_dir);
  if (!tiers.ok()) return tiers.status();
  options.resume = tiers->resume;
  options.tier_indices = tiers->tier_indices;
  options.cluster = &cluster;
  return options;
}

// --layout=auto: a full table while it is small (a probe is one load, tens
// of nanoseconds), the compressed layout past that (10 to 30 times
// smaller) or without remoteness; then, if that solve does not fit in
// --memory, the compressed one, else the compact one, saying so.
TableLayout ChooseLayout(const Game& game, const LayoutRequest& request,
                         SolveOptions options, bool lead) {
  if (request.layout.has_value()) return *request.layout;
  const bool small =
      TableFileSize(PositionIndex(game).size()) <= kAutoFullBytes;
  options.layout = small && request.remoteness
                       ? TableLayout::Full()
                       : TableLayout::Compressed(request.remoteness);
  const uint64_t preferred = SolveBytes(game, options);
  if (preferred <= options.max_bytes) return options.layout;
  const TableLayout first = options.layout;
  options.layout = TableLayout::Compressed(request.remoteness);
  if (SolveBytes(game, options) > options.max_bytes) {
    options.layout = TableLayout::Compact();
  }
  if (lead && SolveBytes(game, options) <= options.max_bytes) {
    std::fprintf(stderr,
                 "%s: --layout=auto: a %s table needs %s to solve, more "
                 "than --memory=%s; writing a %s table instead\n",
                 ToolName().c_str(), first.name(), Bytes(preferred).c_str(),
                 Bytes(options.max_bytes).c_str(),
                 options.layout == TableLayout::Compact()
                     ? "compact (values only)"
                     : "compressed");
  }
  return options.layout;
}

// The message for a solve that needs more than --memory, with what would
// need less.
std::string MemoryMessage(const Game& game, const SolveOptions& options) {
  const uint64_t need = SolveBytes(game, options);
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

// The exit status and message of a solve that failed. The command line
// named a work dir that cannot be used that way (in use, another solve's,
// not a directory): exit 1. Anything else went wrong in the work dir
// itself: exit 5, with what would mend it.
int SolveFailed(const absl::Status& status, const std::string& work_dir) {
  if (absl::IsInvalidArgument(status) || absl::IsAlreadyExists(status) ||
      absl::IsFailedPrecondition(status)) {
    return Fail(kExitUsage, status);
  }
  std::string advice;
  if (absl::IsPermissionDenied(status)) {
    advice = absl::StrCat("; let this user read and write ", work_dir);
  }
  // --resume is advised only where a solve has started (it wrote its
  // manifest), nothing else is wrong with the work dir's files and what
  // it holds can still be resumed.
  struct stat manifest;
  if (!work_dir.empty() &&
      stat(absl::StrCat(work_dir, "/manifest").c_str(), &manifest) == 0 &&
      S_ISREG(manifest.st_mode) &&
      !absl::StrContains(status.message(), "expected only the regular files") &&
      !absl::StrContains(status.message(), "start the solve again")) {
    absl::StrAppend(&advice, advice.empty() ? "; " : ", then ",
                    "the tiers done are kept in ", work_dir,
                    ": run again with --resume");
  }
  return Fail(kExitWorkDir, absl::StrCat(status.message(), advice));
}

// The table's size (and sections) and, if `out` is given, the table
// written there.
absl::StatusOr<Written> WriteSolution(const Solution& s,
                                      const std::string& out) {
  Written w;
  w.table_bytes = s.kept->FileBytes();
  // Compressed sections come values, moves, remoteness: one of each kind a
  // layer.
  const std::vector<uint64_t> sizes = s.kept->SectionSizes();
  const size_t layers = s.game.cells() / 2 + 1;
  uint64_t* kinds[3] = {&w.sections.values, &w.sections.moves,
                        &w.sections.remoteness};
  for (size_t i = 0; i < sizes.size(); ++i) *kinds[i / layers] += sizes[i];
  if (!out.empty()) {
    if (absl::Status status =
            s.kept->Write(out, s.game.spec(), s.stats.reachable);
        !status.ok()) {
      return status;
    }
  }
  return w;
}

// --estimate: what the solve would take, printed by rank 0.
int PrintEstimate(const Game& game, const SolveOptions& options, bool lead) {
  if (!lead) return kExitOk;
  const SolveEstimate estimate = EstimateSolve(game, options);
  std::string report = EstimateReport(game, options, estimate);
  if (!estimate.reachable_bound && estimate.memory > options.max_bytes) {
    absl::StrAppend(&report, "refused as it is: ", MemoryMessage(game, options),
                    "\n");
  }
  if (std::fputs(report.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    return OutputFailed("the estimate");
  }
  return kExitOk;
}

// --plan=N: the solve shared by N processes, printed by rank 0.
int PrintPlan(const Game& game, const SolveOptions& options, bool lead) {
  const int processes = absl::GetFlag(FLAGS_plan);
  if (processes < 1 || processes > 65536) {
    return Fail(kExitUsage, absl::StrCat("--plan=", processes,
                                         ": expected a number of processes "
                                         "from 1 to 65536"));
  }
  if (options.work_dir.empty() || options.layout == TableLayout::Book()) {
    return Fail(kExitUsage,
                "--plan plans a solve in tiers: it needs --work-dir=DIR (and "
                "not --layout=book, which is solved in memory)");
  }
  absl::StatusOr<uint64_t> network =
      BytesFlag("network", absl::GetFlag(FLAGS_network));
  if (!network.ok()) return Fail(kExitUsage, network.status());
  if (!lead) return kExitOk;
  const SolvePlan plan =
      PlanSolve(game, options, processes, static_cast<double>(*network));
  const std::string report = PlanReport(game, options, plan);
  if (std::fputs(report.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    return OutputFailed("the plan");
  }
  return kExitOk;
}

int Main(Cluster& cluster) {
  const bool lead = cluster.rank() == 0;
  absl::StatusOr<Game> game = GameFromFlags(GameSpec());
  if (!game.ok()) return Fail(kExitUsage, game.status());
  if (absl::Status s = CheckSolvable(*game); !s.ok())
    return Fail(kExitUsage, s);
  absl::StatusOr<LayoutRequest> layout = LayoutFromFlags();
  if (!layout.ok()) return Fail(kExitUsage, layout.status());
  absl::StatusOr<SolveOptions> options = OptionsFromFlags(cluster);
  if (!options.ok()) return Fail(kExitUsage, options.status());
  // A table that cannot be written is found out before the solve, not after.
  const std::string out = UserPath(absl::GetFlag(FLAGS_out));
  if (!out.empty() && lead) {
    if (absl::Status s = CheckTableTarget(out); !s.ok()) {
      return Fail(kExitTable, s);
    }
  }
  options->layout = ChooseLayout(*game, *layout, *options, lead);
  if (absl::GetFlag(FLAGS_estimate)) {
    return PrintEstimate(*game, *options, lead);
  }
  if (absl::GetFlag(FLAGS_plan) != 0) return PrintPlan(*game, *options, lead);
  const bool sparse = options->layout == TableLayout::Book();
  if (sparse && (!options->work_dir.empty() || cluster.size() > 1)) {
    return Fail(kExitUsage,
                "--layout=book is solved in memory by one process: it takes "
                "no --work-dir and no MPI ranks");
  }
  if (!sparse && SolveBytes(*game, *options) > options->max_bytes) {
    return Fail(kExitMemory, MemoryMessage(*game, *options));
  }
  absl::StatusOr<Solution> solution =
      sparse ? SolveSparse(*game, *options) : Solve(*game, *options);
  if (sparse && absl::IsResourceExhausted(solution.status())) {
    return Fail(kExitMemory, solution.status());
  }
  if (!solution.ok()) return SolveFailed(solution.status(), options->work_dir);
  if (cluster.size() > 1 && !absl::GetFlag(FLAGS_quiet)) {
    ReportProcess(solution->stats);
  }
  if (!lead) return kExitOk;  // rank 0 of an MPI solve writes and reports
  absl::StatusOr<Written> written = WriteSolution(*solution, out);
  if (!written.ok()) return Fail(kExitTable, written.status());
  const std::string report = absl::GetFlag(FLAGS_json)
                                 ? Json(*solution, *written)
                                 : Summary(*solution, *written, out);
  if (std::fputs(report.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    return OutputFailed("the summary");
  }
  return kExitOk;
}

}  // namespace

int RunSolve(int argc, char** argv, Cluster& cluster) {
  const std::string name =
      cluster.size() > 1 ? absl::StrCat("solve (rank ", cluster.rank(), ")")
                         : "solve";
  if (std::optional<int> done = StartTool(
          name,
          "solves an m,n,k game completely and writes its table (the game:\n"
          "tic-tac-toe, 3,3,3, unless the game flags say otherwise).\n"
          "  solve --width=M --height=N --k=K [--gravity] [--misere] "
          "[--out=FILE]\n"
          "        [--layout=auto|full|compact|compressed|book] "
          "[--remoteness=yes|no]\n"
          "        [--json] [--quiet] [--threads=T] [--memory=BYTES]\n"
          "        [--work-dir=DIR [--resume]] [--estimate]\n"
          "        [--plan=PROCESSES [--network=BYTES]]",
          argc, argv)) {
    return *done;
  }
  // Write errors are reported, not signals: a file-size limit is one.
  std::signal(SIGXFSZ, SIG_IGN);
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  return RunGuarded(
      [&] { return Main(cluster); },
      [] {
        const std::string dir = WorkDirFromFlag();
        return dir.empty() ? std::string()
                           : absl::StrCat("; the tiers done are kept in ", dir,
                                          ": run again with --resume");
      });
}

}  // namespace mnk
