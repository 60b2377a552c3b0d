// verify: re-checks a table file completely: its checksum and header (by
// loading it), then every record against its children's records.
//
//   bazel run //table:verify -- --table=/tmp/4x4k4.mnk
//
// Exit status: 0 every record checks out; 1 bad command line; 3 the table is
// missing, unreadable, not a regular file or corrupt (checksum, size,
// header); 4 not enough memory; 5 records disagree with their children or
// the rules; 6 standard output could not be written.
#include <cerrno>
#include <chrono>
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
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "solver/cli/cli.h"
#include "solver/parallel/parallel.h"
#include "table/table.h"
#include "table/verify.h"

ABSL_FLAG(std::string, table, "", "the table file to check");
ABSL_FLAG(int, threads, 0, "worker threads (0: one per core)");
ABSL_FLAG(bool, quiet, false, "no progress line on standard error");

namespace {

constexpr int kUsage = 1, kBadTable = 3, kMemory = 4, kDisagree = 5,
              kOutput = 6;
constexpr int kMaxThreads = 256;

int Fail(int code, absl::string_view message) {
  std::fprintf(stderr, "verify: %.*s\n", static_cast<int>(message.size()),
               message.data());
  return code;
}

// The report so far reached standard output, or a message and exit 6.
bool Flushed() { return std::fflush(stdout) == 0 && !std::ferror(stdout); }
int OutputFailed() {
  return Fail(kOutput, absl::StrCat("cannot write the report to standard "
                                    "output: ",
                                    std::strerror(errno)));
}

int Main(const std::string& path, int threads) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<mnk::Table> table = mnk::Table::Load(path);
  if (!table.ok()) {
    return Fail(table.status().code() == absl::StatusCode::kResourceExhausted
                    ? kMemory
                    : kBadTable,
                table.status().message());
  }
  std::printf("table       %s: %s, %llu bytes, format version %u\n",
              mnk::Printable(path).c_str(), table->game().spec().Name().c_str(),
              static_cast<unsigned long long>(table->file_bytes()),
              mnk::kTableVersion);
  // Load checks big tables page by page as they are read: here, all.
  if (absl::Status s = table->CheckAll(); !s.ok()) {
    return Fail(kBadTable, s.message());
  }
  std::printf(
      "checksum    CRC-32 of the file and of each of its pages match; "
      "header, size and sections agree\n");
  if (!Flushed()) return OutputFailed();
  mnk::VerifyReport report;
  {
    mnk::Progress progress(!absl::GetFlag(FLAGS_quiet),
                           "verify " + table->game().spec().Name(),
                           table->index().size(), "entries");
    progress.SetPhase("checking");
    report = mnk::VerifyRecords(*table, threads,
                                [&](uint64_t n) { progress.Add(n); });
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // A compressed table stores no finished game: the rules decide those
  // while their parents are checked.
  const std::string terminal =
      table->layout() == mnk::Layout::kCompressed
          ? std::string(
                "terminal positions are not stored: the rules decide "
                "them")
          : absl::StrCat(report.terminal,
                         " terminal, checked against the "
                         "rules");
  std::printf(
      "records     %llu entries, %llu reachable (header: %llu), %llu stored "
      "records checked against their children (%s)\n",
      static_cast<unsigned long long>(report.indices),
      static_cast<unsigned long long>(report.reachable),
      static_cast<unsigned long long>(table->reachable()),
      static_cast<unsigned long long>(report.checked), terminal.c_str());
  for (const std::string& e : report.first_errors) {
    std::printf("error       %s\n", e.c_str());
  }
  const bool count_ok = report.reachable == table->reachable();
  if (!count_ok) {
    std::printf("error       the header's reachable count differs\n");
  }
  std::printf("result      %s, %llu errors, %.2f s\n",
              report.errors == 0 && count_ok ? "ok" : "FAILED",
              static_cast<unsigned long long>(report.errors + !count_ok),
              seconds);
  if (!Flushed()) return OutputFailed();
  return report.errors == 0 && count_ok ? 0 : kDisagree;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "re-checks a table file, every record against its children.\n"
      "  verify --table=FILE [--threads=T] [--quiet]");
  if (mnk::HelpAsked(argc, argv)) return mnk::PrintHelp("verify");
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  const std::string path = mnk::UserPath(absl::GetFlag(FLAGS_table));
  if (rest.size() > 1 || path.empty()) {
    return Fail(kUsage, "expected --table=FILE and nothing else");
  }
  const int threads = absl::GetFlag(FLAGS_threads);
  if (threads < 0 || threads > kMaxThreads) {
    return Fail(kUsage,
                absl::StrCat("--threads=", threads,
                             ": expected 0 (one per core) to ", kMaxThreads));
  }
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error
  mnk::ExitOnTruncatedTable("verify", kBadTable);
  try {
    return Main(path, threads > 0
                          ? threads
                          : std::max(1u, std::thread::hardware_concurrency()));
  } catch (const std::bad_alloc&) {
    return Fail(kMemory, "out of memory");
  } catch (const std::system_error& e) {
    return Fail(kMemory, absl::StrCat("cannot start threads: ", e.what()));
  }
}
