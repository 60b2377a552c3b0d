#include "solver/solve_command.h"

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/numeric/bits.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "solver/cli/cli.h"
#include "solver/game/game.h"
#include "solver/retrograde/solver.h"
#include "table/table.h"

ABSL_FLAG(int, width, 3, "board width m (columns)");
ABSL_FLAG(int, height, 3, "board height n (rows)");
ABSL_FLAG(int, k, 3, "stones in a row that win");
ABSL_FLAG(bool, gravity, false, "stones drop to the lowest empty cell");
ABSL_FLAG(bool, misere, false, "misère: whoever completes k in a row loses");
ABSL_FLAG(std::string, out, "", "write the table to this file");
ABSL_FLAG(bool, json, false, "print the summary as one JSON object");
ABSL_FLAG(bool, quiet, false, "no progress line on standard error");
ABSL_FLAG(int, threads, 0, "worker threads (0: one per core)");
ABSL_FLAG(std::string, layout, "auto",
          "full, compact, compressed or auto: auto is full up to 64 MiB, "
          "else compressed (docs/tables.md)");
ABSL_FLAG(std::string, memory, "",
          "the most memory the solve may use, e.g. 12G (K, M, G, T: powers "
          "of 1024; default 3/4 of this machine's)");
ABSL_FLAG(std::string, work_dir, "",
          "keep each solved tier in this folder (created if missing), for "
          "--resume");
ABSL_FLAG(bool, resume, false,
          "continue the solve kept in --work-dir, with the same game and "
          "options");
ABSL_FLAG(std::string, tier_indices, "1048576",
          "indices a tier of the work dir holds, a power of two (never "
          "changes the table)");
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

std::string Summary(const Solution& s, uint64_t table_bytes,
                    const std::string& out, const char* layout) {
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
      &text,
      "table       %s layout, %d bytes, %.2f bits per reachable position%s\n",
      layout, table_bytes, 8.0 * table_bytes / st.reachable,
      out.empty()
          ? ""
          : absl::StrCat(", written to ", Printable(AbsolutePath(out))));
  absl::StrAppendFormat(&text, "time        %.6f s\n", st.seconds);
  return text;
}

std::string Json(const Solution& s, uint64_t table_bytes, const char* layout,
                 const SectionBytes& sections) {
  const SolveStats& st = s.stats;
  const GameSpec& spec = s.game.spec();
  nlohmann::ordered_json j = {
      {"game",
       {{"width", spec.width},
        {"height", spec.height},
        {"k", spec.k},
        {"gravity", spec.gravity},
        {"misere", spec.misere}}},
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
      {"layout", layout},
      {"table_bytes", table_bytes},
      {"bits_per_position", 8.0 * table_bytes / st.reachable},
      {"seconds", st.seconds},
  };
  if (st.tiers_solved + st.tiers_loaded > 0) {
    j["tiers"] = {{"solved", st.tiers_solved},
                  {"loaded", st.tiers_loaded},
                  {"redone", st.tiers_redone}};
  }
  if (sections.values > 0) {
    j["section_bits_per_position"] = {
        {"values", 8.0 * sections.values / st.reachable},
        {"moves", 8.0 * sections.moves / st.reachable},
        {"remoteness", 8.0 * sections.remoteness / st.reachable}};
  }
  return j.dump() + "\n";
}

constexpr int kUsage = 1, kBadOut = 3, kMemory = 4, kWorkDir = 5, kOutput = 6;
constexpr int kMaxThreads = 256;

// The process's name in messages: "solve", or "solve (rank 2)" under MPI.
std::string program_name = "solve";

int Fail(int code, absl::string_view message) {
  std::fprintf(stderr, "%s: %.*s\n", program_name.c_str(),
               static_cast<int>(message.size()), message.data());
  return code;
}

