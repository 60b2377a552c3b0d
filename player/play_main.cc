// play: the perfect opponent and position oracle, answering from a table,
// or by the exact search on a Connect-style board that has none.
//
//   bazel run //player:play                          # a game of tic-tac-toe
//   bazel run //player:play -- --width=7 --height=6 --k=4 --gravity
//   bazel run //player:play -- --first=ai --mark=O
//   bazel run //player:play -- --position=X.O/X.X/OO. --json
//   printf 'XO.......\n' | bazel run //player:play -- --batch
//   bazel run //player:play -- --table=/tmp/4x4k3.mnk
//
// Exit status: 0 done; 1 bad command line (or standard input a directory);
// 2 the --position is not a valid position; 3 the table is missing,
// unreadable, not a regular file, corrupt or for another game; 4 not enough
// memory; 6 standard output could not be written (a full disk, a closed
// pipe): the program stops at the first answer it cannot write.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "player/player.h"
#include "solver/cli/cli.h"
#include "solver/game/printable.h"
#include "solver/search/connect.h"
#include "table/record.h"
#include "table/table.h"
#include "tools/cpp/runfiles/runfiles.h"

ABSL_FLAG(std::string, table, "",
          "table file (default: the built-in table of the game)");
ABSL_FLAG(std::optional<int>, width, std::nullopt,
          "board width (default: the table's, else 3)");
ABSL_FLAG(std::optional<int>, height, std::nullopt,
          "board height (default: the table's, else 3)");
ABSL_FLAG(std::optional<int>, k, std::nullopt,
          "stones in a row that win (default: the table's, else 3)");
ABSL_FLAG(bool, gravity, false,
          "a Connect-style game (default: as the table says)");
ABSL_FLAG(bool, misere, false,
          "misère: whoever completes k in a row loses (default: as the table "
          "says)");
ABSL_FLAG(std::optional<std::string>, position, std::nullopt,
          "answer this position and exit: rows from the top, X O or . a "
          "cell, '/' between rows");
ABSL_FLAG(bool, batch, false,
          "read one position a line from standard input, answer one a line");
ABSL_FLAG(bool, json, false,
          "answers of --position or --batch as JSON objects");
ABSL_FLAG(std::string, book, "",
          "opening book for a game played by search (default: the built-in "
          "book of the game, if any)");
ABSL_FLAG(std::string, search_memory, "256M",
          "memory for the exact search's transposition table, on a "
          "Connect-style board without a table (K, M, G: powers of 1024)");
ABSL_FLAG(int, search_threads, 2,
          "threads of the exact search (1 to 64): they share its table and "
          "search big positions together");
ABSL_FLAG(std::string, first, "human",
          "who moves first in a game: human or ai");
ABSL_FLAG(std::string, mark, "X",
          "the mark the person plays in a game: X or O");

namespace mnk {
namespace {

using bazel::tools::cpp::runfiles::Runfiles;

// The flags named on the command line, and those given an empty value
// ("--width=", "--position="): absl reads an empty optional flag as unset,
// and a bool flag cannot say whether it was given (a table's own setting is
// the default for --gravity and --misere).
absl::flat_hash_set<std::string> named_flags;
absl::flat_hash_set<std::string> empty_flags;

void ScanFlags(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--")) {
      if (!absl::ConsumePrefix(&arg, "-")) continue;
    }
    const size_t eq = arg.find('=');
    std::string name(arg.substr(0, eq));
    if (eq != absl::string_view::npos && eq + 1 == arg.size()) {
      empty_flags.insert(name);
    }
    if (absl::StartsWith(name, "no")) named_flags.insert(name.substr(2));
    named_flags.insert(std::move(name));
  }
}

// --batch's input and output. Answers gather in a buffer that is written
// (one write() for many answers) only when it is large or before a read that
// would wait: a pipe full of positions gets its answers in a few large
// writes, while a person, or a program that waits for each answer before
// sending the next line, gets each one at once.
//
// The table's file is checked for changes (Table::CheckUnchanged) before
// every read and every write: once it has changed, the answers not yet
// written are dropped (they may have read the new bytes), nothing more is
// read, and changed() says why.
class BatchStreams : public std::streambuf {
 public:
  BatchStreams(int in_fd, int out_fd, const Oracle& oracle)
      : in_(in_fd), out_(out_fd), oracle_(oracle) {}

