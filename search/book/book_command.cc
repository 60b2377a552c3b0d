#include "search/book/book_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "base/cli/cli.h"
#include "base/cli/game_flags.h"
#include "base/cli/search_flags.h"
#include "base/cli/threads_flag.h"
#include "base/cli/work_dir_flag.h"
#include "rules/game/printable.h"
#include "search/book/book.h"
#include "search/book/merge.h"
#include "search/connect.h"
#include "store/write.h"
#include "table/table.h"

ABSL_FLAG(int, plies, 6, "the book holds positions of up to this many stones");
ABSL_FLAG(std::string, out, "", "the book's table file");
ABSL_FLAG(bool, every_position, false,
          "every position with exactly --plies stones, not the book's lines "
          "(the deepest layer of an opening table)");
ABSL_FLAG(bool, quiet, false, "no progress lines on standard error");
ABSL_FLAG(std::string, seed, "",
          "a book of the same game whose entries are taken as solved (a "
          "deeper book starting from a shallower one); checked first. With "
          "--every_position, its positions of one stone fewer (an opening "
          "table's) spare each search the windows below its parents' "
          "results");
ABSL_FLAG(std::vector<std::string>, merge, {},
          "books to merge into --out, with no search (A,B,...): every "
          "position any of them holds; they must agree where they overlap. "
          "One book alone is written again as this version writes books "
          "(its keys packed)");