// "640 KiB", "1.50 MiB", "12.00 GiB": a memory size in messages.
std::string Bytes(uint64_t n) {
  if (n < (uint64_t{1} << 20)) {
    return absl::StrFormat("%.0f KiB", std::ceil(n / 1024.0));
  }
  if (n < (uint64_t{1} << 30)) {
    return absl::StrFormat("%.2f MiB", n / 1048576.0);
  }
  return absl::StrFormat("%.2f GiB", n / 1073741824.0);
}

// "12G" -> 12 << 30; plain digits are bytes.
absl::StatusOr<uint64_t> ParseBytes(absl::string_view text) {
  uint64_t shift = 0;
  absl::string_view digits = text;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      case 'T':
      case 't':
        shift = 40;
        break;
      default:
        break;
    }
    if (shift > 0) digits.remove_suffix(1);
  }
  uint64_t n = 0;
  if (digits.empty() || !absl::SimpleAtoi(digits, &n) || digits[0] == '-' ||
      digits[0] == '+' || n == 0 || n > (~uint64_t{0} >> shift)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--memory=", Printable(std::string(text)),
        ": expected a positive number of bytes, optionally with K, M, G or T "
        "(e.g. 12G)"));
  }
  return n << shift;
}

// SIGINT / SIGTERM: no half-written temporary file is left behind.
void OnSignal(int signal) {
  RemovePendingTempFile();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

int Main(Cluster& cluster) {
  const bool lead = cluster.rank() == 0;
  const GameSpec spec{absl::GetFlag(FLAGS_width), absl::GetFlag(FLAGS_height),
                      absl::GetFlag(FLAGS_k), absl::GetFlag(FLAGS_gravity),
                      absl::GetFlag(FLAGS_misere)};
  absl::StatusOr<Game> game = Game::Create(spec);
  if (!game.ok()) return Fail(kUsage, game.status().message());
  const std::string layout = absl::GetFlag(FLAGS_layout);
  if (layout != "auto" && layout != "full" && layout != "compact" &&
      layout != "compressed") {
    return Fail(kUsage,
                absl::StrCat("--layout=", Printable(layout),
                             ": expected auto, full, compact or compressed"));
  }
  const std::string remoteness = absl::GetFlag(FLAGS_remoteness);
  if (!remoteness.empty() && remoteness != "yes" && remoteness != "no") {
    return Fail(kUsage, absl::StrCat("--remoteness=", Printable(remoteness),
                                     ": expected yes or no"));
  }
  if (remoteness == "no" && layout == "full") {
    return Fail(kUsage,
                "--remoteness=no with --layout=full: full tables always keep "
                "remoteness; use --layout=compressed (or leave --layout out)");
  }
  if (remoteness == "yes" && layout == "compact") {
    return Fail(kUsage,
                "--remoteness=yes with --layout=compact: compact tables never "
                "keep remoteness; use --layout=compressed or full");
  }
  // auto: a full table while it is small (a probe is one load, tens of
  // nanoseconds), the compressed layout past that (10 to 30 times smaller);
  // without remoteness, always compressed (a full table keeps it).
  bool compressed =
      layout == "compressed" ||
      (layout == "auto" &&
       (remoteness == "no" ||
        TableFileSize(PositionIndex(*game).size()) > kAutoFullBytes));
  const bool keep_remoteness = remoteness != "no";
  const int threads = absl::GetFlag(FLAGS_threads);
  if (threads < 0 || threads > kMaxThreads) {
    return Fail(kUsage,
                absl::StrCat("--threads=", threads,
                             ": expected 0 (one per core) to ", kMaxThreads));
  }
  const std::string out = UserPath(absl::GetFlag(FLAGS_out));
  uint64_t memory = DefaultMemoryLimit();
  if (const std::string m = absl::GetFlag(FLAGS_memory); !m.empty()) {
    absl::StatusOr<uint64_t> parsed = ParseBytes(m);
    if (!parsed.ok()) return Fail(kUsage, parsed.status().message());
    memory = *parsed;
  }
  const std::string work_dir = UserPath(absl::GetFlag(FLAGS_work_dir));
  const bool resume = absl::GetFlag(FLAGS_resume);
  if (resume && work_dir.empty()) {
    return Fail(kUsage, "--resume needs the --work-dir of the solve to resume");
  }
  const std::string tier_flag = absl::GetFlag(FLAGS_tier_indices);
  uint64_t tier_indices = 0;
  if (!absl::SimpleAtoi(tier_flag, &tier_indices) || tier_flag[0] == '+' ||
      !absl::has_single_bit(tier_indices)) {
    return Fail(kUsage,
                absl::StrCat("--tier-indices=", Printable(tier_flag),
                             ": expected a power of two, e.g. 1048576"));
  }
  // A table that cannot be written is found out before the solve, not after.
  if (!out.empty() && lead) {
    if (absl::Status s = CheckTableTarget(out); !s.ok()) {
      return Fail(kBadOut, s.message());
    }
  }
  SolveOptions options;
  options.compact = layout == "compact";
  options.compressed = compressed;
  options.remoteness = keep_remoteness;
  options.threads =
      threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  options.progress = !absl::GetFlag(FLAGS_quiet);
  options.max_bytes = memory;
  options.work_dir = work_dir;
  options.resume = resume;
  options.tier_indices = tier_indices;
  options.cluster = &cluster;
  // auto: the layout it prefers if that solve fits in --memory, else the
  // compressed one, else the compact one; saying so when it steps down.
  if (layout == "auto" && SolveBytes(*game, options) > memory) {
    const uint64_t preferred = SolveBytes(*game, options);
    const char* preferred_name = options.compressed ? "compressed" : "full";
    options.compressed = true;
    if (SolveBytes(*game, options) > memory) {
      options.compressed = false;
      options.compact = true;
    }
    if (lead && SolveBytes(*game, options) <= memory) {
      std::fprintf(stderr,
                   "%s: --layout=auto: a %s table needs %s to solve, more "
                   "than --memory=%s; writing a %s table instead\n",
                   program_name.c_str(), preferred_name,
                   Bytes(preferred).c_str(), Bytes(memory).c_str(),
                   options.compact ? "compact (values only)" : "compressed");
    }
  }
  if (const uint64_t need = SolveBytes(*game, options); need > memory) {
    // Only what would fit, or at least need less, is suggested.
    std::string hint;
    if (work_dir.empty()) {
      SolveOptions in_tiers = options;
      in_tiers.work_dir = "DIR";
      if (const uint64_t tiers = SolveBytes(*game, in_tiers); tiers < need) {
        absl::StrAppend(&hint, "; with --work-dir=DIR it needs ", Bytes(tiers));
      }
    }
    if (!options.compact) {
      SolveOptions compact = options;
      compact.compact = true;
      compact.compressed = false;
      if (const uint64_t less = SolveBytes(*game, compact); less < need) {
        absl::StrAppend(&hint, "; --layout=compact needs ", Bytes(less));
      }
    }
    return Fail(kMemory, absl::StrCat("solving ", spec.Name(), " needs ",
                                      Bytes(need), "; the limit is ",
                                      Bytes(memory), " (--memory)", hint));
  }
  absl::StatusOr<Solution> solution = Solve(*game, options);
  if (!solution.ok()) {
    // The command line named a work dir that cannot be used that way (in
    // use, another solve's, not a directory): exit 1. Anything else went
    // wrong in the work dir itself: exit 5, with what would mend it.
    const absl::StatusCode code = solution.status().code();
    if (code == absl::StatusCode::kInvalidArgument ||
        code == absl::StatusCode::kAlreadyExists ||
        code == absl::StatusCode::kFailedPrecondition) {
      return Fail(kUsage, solution.status().message());
    }
    const absl::string_view why = solution.status().message();
    std::string advice;
    if (code == absl::StatusCode::kPermissionDenied) {
      advice = absl::StrCat("; let this user read and write ", work_dir);
    }
    // --resume is advised only where a solve has started (it wrote its
    // manifest) and nothing else is wrong with the work dir's files.
    struct stat manifest;
    if (!work_dir.empty() &&
        stat(absl::StrCat(work_dir, "/manifest").c_str(), &manifest) == 0 &&
        S_ISREG(manifest.st_mode) &&
        !absl::StrContains(why, "expected only the regular files")) {
      absl::StrAppend(&advice, advice.empty() ? "; " : ", then ",
                      "the tiers done are kept in ", work_dir,
                      ": run again with --resume");
    }
    return Fail(kWorkDir, absl::StrCat(why, advice));
  }
  // Other processes of an MPI solve: rank 0 writes and reports.
  if (!lead) return 0;
  const bool compact = options.compact;
  compressed = options.compressed;
  const char* layout_name = compact      ? "compact"
                            : compressed ? "compressed"
                                         : "full";
  uint64_t bytes = compact ? CompactTableFileSize(solution->index)
                           : TableFileSize(solution->index.size());
  SectionBytes sections;
  if (compressed) {
    // Sections come values, moves, remoteness: one of each kind a layer.
    const size_t layers = game->cells() / 2 + 1;
    uint64_t* kinds[3] = {&sections.values, &sections.moves,
                          &sections.remoteness};
    for (size_t i = 0; i < solution->sections.size(); ++i) {
      *kinds[i / layers] += solution->sections[i].size();
    }
    bytes = CompressedTableFileSize(solution->sections);
  }
  if (!out.empty()) {
    const absl::Status written =
        compact ? WriteCompactTable(out, spec, solution->compact,
                                    solution->stats.reachable)
        : compressed
            ? WriteCompressedTable(out, spec, solution->sections,
                                   solution->stats.reachable, keep_remoteness)
            : WriteTable(out, spec, solution->records.view(),
                         solution->stats.reachable);
    if (!written.ok()) return Fail(kBadOut, written.message());
  }
  const std::string report = absl::GetFlag(FLAGS_json)
                                 ? Json(*solution, bytes, layout_name, sections)
                                 : Summary(*solution, bytes, out, layout_name);
  if (std::fputs(report.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    return Fail(kOutput, absl::StrCat("cannot write the summary to standard "
                                      "output: ",
                                      std::strerror(errno)));
  }
  return 0;
}

}  // namespace

int RunSolve(int argc, char** argv, Cluster& cluster) {
  if (cluster.size() > 1) {
    program_name = absl::StrCat("solve (rank ", cluster.rank(), ")");
  }
  absl::SetProgramUsageMessage(
      "solves an m,n,k game completely and writes its table.\n"
      "  solve --width=M --height=N --k=K [--gravity] [--misere] "
      "[--out=FILE]\n"
      "        [--layout=auto|full|compact|compressed] [--remoteness=yes|no]\n"
      "        [--json] [--quiet] [--threads=T] [--memory=BYTES]\n"
      "        [--work-dir=DIR [--resume]]");
  if (HelpAsked(argc, argv)) return PrintHelp(program_name);
  // Flag names take '-' for '_' (--work-dir is --work_dir).
  std::vector<std::string> normalized(argv, argv + argc);
  std::vector<char*> args;
  for (std::string& arg : normalized) {
    if (absl::StartsWith(arg, "--")) {
      const size_t end = std::min(arg.find('='), arg.size());
      std::replace(arg.begin() + 2, arg.begin() + end, '-', '_');
    }
    args.push_back(arg.data());
  }
  const std::vector<char*> rest =
      absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  if (rest.size() > 1) {
    return Fail(kUsage, absl::StrCat("unexpected argument '",
                                     Printable(rest[1]), "'; see --help"));
  }
  // Write errors are reported, not signals: a closed pipe is EPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  try {
    return Main(cluster);
  } catch (const std::bad_alloc&) {
    const std::string dir = UserPath(absl::GetFlag(FLAGS_work_dir));
    return Fail(kMemory, dir.empty()
                             ? "out of memory"
                             : absl::StrCat("out of memory; the tiers done are "
                                            "kept in ",
                                            dir, ": run again with --resume"));
  } catch (const std::system_error& e) {
    return Fail(kMemory, absl::StrCat("cannot start threads: ", e.what()));
  }
}

}  // namespace mnk