  // Where answers go; Written() after each.
  std::string* pending() { return &pending_; }
  // False once a write failed (error() says why).
  bool Written() { return pending_.size() < kFlushBytes || Flush(); }
  bool Flush() {
    if (!Unchanged()) {
      pending_.clear();
      return false;
    }
    for (size_t done = 0; done < pending_.size();) {
      const ssize_t n =
          write(out_, pending_.data() + done, pending_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        return false;
      }
      done += static_cast<size_t>(n);
    }
    pending_.clear();
    return error_ == 0;
  }
  // The errno of the write that failed, 0 if none did.
  int error() const { return error_; }
  // Why the batch stopped for the table's sake, OK if it did not.
  const absl::Status& changed() const { return changed_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    pollfd ready = {in_, POLLIN, 0};
    if (poll(&ready, 1, 0) == 0 && !Flush()) return traits_type::eof();
    if (!Unchanged()) return traits_type::eof();
    ssize_t got;
    do {
      got = read(in_, buffer_, sizeof(buffer_));
    } while (got < 0 && errno == EINTR);
    if (got <= 0) return traits_type::eof();  // end of input, or an error
    setg(buffer_, buffer_, buffer_ + got);
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  bool Unchanged() {
    if (changed_.ok()) changed_ = oracle_.CheckUnchanged();
    return changed_.ok();
  }

  static constexpr size_t kFlushBytes = 1 << 16;
  const int in_, out_;
  const Oracle& oracle_;
  absl::Status changed_;
  std::string pending_;
  int error_ = 0;
  char buffer_[1 << 16];
};

// An empty --position is a position (a wrong one), not no position.
std::optional<std::string> PositionFlag() {
  std::optional<std::string> position = absl::GetFlag(FLAGS_position);
  if (!position && named_flags.contains("position")) position = "";
  return position;
}

// The game asked for: the flags given, the rest from `rest` (the table's
// game, or tic-tac-toe when there is no --table).
GameSpec AskedGame(const GameSpec& rest) {
  auto given = [](const char* flag, bool value, bool otherwise) {
    return named_flags.contains(flag) ? value : otherwise;
  };
  return GameSpec{absl::GetFlag(FLAGS_width).value_or(rest.width),
                  absl::GetFlag(FLAGS_height).value_or(rest.height),
                  absl::GetFlag(FLAGS_k).value_or(rest.k),
                  given("gravity", absl::GetFlag(FLAGS_gravity), rest.gravity),
                  given("misere", absl::GetFlag(FLAGS_misere), rest.misere)};
}

// The flags that make no sense together, or are empty.
absl::Status CheckFlags() {
  const std::string first = absl::GetFlag(FLAGS_first);
  const std::string mark = absl::GetFlag(FLAGS_mark);
  if (first != "human" && first != "ai") {
    return absl::InvalidArgumentError(
        absl::StrCat("--first=", Printable(first), ": expected human or ai"));
  }
  if (mark != "X" && mark != "O" && mark != "x" && mark != "o") {
    return absl::InvalidArgumentError(
        absl::StrCat("--mark=", Printable(mark), ": expected X or O"));
  }
  for (const char* flag : {"width", "height", "k", "table", "book"}) {
    if (empty_flags.contains(flag)) {
      const std::string name = flag;
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, "= is empty: expected ",
          name == "table" || name == "book" ? "a file name" : "a number"));
    }
  }
  const bool batch = absl::GetFlag(FLAGS_batch);
  const bool answers = PositionFlag().has_value() || batch;
  if (batch && PositionFlag().has_value()) {
    return absl::InvalidArgumentError(
        "--batch and --position cannot be used together");
  }
  for (const char* flag : {"first", "mark"}) {
    if (answers && named_flags.contains(flag)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag,
                       " applies to a game, not to the answers of "
                       "--position or --batch: drop one or the other"));
    }
  }
  if (!answers && absl::GetFlag(FLAGS_json)) {
    return absl::InvalidArgumentError(
        "--json applies to the answers of --position or --batch: add one of "
        "them, or drop --json to play a game");
  }
  // Without --table, the flags name the game: one that exists.
  if (absl::GetFlag(FLAGS_table).empty()) {
    return Game::Create(AskedGame(GameSpec())).status();
  }
  return absl::OkStatus();
}

// The built-in table of the game the flags ask for (data/, a game that
// exists): kNotFound when none is built in.
absl::StatusOr<std::string> BuiltInTable(const char* argv0) {
  const GameSpec spec = AskedGame(GameSpec());
  std::string error, path;
  std::unique_ptr<Runfiles> runfiles(Runfiles::Create(argv0, &error));
  const std::string name = absl::StrCat("mnk/data/", spec.FileStem(), ".mnk");
  if (runfiles != nullptr) path = runfiles->Rlocation(name);
  // Only a table that is not there is "no built-in table"; one that is
  // there but unreadable gets the reader's own message.
  if (path.empty() || (access(path.c_str(), F_OK) != 0 && errno == ENOENT)) {
    // Advice only for a solve that can be done.
    if (absl::Status s = CheckTableCanHold(*Game::Create(spec)); !s.ok()) {
      return absl::NotFoundError(absl::StrCat(
          "no built-in table for ", spec.Name(), ", and ", s.message()));
    }
    return absl::NotFoundError(absl::StrCat(
        "no built-in table for ", spec.Name(),
        ": make one with `bazel run //solver:solve -- --width=", spec.width,
        " --height=", spec.height, " --k=", spec.k,
        spec.gravity ? " --gravity" : "", spec.misere ? " --misere" : "",
        " --out=FILE` and pass --table=FILE"));
  }
  return path;
}

