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
#include "solver/solve_estimate.h"
#include "solver/solve_job.h"
#include "solver/solve_plan.h"
#include "store/tier_flags.h"
#include "store/work_dir.h"
#include "store/write.h"
#include "table/file_io.h"
#include "table/layout.h"

ABSL_FLAG(std::string, out, "", "write the table to this file");
ABSL_FLAG(std::string, frontier, "",
          "with --layout=book: a book of every position of one layer (book "
          "--every_position), from which the layers before it are backed up; "
          "the table holds every position up to that layer");
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

std::string Summary(const Solved& solved, const std::string& out) {
  const Solution& s = solved.solution;
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
      LayoutText(s.layout), solved.table_bytes,
      8.0 * solved.table_bytes / st.reachable,
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

std::string Json(const Solved& solved) {
  const Solution& s = solved.solution;
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
      {"table_bytes", solved.table_bytes},
      {"bits_per_position", 8.0 * solved.table_bytes / st.reachable},
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
  if (solved.value_bytes > 0) {
    j["section_bits_per_position"] = {
        {"values", 8.0 * solved.value_bytes / st.reachable},
        {"moves", 8.0 * solved.move_bytes / st.reachable},
        {"remoteness", 8.0 * solved.remoteness_bytes / st.reachable}};
  }
  return j.dump() + "\n";
}

// SIGINT / SIGTERM: no half-written temporary file is left behind.
void OnSignal(int signal) {
  RemovePendingTempFile();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// --layout and --remoteness, parsed (their combination is the job's to
// check).
absl::Status LayoutFromFlags(SolveRequest& request) {
  if (absl::Status s = SetLayout(request, absl::GetFlag(FLAGS_layout));
      !s.ok()) {
    return s;
  }
  const std::string remoteness = absl::GetFlag(FLAGS_remoteness);
  if (!remoteness.empty() && remoteness != "yes" && remoteness != "no") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--remoteness=", Printable(remoteness), ": expected yes or no"));
  }
  if (!remoteness.empty()) request.remoteness = remoteness == "yes";
  return absl::OkStatus();
}

// The request the flags make.
absl::StatusOr<SolveRequest> RequestFromFlags(Cluster& cluster) {
  SolveRequest request;
  absl::StatusOr<Game> game = GameFromFlags(GameSpec());
  if (!game.ok()) return game.status();
  request.game = game->spec();
  if (absl::Status s = LayoutFromFlags(request); !s.ok()) return s;
  absl::StatusOr<int> threads = ThreadsFromFlag(kMaxThreads);
  if (!threads.ok()) return threads.status();
  request.threads = *threads;
  request.progress = !absl::GetFlag(FLAGS_quiet);
  if (const std::string m = absl::GetFlag(FLAGS_memory); !m.empty()) {
    absl::StatusOr<uint64_t> parsed = BytesFlag("memory", m);
    if (!parsed.ok()) return parsed.status();
    request.memory = *parsed;
  }
  request.work_dir = WorkDirFromFlag();
  absl::StatusOr<TierFlags> tiers = TierFlagsFromFlags(request.work_dir);
  if (!tiers.ok()) return tiers.status();
  request.resume = tiers->resume;
  request.tier_indices = tiers->tier_indices;
  request.cluster = &cluster;
  request.plan_processes = absl::GetFlag(FLAGS_plan);
  if (request.plan_processes != 0) {
    absl::StatusOr<uint64_t> network =
        BytesFlag("network", absl::GetFlag(FLAGS_network));
    if (!network.ok()) return network.status();
    request.network = static_cast<double>(*network);
  }
  request.out = UserPath(absl::GetFlag(FLAGS_out));
  request.frontier = UserPath(absl::GetFlag(FLAGS_frontier));
  return request;
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

// The exit status of a RunSolveJob that failed, by the step it failed at.
int RunFailed(const absl::Status& status, const SolveJob& job) {
  switch (SolveFailureOf(status)) {
    case SolveFailure::kTable:
      return Fail(kExitTable, status);
    case SolveFailure::kMemory:
      return Fail(kExitMemory, status);
    default:
      return SolveFailed(status, job.options.work_dir);
  }
}

// Standard output, checked: exit 6 when it cannot be written.
int Print(const std::string& text, const char* what) {
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    return OutputFailed(what);
  }
  return kExitOk;
}

// --estimate: what the solve would take.
std::string EstimateText(const SolveJob& job) {
  std::string report = EstimateReport(job.game, job.options, job.estimate);
  if (!job.refusal.empty()) {
    absl::StrAppend(&report, "refused as it is: ", job.refusal, "\n");
  }
  return report;
}

int Main(Cluster& cluster) {
  const bool lead = cluster.rank() == 0;
  absl::StatusOr<SolveRequest> request = RequestFromFlags(cluster);
  if (!request.ok()) return Fail(kExitUsage, request.status());
  absl::StatusOr<SolveJob> job = PlanSolveJob(*request);
  if (!job.ok()) return Fail(kExitUsage, job.status());
  if (lead && !job->layout_note.empty()) {
    std::fprintf(stderr, "%s: %s\n", ToolName().c_str(),
                 job->layout_note.c_str());
  }
  if (absl::GetFlag(FLAGS_estimate)) {
    return lead ? Print(EstimateText(*job), "the estimate") : kExitOk;
  }
  if (job->plan.has_value()) {
    return lead ? Print(PlanReport(job->game, job->options, *job->plan),
                        "the plan")
                : kExitOk;
  }
  absl::StatusOr<Solved> solved = RunSolveJob(*job);
  if (!solved.ok()) return RunFailed(solved.status(), *job);
  if (cluster.size() > 1 && !absl::GetFlag(FLAGS_quiet)) {
    ReportProcess(solved->solution.stats);
  }
  if (!lead) return kExitOk;  // rank 0 of an MPI solve writes and reports
  return Print(
      absl::GetFlag(FLAGS_json) ? Json(*solved) : Summary(*solved, job->out),
      "the summary");
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
          "        [--layout=auto|full|compact|compressed|book "
          "[--frontier=BOOK]] [--remoteness=yes|no]\n"
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
