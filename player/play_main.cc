// play: the perfect opponent and position oracle, answering from a table.
//
//   bazel run //player:play                          # a game of tic-tac-toe
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
#include <new>
#include <optional>
#include <streambuf>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "player/player.h"
#include "solver/cli/cli.h"
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
ABSL_FLAG(std::string, first, "human",
          "who moves first in a game: human or ai");
ABSL_FLAG(std::string, mark, "X",
          "the mark the person plays in a game: X or O");

namespace mnk {
namespace {

using bazel::tools::cpp::runfiles::Runfiles;

constexpr int kUsage = 1, kBadPosition = 2, kBadTable = 3, kMemory = 4,
              kOutput = 6;

int Fail(int code, absl::string_view message) {
  std::fprintf(stderr, "play: %.*s\n", static_cast<int>(message.size()),
               message.data());
  return code;
}

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
  BatchStreams(int in_fd, int out_fd, const Table& table)
      : in_(in_fd), out_(out_fd), table_(table) {}

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
    if (changed_.ok()) changed_ = table_.CheckUnchanged();
    return changed_.ok();
  }

  static constexpr size_t kFlushBytes = 1 << 16;
  const int in_, out_;
  const Table& table_;
  absl::Status changed_;
  std::string pending_;
  int error_ = 0;
  char buffer_[1 << 16];
};

int OutputFailed() {
  return Fail(kOutput, absl::StrCat("cannot write to standard output: ",
                                    std::strerror(errno)));
}