// The table to answer from: --table, or the built-in one of the game the
// flags ask for; checked to be of that game.
absl::StatusOr<Table> LoadTable(const char* argv0) {
  std::string path = UserPath(absl::GetFlag(FLAGS_table));
  if (path.empty()) {
    absl::StatusOr<std::string> built_in = BuiltInTable(argv0);
    if (!built_in.ok()) return built_in.status();
    path = *built_in;
  }
  absl::StatusOr<Table> table = Table::Load(path);
  if (!table.ok()) return table;
  if (absl::Status s = table->ExpectGame(AskedGame(table->game().spec()), path);
      !s.ok()) {
    return s;
  }
  // An opening book goes before the search (solve --layout=book's tables
  // hold every position in play: they answer alone).
  if (!table->complete()) {
    return absl::FailedPreconditionError(absl::StrCat(
        Printable(path),
        " is an opening book, not a table: pass it as --book=FILE"));
  }
  return table;
}

// --position: one answer.
int AnswerPosition(const Oracle& oracle, const std::string& position) {
  absl::StatusOr<Position> p = oracle.game().Parse(position);
  if (!p.ok()) {
    return Fail(kExitBadPosition,
                absl::StrCat("--position=", Printable(position), ": ",
                             p.status().message()));
  }
  // A search that takes a while says how far it got, on standard error.
  const absl::Time start = absl::Now();
  auto progress = [start](int done, int total) {
    const absl::Duration spent = absl::Now() - start;
    if (spent < absl::Seconds(1)) return;
    std::cerr << "play: " << ProgressLine(done, total, spent) << "\n";
  };
  absl::StatusOr<Analysis> a = oracle.Analyze(*p, progress);
  if (!a.ok()) return Fail(kExitTable, a.status());
  std::cout << (absl::GetFlag(FLAGS_json) ? AnalysisJson(oracle.game(), *a)
                                          : AnalysisText(oracle.game(), *a));
  std::cout.flush();
  return std::cout ? kExitOk : OutputFailed();
}

// --batch: one answer a line of standard input.
int AnswerBatch(const Oracle& oracle) {
  // A larger pipe (if standard output is one) takes a whole batch's
  // answers without waiting for the reader; where it is refused, the
  // answers simply go in smaller pieces.
  fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
  BatchStreams streams(STDIN_FILENO, STDOUT_FILENO, oracle);
  std::istream in(&streams);
  std::string line;
  bool too_long;
  absl::Status table_error;  // the first line the table could not answer
  while (ReadLine(in, &line, &too_long)) {
    absl::Status s = AppendAnswerLine(oracle, line, absl::GetFlag(FLAGS_json),
                                      too_long, streams.pending());
    if (table_error.ok()) table_error = s;
    if (!streams.Written()) break;
  }
  const bool flushed = streams.Flush();
  if (!streams.changed().ok()) return Fail(kExitTable, streams.changed());
  if (streams.error() != 0 || !flushed) {
    errno = streams.error();
    return OutputFailed();
  }
  // Every line was answered, damaged ones as error lines: the exit status
  // says that the table failed.
  if (!table_error.ok()) return Fail(kExitTable, table_error);
  return kExitOk;
}

// A game against the person at the terminal.
int PlayAgainstPerson(const Oracle& oracle) {
  GameOptions options;
  options.human_first = absl::GetFlag(FLAGS_first) == "human";
  options.human_mark =
      static_cast<char>(std::toupper(absl::GetFlag(FLAGS_mark)[0]));
  const int played = PlayGame(oracle, options, std::cin, std::cout);
  std::cout.flush();
  if (!std::cout) return OutputFailed();
  return played == kTableFailed ? kExitTable : kExitOk;
}

