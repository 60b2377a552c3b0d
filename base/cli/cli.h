// What the project's command-line tools (solve, solve_mpi, play, verify,
// serve) share: their exit codes, messages and command line (paths taken
// where the user typed them, a --help that lists the tool's own flags,
// --threads and --memory), and the guard that turns running out of memory
// into a message.
//
//   int main(int argc, char** argv) {
//     if (std::optional<int> done = mnk::StartTool(
//             "play", "plays ...: play [--table=FILE] ...", argc, argv)) {
//       return *done;  // --help, or a bad command line
//     }
//     return mnk::RunGuarded([] { return Main(); });
//   }
//   int Main() {
//     const std::string table = mnk::UserPath(absl::GetFlag(FLAGS_table));
//     absl::StatusOr<mnk::Table> t = mnk::Table::Load(table);
//     if (!t.ok()) return mnk::Fail(mnk::TableExit(t.status()), t.status());
//     ...
//   }
#ifndef MNK_BASE_CLI_CLI_H_
#define MNK_BASE_CLI_CLI_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mnk {

// Every tool's exit status, as docs/reference.md lists them. Status 5 is
// each tool's own failure.
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,        // a bad command line
  kExitBadPosition = 2,  // play: --position is not a valid position
  kExitTable = 3,        // a table missing, unreadable, corrupt, changed
                         // (solve: the table cannot be written)
  kExitMemory = 4,       // not enough memory
  kExitWorkDir = 5,      // solve: the work dir cannot be written or read
  kExitDisagree = 5,     // verify: records disagree with their children
  kExitListen = 5,       // serve: cannot listen on the address and port
  kExitOutput = 6,       // standard output could not be written
  kExitScratch = 7,      // verify: its work dir cannot be written or read
};

// Names the tool in messages: "play", "solve (rank 2)". StartTool sets it.
void SetToolName(absl::string_view name);
const std::string& ToolName();

// Prints "TOOL: message" on standard error and returns `code`, for
// `return Fail(kExitUsage, "...")` in a tool's Main.
int Fail(int code, absl::string_view message);
inline int Fail(int code, const absl::Status& status) {
  return Fail(code, status.message());
}
// Fail(kExitOutput, ...) after a write to standard output failed: "cannot
// write WHAT to standard output: " and errno's text.
int OutputFailed(absl::string_view what = "");

// The exit status of a table that could not be loaded or written:
// kExitMemory when it did not fit in memory, else kExitTable.
int TableExit(const absl::Status& status);

// The --threads flag: 0 is one per core; kInvalidArgument past
// kMaxThreads.
inline constexpr int kMaxThreads = 256;
absl::StatusOr<int> ThreadsFlag(int threads);

// A --memory style byte count: "12G" is 12 << 30 (K, M, G, T: powers of
// 1024); plain digits are bytes. kInvalidArgument naming `flag` otherwise.
absl::StatusOr<uint64_t> BytesFlag(absl::string_view flag,
                                   absl::string_view text);
// "640 KiB", "1.50 MiB", "12.00 GiB", "1.43 TiB": a size in messages.
std::string Bytes(uint64_t n);

// The start of every tool's main(): names the tool, sets its usage message,
// prints --help, parses the flags (a '-' in a flag's name may be written
// '_' and the other way round: --work-dir is --work_dir), refuses an
// unknown flag (naming the closest known one: "did you mean --width?"), a
// flag given an empty value ("--work-dir=": never taken as not given; a
// flag of type std::optional<std::string> excepted, whose empty value the
// tool judges) and positional arguments, ignores SIGPIPE (a closed pipe is
// a write error) and has the tool's threads share one malloc arena
// (base/parallel/malloc_arena.h). Returns the exit status when the
// tool is done already (--help: 0; a bad command line: 1), nullopt to go on.
std::optional<int> StartTool(absl::string_view name, absl::string_view usage,
                             int argc, char** argv);

// Whether the command line named the flag (StartTool records them): a bool
// flag cannot say whether it was given ("--gravity", "--nogravity",
// "--gravity=false" are all given), nor an empty optional one. `name` as
// defined, with '_'.
bool FlagGiven(absl::string_view name);

// Runs a tool's Main: running out of memory (std::bad_alloc) and threads
// that cannot start (std::system_error) end it with a message and
// kExitMemory instead of an abort. `hint` is added to the out-of-memory
// message.
int RunGuarded(const std::function<int()>& main,
               const std::function<std::string()>& hint = nullptr);

// A path the user gave, as the program must open it: a relative path is
// taken from the folder the user ran the command in. Under `bazel run` the
// program runs elsewhere (its runfiles), and Bazel names the user's folder
// in BUILD_WORKING_DIRECTORY; otherwise the path is returned as it is.
// An empty path stays empty.
std::string UserPath(absl::string_view path);

// The absolute form of a path for messages ("written to /home/me/t.mnk"):
// relative paths are joined to the current folder.
std::string AbsolutePath(absl::string_view path);

// True when the command line asks for help: --help, -help, -h or --helpfull
// (before a lone "--").
bool HelpAsked(int argc, char** argv);

// Prints the program's usage message, then each flag defined in the
// project's own files (not Abseil's), sorted, one per line with its help
// text and, unless the help text already says it, its default. Returns 0,
// the exit status for `--help`.
int PrintHelp(absl::string_view program);

}  // namespace mnk

#endif  // MNK_BASE_CLI_CLI_H_
