// sample: random reachable positions of a table's game with the table's
// answers (value, remoteness, best move), a line each: the samples of the
// big tables in data/samples/, which anyone can check against another
// solver.
//
//   bazel run //player:sample -- --table=/big/6x4k4.mnk >
//   data/samples/6x4k4.txt
//
// Exit status: 0 written; 1 bad command line; 3 the table is missing,
// unreadable or corrupt; 6 standard output could not be written.
#include <cstdio>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "base/cli/cli.h"
#include "player/sample.h"
#include "table/table.h"

ABSL_FLAG(std::string, table, "", "the table file to draw the answers from");
ABSL_FLAG(int, count, 10000, "positions to draw (1 to 1000000)");
ABSL_FLAG(uint64_t, seed, 1, "random seed: the same seed, the same positions");

namespace mnk {
namespace {

int Main() {
  const std::string path = UserPath(absl::GetFlag(FLAGS_table));
  if (path.empty()) return Fail(kExitUsage, "expected --table=FILE");
  const int count = absl::GetFlag(FLAGS_count);
  if (count < 1 || count > 1000000) {
    return Fail(kExitUsage,
                absl::StrCat("--count=", count, ": expected 1 to 1000000"));
  }
  absl::StatusOr<Table> table = Table::Load(path);
  if (!table.ok()) return Fail(TableExit(table.status()), table.status());
  if (table->layout() == Layout::kBook) {
    return Fail(kExitUsage, absl::StrCat(path,
                                         " is an opening book: it answers "
                                         "only the positions of its plies"));
  }
  absl::StatusOr<std::string> text =
      TableSample(*table, count, absl::GetFlag(FLAGS_seed));
  if (!text.ok()) return Fail(kExitTable, text.status());
  if (std::fputs(text->c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    return OutputFailed("the sample");
  }
  return kExitOk;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "sample",
          "draws random reachable positions of a table's game and writes "
          "them with\nthe table's answers, a line each.\n"
          "  sample --table=FILE [--count=10000] [--seed=1]",
          argc, argv)) {
    return *done;
  }
  return mnk::RunGuarded(mnk::Main);
}
