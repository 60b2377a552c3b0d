// What the project's command-line tools (solve, solve_mpi, play, verify,
// serve) share about their command line: paths taken where the user typed
// them, and a --help that lists the tool's own flags.
//
//   int main(int argc, char** argv) {
//     absl::SetProgramUsageMessage("plays ...: play [--table=FILE] ...");
//     if (mnk::HelpAsked(argc, argv)) return mnk::PrintHelp("play");
//     absl::ParseCommandLine(argc, argv);
//     const std::string table = mnk::UserPath(absl::GetFlag(FLAGS_table));
//   }
#ifndef MNK_SOLVER_CLI_CLI_H_
#define MNK_SOLVER_CLI_CLI_H_

#include <string>

#include "absl/strings/string_view.h"

namespace mnk {

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

#endif  // MNK_SOLVER_CLI_CLI_H_