// The exact search, for a game with no table (no --table, none built in):
// the table's error when it cannot play the game either.
absl::StatusOr<std::unique_ptr<ConnectSearch>> SearchInstead(
    const absl::Status& no_table) {
  absl::StatusOr<uint64_t> bytes =
      BytesFlag("search_memory", absl::GetFlag(FLAGS_search_memory));
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<int> bits = ConnectSearch::TableBitsForFlag(
      *bytes, 1,
      absl::StrCat("--search_memory=",
                   Printable(absl::GetFlag(FLAGS_search_memory))));
  if (!bits.ok()) return bits.status();
  const Game game = *Game::Create(AskedGame(GameSpec()));
  ConnectSearchOptions options;
  options.table_bits = *bits;
  options.threads = absl::GetFlag(FLAGS_search_threads);
  if (options.threads < 1 || options.threads > ConnectSearch::kMaxThreads) {
    return absl::InvalidArgumentError(
        absl::StrCat("--search_threads=", options.threads, ": expected 1 to ",
                     ConnectSearch::kMaxThreads));
  }
  absl::StatusOr<std::unique_ptr<ConnectSearch>> search =
      ConnectSearch::Create(game, options);
  if (!search.ok() && !game.spec().gravity) return no_table;
  if (!search.ok() &&
      search.status().code() == absl::StatusCode::kInvalidArgument) {
    return absl::Status(
        no_table.code(),
        absl::StrCat(no_table.message(), " (", search.status().message(), ")"));
  }
  return search;
}

// The opening book of a game played by search: --book, or the built-in one
// (data/STEM-book.mnk) if there is one; nullopt without either.
absl::StatusOr<std::optional<Table>> LoadBook(const char* argv0,
                                              const GameSpec& spec) {
  std::string path = UserPath(absl::GetFlag(FLAGS_book));
  if (path.empty()) {
    std::string error;
    std::unique_ptr<Runfiles> runfiles(Runfiles::Create(argv0, &error));
    if (runfiles == nullptr) return std::nullopt;
    path = runfiles->Rlocation(
        absl::StrCat("mnk/data/", spec.FileStem(), "-book.mnk"));
    if (path.empty() || access(path.c_str(), F_OK) != 0) return std::nullopt;
  }
  absl::StatusOr<Table> book = Table::Load(path, spec);
  if (!book.ok()) return book.status();
  if (book->layout() != Layout::kBook) {
    return absl::FailedPreconditionError(
        absl::StrCat(Printable(path), " is a table in the ",
                     book->layout_name(), " layout, not a book"));
  }
  return std::optional<Table>(*std::move(book));
}

int Main(const char* argv0) {
  if (absl::Status s = CheckFlags(); !s.ok()) return Fail(kExitUsage, s);
  absl::StatusOr<Table> table = LoadTable(argv0);
  std::unique_ptr<ConnectSearch> search;
  if (!table.ok()) {
    if (!absl::IsNotFound(table.status()) ||
        !absl::GetFlag(FLAGS_table).empty()) {
      return Fail(TableExit(table.status()), table.status());
    }
    absl::StatusOr<std::unique_ptr<ConnectSearch>> made =
        SearchInstead(table.status());
    if (!made.ok()) {
      return Fail(absl::IsInvalidArgument(made.status())     ? kExitUsage
                  : absl::IsResourceExhausted(made.status()) ? kExitMemory
                                                             : kExitTable,
                  made.status());
    }
    search = *std::move(made);
  } else if (!absl::GetFlag(FLAGS_book).empty()) {
    return Fail(kExitUsage,
                "--book applies to a game played by search, not from a table");
  }
  std::optional<Table> book;
  if (search != nullptr) {
    absl::StatusOr<std::optional<Table>> loaded =
        LoadBook(argv0, search->game().spec());
    if (!loaded.ok()) return Fail(TableExit(loaded.status()), loaded.status());
    book = *std::move(loaded);
  }
  const Oracle oracle =
      table.ok() ? Oracle(*table)
                 : Oracle(search.get(), book.has_value() ? &*book : nullptr);
  if (const std::optional<std::string> position = PositionFlag()) {
    return AnswerPosition(oracle, *position);
  }
  struct stat in;
  if (fstat(STDIN_FILENO, &in) == 0 && S_ISDIR(in.st_mode)) {
    return Fail(kExitUsage,
                "standard input is a directory: expected positions or moves, "
                "one a line");
  }
  if (absl::GetFlag(FLAGS_batch)) return AnswerBatch(oracle);
  return PlayAgainstPerson(oracle);
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  mnk::ScanFlags(argc, argv);
  if (std::optional<int> done = mnk::StartTool(
          "play",
          "plays or answers positions of an m,n,k game from its table (or,\n"
          "on a Connect-style board without one, by exact search).\n"
          "  play [--table=FILE | --width=M --height=N --k=K [--gravity] "
          "[--misere]]\n"
          "       [--book=FILE] [--search_memory=256M] [--search_threads=2]\n"
          "                                                  (Connect-style, "
          "no table)\n"
          "       [--first=human|ai] [--mark=X|O]            a game\n"
          "  play ... --position=P [--json]                  one answer\n"
          "  play ... --batch [--json]                       one answer a line",
          argc, argv)) {
    return *done;
  }
  mnk::ExitOnTruncatedTable("play", mnk::kExitTable);
  return mnk::RunGuarded([&] { return mnk::Main(argv[0]); });
}