int Main(const char* argv0) {
  const std::string first = absl::GetFlag(FLAGS_first);
  const std::string mark = absl::GetFlag(FLAGS_mark);
  if (first != "human" && first != "ai") {
    return Fail(kUsage, absl::StrCat("--first=", Printable(first),
                                     ": expected human or ai"));
  }
  if (mark != "X" && mark != "O" && mark != "x" && mark != "o") {
    return Fail(kUsage,
                absl::StrCat("--mark=", Printable(mark), ": expected X or O"));
  }
  for (const char* flag : {"width", "height", "k", "table"}) {
    if (empty_flags.contains(flag)) {
      return Fail(kUsage,
                  absl::StrCat("--", flag, "= is empty: expected ",
                               std::string(flag) == "table" ? "a file name"
                                                            : "a number"));
    }
  }
  // An empty --position is a position (a wrong one), not no position.
  std::optional<std::string> position = absl::GetFlag(FLAGS_position);
  if (!position && named_flags.contains("position")) position = "";
  if (absl::GetFlag(FLAGS_batch) && position) {
    return Fail(kUsage, "--batch and --position cannot be used together");
  }
  const bool answers = position || absl::GetFlag(FLAGS_batch);
  for (const char* flag : {"first", "mark"}) {
    if (answers && named_flags.contains(flag)) {
      return Fail(kUsage, absl::StrCat("--", flag,
                                       " applies to a game, not to the "
                                       "answers of --position or --batch: "
                                       "drop one or the other"));
    }
  }
  if (!answers && absl::GetFlag(FLAGS_json)) {
    return Fail(kUsage,
                "--json applies to the answers of --position or --batch: add "
                "one of them, or drop --json to play a game");
  }

  // The game asked for: the flags given, the rest from the table (or from
  // tic-tac-toe when there is no --table).
  const std::optional<int> width = absl::GetFlag(FLAGS_width);
  const std::optional<int> height = absl::GetFlag(FLAGS_height);
  const std::optional<int> k = absl::GetFlag(FLAGS_k);
  const std::optional<bool> gravity =
      named_flags.contains("gravity")
          ? std::optional<bool>(absl::GetFlag(FLAGS_gravity))
          : std::nullopt;
  const std::optional<bool> misere =
      named_flags.contains("misere")
          ? std::optional<bool>(absl::GetFlag(FLAGS_misere))
          : std::nullopt;
  auto asked = [&](const GameSpec& rest) {
    return GameSpec{width.value_or(rest.width), height.value_or(rest.height),
                    k.value_or(rest.k), gravity.value_or(rest.gravity),
                    misere.value_or(rest.misere)};
  };
  std::string path = UserPath(absl::GetFlag(FLAGS_table));
  if (path.empty()) {
    const GameSpec spec = asked(GameSpec());
    if (absl::Status s = Game::Create(spec).status(); !s.ok()) {
      return Fail(kUsage, s.message());
    }
    std::string error;
    std::unique_ptr<Runfiles> runfiles(Runfiles::Create(argv0, &error));
    const std::string name = absl::StrCat("mnk/data/", spec.FileStem(), ".mnk");
    if (runfiles != nullptr) path = runfiles->Rlocation(name);
    // Only a table that is not there is "no built-in table"; one that is
    // there but unreadable gets the reader's own message below.
    if (path.empty() || (access(path.c_str(), F_OK) != 0 && errno == ENOENT)) {
      return Fail(kBadTable,
                  absl::StrCat("no built-in table for ", spec.Name(),
                               ": make one with `bazel run //solver:solve -- "
                               "--width=",
                               spec.width, " --height=", spec.height, " --k=",
                               spec.k, spec.gravity ? " --gravity" : "",
                               spec.misere ? " --misere" : "",
                               " --out=FILE` and pass --table=FILE"));
    }
  }
  absl::StatusOr<Table> table = Table::Load(path);
  if (!table.ok()) {
    return Fail(table.status().code() == absl::StatusCode::kResourceExhausted
                    ? kMemory
                    : kBadTable,
                table.status().message());
  }
  if (absl::Status s = table->ExpectGame(asked(table->game().spec()), path);
      !s.ok()) {
    return Fail(kBadTable, s.message());
  }
  const bool json = absl::GetFlag(FLAGS_json);

  if (position) {
    absl::StatusOr<Position> p = table->game().Parse(*position);
    if (!p.ok()) {
      return Fail(kBadPosition,
                  absl::StrCat("--position=", Printable(*position), ": ",
                               p.status().message()));
    }
    absl::StatusOr<Analysis> a = Analyze(*table, *p);
    if (!a.ok()) return Fail(kBadTable, a.status().message());
    std::cout << (json ? AnalysisJson(table->game(), *a)
                       : AnalysisText(table->game(), *a));
    std::cout.flush();
    return std::cout ? 0 : OutputFailed();
  }
  struct stat in;
  if (fstat(STDIN_FILENO, &in) == 0 && S_ISDIR(in.st_mode)) {
    return Fail(kUsage,
                "standard input is a directory: expected positions or moves, "
                "one a line");
  }
  if (absl::GetFlag(FLAGS_batch)) {
    // A larger pipe (if standard output is one) takes a whole batch's
    // answers without waiting for the reader; where it is refused, the
    // answers simply go in smaller pieces.
    fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
    BatchStreams streams(STDIN_FILENO, STDOUT_FILENO, *table);
    std::istream in(&streams);
    std::string line;
    bool too_long;
    absl::Status table_error;  // the first line the table could not answer
    while (ReadLine(in, &line, &too_long)) {
      absl::Status s =
          AppendAnswerLine(*table, line, json, too_long, streams.pending());
      if (table_error.ok()) table_error = s;
      if (!streams.Written()) break;
    }
    const bool flushed = streams.Flush();
    if (!streams.changed().ok()) {
      return Fail(kBadTable, streams.changed().message());
    }
    if (streams.error() != 0 || !flushed) {
      errno = streams.error();
      return OutputFailed();
    }
    // Every line was answered, damaged ones as error lines: the exit status
    // says that the table failed.
    if (!table_error.ok()) return Fail(kBadTable, table_error.message());
    return 0;
  }
  GameOptions options;
  options.human_first = first == "human";
  options.human_mark = static_cast<char>(std::toupper(mark[0]));
  const int played = PlayGame(*table, options, std::cin, std::cout);
  std::cout.flush();
  if (!std::cout) return OutputFailed();
  return played == kTableFailed ? kBadTable : 0;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "plays or answers positions of an m,n,k game from its table.\n"
      "  play [--table=FILE | --width=M --height=N --k=K [--gravity] "
      "[--misere]]\n"
      "       [--first=human|ai] [--mark=X|O]            a game\n"
      "  play ... --position=P [--json]                  one answer\n"
      "  play ... --batch [--json]                       one answer a line");
  if (mnk::HelpAsked(argc, argv)) return mnk::PrintHelp("play");
  mnk::ScanFlags(argc, argv);
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    return mnk::Fail(mnk::kUsage,
                     absl::StrCat("unexpected argument '",
                                  mnk::Printable(rest[1]), "'; see --help"));
  }
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error
  mnk::ExitOnTruncatedTable("play", mnk::kBadTable);
  try {
    return mnk::Main(argv[0]);
  } catch (const std::bad_alloc&) {
    return mnk::Fail(mnk::kMemory, "out of memory");
  }
}
