// book: builds the opening book of a Connect-style game too big to
// tabulate (solver/book/book.h), resumably, and writes it as a table in
// the book layout.
//
//   bazel run //solver/book:book -- --plies=6 --work_dir=/tmp/book-7x6
//       --out=/tmp/7x6k4g-book.mnk          (7x6, four in a row: the default)
//
// Exit status: 0 written; 1 bad command line; 4 not enough memory for the
// search's table; 5 the work dir cannot be used; 6 the book cannot be
// written.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "solver/book/book.h"
#include "solver/cli/cli.h"
#include "solver/game/printable.h"
#include "solver/search/connect.h"
#include "table/write.h"

ABSL_FLAG(int, width, 7, "board width");
ABSL_FLAG(int, height, 6, "board height");
ABSL_FLAG(int, k, 4, "stones in a row that win");
ABSL_FLAG(int, plies, 6, "the book holds positions of up to this many stones");
ABSL_FLAG(std::string, work_dir, "",
          "keeps each solved position here, so that a stopped run resumes");
ABSL_FLAG(std::string, out, "", "the book's table file");
ABSL_FLAG(std::string, search_memory, "1G",
          "memory for the searches' transposition tables, shared out among "
          "the threads (K, M, G)");
ABSL_FLAG(int, threads, 2, "searches solving at once, a thread each");
ABSL_FLAG(bool, quiet, false, "no progress lines on standard error");

namespace mnk {
namespace {

using Clock = std::chrono::steady_clock;

// A search of the game the flags name, with its share of the memory.
absl::StatusOr<std::unique_ptr<ConnectSearch>> MakeSearch(int threads) {
  absl::StatusOr<Game> game =
      Game::Create({absl::GetFlag(FLAGS_width), absl::GetFlag(FLAGS_height),
                    absl::GetFlag(FLAGS_k), /*gravity=*/true});
  if (!game.ok()) return game.status();
  absl::StatusOr<uint64_t> bytes =
      BytesFlag("search_memory", absl::GetFlag(FLAGS_search_memory));
  if (!bytes.ok()) return bytes.status();
  const int bits = ConnectSearch::TableBitsFor(*bytes / threads);
  return ConnectSearch::Create(*game, {bits});
}

int Main() {
  const Clock::time_point start = Clock::now();
  const std::string out = UserPath(absl::GetFlag(FLAGS_out));
  if (out.empty()) return Fail(kExitUsage, "expected --out=FILE");
  if (absl::Status s = CheckTableTarget(out); !s.ok()) {
    return Fail(kExitOutput, s);
  }
  absl::StatusOr<int> threads = ThreadsFlag(absl::GetFlag(FLAGS_threads));
  if (!threads.ok()) return Fail(kExitUsage, threads.status());
  std::vector<std::unique_ptr<ConnectSearch>> searches;
  std::vector<ConnectSearch*> pointers;
  for (int t = 0; t < *threads; ++t) {
    absl::StatusOr<std::unique_ptr<ConnectSearch>> search =
        MakeSearch(*threads);
    if (!search.ok()) {
      return Fail(
          absl::IsResourceExhausted(search.status()) ? kExitMemory : kExitUsage,
          search.status());
    }
    searches.push_back(*std::move(search));
    pointers.push_back(searches.back().get());
  }
  BookOptions options;
  options.plies = absl::GetFlag(FLAGS_plies);
  options.work_dir = UserPath(absl::GetFlag(FLAGS_work_dir));
  if (!absl::GetFlag(FLAGS_quiet)) {
    options.progress = [&](const BookProgress& p) {
      std::fprintf(
          stderr,
          "book: %s first, ply %d: %llu analysed, %llu solved, %llu from the "
          "log, %.1f s\n",
          p.side == 0 ? "perfect" : "other", p.ply,
          static_cast<unsigned long long>(p.analysed),
          static_cast<unsigned long long>(p.solved),
          static_cast<unsigned long long>(p.from_log),
          std::chrono::duration<double>(Clock::now() - start).count());
    };
  }
  absl::StatusOr<BookEntries> book = BuildBook(pointers, options);
  if (!book.ok()) {
    return Fail(
        absl::IsInvalidArgument(book.status()) ? kExitUsage : kExitWorkDir,
        book.status());
  }
  const GameSpec& spec = pointers[0]->game().spec();
  if (absl::Status s = WriteBookTable(out, spec, *book); !s.ok()) {
    return Fail(kExitOutput, s);
  }
  std::printf("book of %s to ply %d: %zu positions, written to %s, %.1f s\n",
              spec.Name().c_str(), options.plies, book->keys.size(),
              Printable(out).c_str(),
              std::chrono::duration<double>(Clock::now() - start).count());
  return std::fflush(stdout) == 0 ? kExitOk : OutputFailed();
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "book",
          "builds the opening book of a Connect-style game by exact search.\n"
          "  book [--width=7 --height=6 --k=4] --plies=P --out=FILE "
          "[--work_dir=DIR] [--search_memory=1G] [--threads=2]",
          argc, argv)) {
    return *done;
  }
  return mnk::RunGuarded(mnk::Main);
}