namespace mnk {
namespace {

using Clock = std::chrono::steady_clock;

// A search of the game the flags name, with its share of the memory.
absl::StatusOr<std::unique_ptr<ConnectSearch>> MakeSearch(int threads) {
  absl::StatusOr<Game> game = GameFromFlags({7, 6, 4, /*gravity=*/true});
  if (!game.ok()) return game.status();
  absl::StatusOr<SearchMemory> memory = SearchMemoryFromFlag();
  if (!memory.ok()) return memory.status();
  absl::StatusOr<int> bits =
      ConnectSearch::TableBitsForFlag(memory->bytes, threads, memory->name);
  if (!bits.ok()) return bits.status();
  return ConnectSearch::Create(*game, {*bits});
}

// One search a thread, into *searches; the exit status of a failure.
int MakeSearches(int threads,
                 std::vector<std::unique_ptr<ConnectSearch>>* searches) {
  for (int t = 0; t < threads; ++t) {
    absl::StatusOr<std::unique_ptr<ConnectSearch>> search = MakeSearch(threads);
    if (!search.ok()) {
      return Fail(
          absl::IsResourceExhausted(search.status()) ? kExitMemory : kExitUsage,
          search.status());
    }
    searches->push_back(*std::move(search));
  }
  return kExitOk;
}

// The book --seed names (none without the flag), checked whole, into
// *seed; the exit status of a failure.
int LoadSeed(const GameSpec& spec, std::optional<Table>* seed) {
  const std::string path = UserPath(absl::GetFlag(FLAGS_seed));
  if (path.empty()) return kExitOk;
  absl::StatusOr<Table> table = Table::Load(path, spec);
  if (!table.ok()) return Fail(kExitTable, table.status());
  if (table->book() == nullptr) {
    return Fail(kExitUsage, absl::StrCat("--seed=", Printable(path), " is a ",
                                         table->layout_name(),
                                         " table: expected an opening book"));
  }
  if (absl::Status s = table->CheckAll(); !s.ok()) return Fail(kExitTable, s);
  *seed = *std::move(table);
  return kExitOk;
}

// The progress lines on standard error: a line a ply, or, for every
// position of a layer, one every 10 seconds with the time left at the rate
// so far.
std::function<void(const BookProgress&)> ProgressPrinter(
    Clock::time_point start, bool every_position) {
  return [start, every_position,
          last_line = Clock::time_point{}](const BookProgress& p) mutable {
    const Clock::time_point now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - start).count();
    if (every_position) {
      if (p.solved != 0 && p.solved != p.to_solve &&
          now - last_line < std::chrono::seconds(10)) {
        return;
      }
      last_line = now;
      const double left =
          p.solved == 0 ? 0 : seconds * (p.to_solve - p.solved) / p.solved;
      std::fprintf(stderr,
                   "book: every position of %d stones: %llu of %llu solved "
                   "here (%llu from the log), %.2f a second, %.1f s, %.2f h "
                   "left\n",
                   p.ply, static_cast<unsigned long long>(p.solved),
                   static_cast<unsigned long long>(p.to_solve),
                   static_cast<unsigned long long>(p.from_log),
                   p.solved / std::max(seconds, 1e-9), seconds, left / 3600);
      return;
    }
    std::fprintf(stderr,
                 "book: ply %d: %llu to solve here, %llu solved in this "
                 "run, %llu from the log, %.1f s\n",
                 p.ply, static_cast<unsigned long long>(p.to_solve),
                 static_cast<unsigned long long>(p.solved),
                 static_cast<unsigned long long>(p.from_log), seconds);
  };
}

// book --merge: the books it names, each checked whole, merged into `out`.
int Merge(const std::string& out) {
  std::vector<std::string> paths, names;
  for (const std::string& path : absl::GetFlag(FLAGS_merge)) {
    paths.push_back(UserPath(path));
    names.push_back(Printable(paths.back()));
  }
  if (paths.empty()) {
    return Fail(kExitUsage, "--merge expects one book or more: --merge=A,B");
  }
  std::vector<Table> books;
  for (const std::string& path : paths) {
    absl::StatusOr<Table> table = Table::Load(path);
    if (!table.ok()) return Fail(kExitTable, table.status());
    if (absl::Status s = table->CheckAll(); !s.ok()) {
      return Fail(kExitTable, s);
    }
    books.push_back(*std::move(table));
  }
  std::vector<const Table*> pointers;
  for (const Table& book : books) pointers.push_back(&book);
  absl::StatusOr<BookEntries> merged = MergeBooks(pointers, names);
  if (!merged.ok()) {
    return Fail(absl::IsDataLoss(merged.status()) ? kExitTable : kExitUsage,
                merged.status());
  }
  const GameSpec& spec = books[0].game().spec();
  if (absl::Status s = WriteBookTable(out, spec, *merged); !s.ok()) {
    return Fail(kExitOutput, s);
  }
  std::printf(
      "book of %s: %zu positions merged from %zu book%s, written to "
      "%s\n",
      spec.Name().c_str(), merged->keys.size(), books.size(),
      books.size() == 1 ? "" : "s", Printable(out).c_str());
  return std::fflush(stdout) == 0 ? kExitOk : OutputFailed();
}

int Main(Cluster& cluster) {
  const Clock::time_point start = Clock::now();
  const std::string out = UserPath(absl::GetFlag(FLAGS_out));
  if (out.empty()) return Fail(kExitUsage, "expected --out=FILE");
  const bool writes = cluster.rank() == 0;
  if (absl::Status s = writes ? CheckTableTarget(out) : absl::OkStatus();
      !s.ok()) {
    return Fail(kExitOutput, s);
  }
  if (!absl::GetFlag(FLAGS_merge).empty()) {
    if (cluster.size() > 1) {
      return Fail(kExitUsage,
                  "--merge is for one process: run book, not "
                  "book_mpi");
    }
    return Merge(out);
  }
  absl::StatusOr<int> threads = ThreadsFromFlag(kMaxThreads);
  if (!threads.ok()) return Fail(kExitUsage, threads.status());
  std::vector<std::unique_ptr<ConnectSearch>> searches;
  if (int code = MakeSearches(*threads, &searches); code != kExitOk) {
    return code;
  }
  std::vector<ConnectSearch*> pointers;
  for (const auto& search : searches) pointers.push_back(search.get());
  std::optional<Table> seed;
  if (int code = LoadSeed(pointers[0]->game().spec(), &seed); code != kExitOk) {
    return code;
  }
  BookOptions options;
  options.seed = seed.has_value() ? seed->book() : nullptr;
  options.plies = absl::GetFlag(FLAGS_plies);
  options.work_dir = WorkDirFromFlag();
  options.cluster = &cluster;
  options.every_position = absl::GetFlag(FLAGS_every_position);
  if (!absl::GetFlag(FLAGS_quiet) && writes) {
    options.progress = ProgressPrinter(start, options.every_position);
  }
  absl::StatusOr<BookEntries> book = BuildBook(pointers, options);
  if (!book.ok()) {
    return Fail(
        absl::IsInvalidArgument(book.status()) ? kExitUsage : kExitWorkDir,
        book.status());
  }
  if (!writes) return kExitOk;
  const GameSpec& spec = pointers[0]->game().spec();
  if (absl::Status s = WriteBookTable(out, spec, *book); !s.ok()) {
    return Fail(kExitOutput, s);
  }
  const std::string what =
      options.every_position
          ? absl::StrCat(", every position of ", options.plies, " stones")
          : absl::StrCat(" to ply ", options.plies);
  std::printf("book of %s%s: %zu positions, written to %s, %.1f s\n",
              spec.Name().c_str(), what.c_str(), book->keys.size(),
              Printable(out).c_str(),
              std::chrono::duration<double>(Clock::now() - start).count());
  return std::fflush(stdout) == 0 ? kExitOk : OutputFailed();
}

}  // namespace

int RunBook(int argc, char** argv, Cluster& cluster) {
  const std::string name =
      cluster.size() > 1 ? absl::StrCat("book (rank ", cluster.rank(), ")")
                         : "book";
  if (std::optional<int> done = StartTool(
          name,
          "builds the opening book of a Connect-style game by exact search\n"
          "(the game: Connect Four 7x6, 7,6,4 gravity, unless the game flags\n"
          "say otherwise).\n"
          "  book [--width=7 --height=6 --k=4] --plies=P [--every_position] "
          "--out=FILE [--work_dir=DIR]\n"
          "       [--search_memory=1G] [--threads=T]\n"
          "  book --merge=A,B,... --out=FILE",
          argc, argv)) {
    return *done;
  }
  return RunGuarded([&] { return Main(cluster); });
}

}  // namespace mnk
