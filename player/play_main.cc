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

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "answer/answer.h"
#include "answer/play.h"
#include "answer/text.h"
#include "base/cli/cli.h"
#include "base/cli/game_flags.h"
#include "base/cli/search_flags.h"
#include "base/cli/threads_flag.h"
#include "player/player.h"
#include "rules/game/printable.h"
#include "search/connect.h"
#include "table/record.h"
#include "table/table.h"

ABSL_FLAG(std::string, table, "",
          "table file (default: the built-in table of the game)");
ABSL_FLAG(std::optional<std::string>, position, std::nullopt,
          "answer this position and exit: rows from the top, X O or . a "
          "cell, '/' between rows");
ABSL_FLAG(bool, batch, false,
          "read one position a line from standard input, answer one a line");
ABSL_FLAG(bool, json, false,
          "answers of --position or --batch as JSON objects");
ABSL_FLAG(bool, pv, false,
          "with --position, the principal variation too: both sides' best "
          "moves to the end (JSON: \"pv\", the cells)");
ABSL_FLAG(bool, best_only, false,
          "answers of --position or --batch hold the position's value, "
          "remoteness and best move, and the moves only when they cost "
          "nothing more (from a table or the book): a search then looks for "
          "the best move alone, far sooner");
ABSL_FLAG(std::string, book, "",
          "opening book for a game played by search (default: the built-in "
          "book of the game, if any)");
ABSL_FLAG(std::string, first, "human",
          "who moves first in a game: human or ai");
ABSL_FLAG(std::string, mark, "X",
          "the mark the person plays in a game: X or O");
ABSL_FLAG(int, level, 10,
          "how well the computer plays in a game: 1 (random) to 10 "
          "(perfect)");
ABSL_FLAG(std::optional<uint64_t>, seed, std::nullopt,
          "the same seed, level and moves give the same game (default: a "
          "new draw each game)");
ABSL_FLAG(bool, vary, false,
          "at level 10, a random one of the equally good moves, not the "
          "lowest cell");

namespace mnk {
namespace {

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
  if (!position && FlagGiven("position")) position = "";
  return position;
}

// The flags that make no sense together.
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
  if (absl::Status s = CheckLevel(absl::GetFlag(FLAGS_level), "--level");
      !s.ok()) {
    return s;
  }
  const bool batch = absl::GetFlag(FLAGS_batch);
  const bool answers = PositionFlag().has_value() || batch;
  if (batch && PositionFlag().has_value()) {
    return absl::InvalidArgumentError(
        "--batch and --position cannot be used together");
  }
  for (const char* flag : {"first", "mark", "level", "seed", "vary"}) {
    if (answers && FlagGiven(flag)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag,
                       " applies to a game, not to the answers of "
                       "--position or --batch: drop one or the other"));
    }
  }
  if (absl::GetFlag(FLAGS_best_only) && !answers) {
    return absl::InvalidArgumentError(
        "--best_only applies to the answers of --position or --batch: add "
        "one, or type hint in a game");
  }
  if (absl::GetFlag(FLAGS_pv) && !PositionFlag().has_value()) {
    return absl::InvalidArgumentError(
        "--pv applies to the answer of --position: add it, or type pv in a "
        "game");
  }
  if (!answers && absl::GetFlag(FLAGS_json)) {
    return absl::InvalidArgumentError(
        "--json applies to the answers of --position or --batch: add one of "
        "them, or drop --json to play a game");
  }
  // Without --table, the flags name the game: one that exists.
  if (absl::GetFlag(FLAGS_table).empty()) {
    return Game::Create(GameSpecFromFlags(GameSpec())).status();
  }
  return absl::OkStatus();
}

// What --position and --batch answer: --best_only asks for less.
Need NeedFromFlags() {
  return absl::GetFlag(FLAGS_best_only) ? Need::kBestMove : Need::kEveryMove;
}

// --position: one answer.
int AnswerPosition(const AnswerSource& source, const std::string& position) {
  absl::StatusOr<Position> p = source.game().Parse(position);
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
  absl::StatusOr<Analysis> a = source.Answer(*p, {}, progress, NeedFromFlags());
  if (!a.ok()) return Fail(kExitTable, a.status());
  const bool json = absl::GetFlag(FLAGS_json);
  if (absl::GetFlag(FLAGS_pv)) {
    const absl::StatusOr<Line> pv = PrincipalVariation(source, position);
    if (!pv.ok()) return Fail(kExitTable, pv.status());
    std::cout << (json ? AnalysisJson(source.game(), *a, *pv)
                       : AnalysisText(source.game(), *a, *pv));
  } else {
    std::cout << (json ? AnalysisJson(source.game(), *a)
                       : AnalysisText(source.game(), *a));
  }
  std::cout.flush();
  return std::cout ? kExitOk : OutputFailed();
}

// --batch: one answer a line of standard input, all on one lease of the
// source (one search, its table kept from line to line); the table's file
// is checked around each read and write (BatchStreams), not each line.
int AnswerBatch(const AnswerSource& source) {
  const AnswerSource::Lease lease = source.Take();
  const Oracle oracle = lease.oracle();
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
    absl::Status s =
        AppendAnswerLine(oracle, line, absl::GetFlag(FLAGS_json), too_long,
                         streams.pending(), {}, NeedFromFlags());
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
int PlayAgainstPerson(const AnswerSource& source) {
  GameOptions options;
  options.human_first = absl::GetFlag(FLAGS_first) == "human";
  options.human_mark =
      static_cast<char>(std::toupper(absl::GetFlag(FLAGS_mark)[0]));
  options.level.level = absl::GetFlag(FLAGS_level);
  options.level.seed = absl::GetFlag(FLAGS_seed);
  options.level.vary = absl::GetFlag(FLAGS_vary);
  const int played = PlayGame(source, options, std::cin, std::cout);
  std::cout.flush();
  if (!std::cout) return OutputFailed();
  return played == kTableFailed ? kExitTable : kExitOk;
}

// The source of the answers (answer/answer.h): --table, else the
// built-in table of the game the flags ask for, else the search after
// --book or the built-in book.
absl::StatusOr<std::unique_ptr<AnswerSource>> OpenSource() {
  SourceOptions options;
  options.table = UserPath(absl::GetFlag(FLAGS_table));
  options.book = UserPath(absl::GetFlag(FLAGS_book));
  absl::StatusOr<SearchMemory> memory = SearchMemoryFromFlag();
  if (!memory.ok()) return memory.status();
  options.search_memory = memory->bytes;
  options.search_memory_name = memory->name;
  absl::StatusOr<int> threads = ThreadsFromFlag(ConnectSearch::kMaxThreads);
  if (!threads.ok()) return threads.status();
  options.search_threads = *threads;
  if (options.table.empty()) {
    return AnswerSource::Open(GameSpecFromFlags(GameSpec()), options);
  }
  absl::StatusOr<std::unique_ptr<AnswerSource>> source =
      AnswerSource::Open(std::nullopt, options);
  if (!source.ok()) return source;
  const Table& table = *(*source)->table();
  if (absl::Status s = table.ExpectGame(GameSpecFromFlags(table.game().spec()),
                                        options.table);
      !s.ok()) {
    return s;
  }
  return source;
}

// The exit status of a source that could not be opened.
int SourceFailed(const absl::Status& status) {
  if (absl::IsInvalidArgument(status)) return Fail(kExitUsage, status);
  return Fail(TableExit(status), status);
}

int Main() {
  if (absl::Status s = CheckFlags(); !s.ok()) return Fail(kExitUsage, s);
  absl::StatusOr<std::unique_ptr<AnswerSource>> source = OpenSource();
  if (!source.ok()) return SourceFailed(source.status());
  if (const std::optional<std::string> position = PositionFlag()) {
    return AnswerPosition(**source, *position);
  }
  struct stat in;
  if (fstat(STDIN_FILENO, &in) == 0 && S_ISDIR(in.st_mode)) {
    return Fail(kExitUsage,
                "standard input is a directory: expected positions or moves, "
                "one a line");
  }
  if (absl::GetFlag(FLAGS_batch)) return AnswerBatch(**source);
  return PlayAgainstPerson(**source);
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  if (std::optional<int> done = mnk::StartTool(
          "play",
          "plays or answers positions of an m,n,k game from its table (or,\n"
          "on a Connect-style board without one, by exact search). The game:\n"
          "the table's with --table, else tic-tac-toe unless the game flags\n"
          "say otherwise.\n"
          "  play [--table=FILE | --width=M --height=N --k=K [--gravity] "
          "[--misere]]\n"
          "       [--book=FILE] [--search_memory=16M] [--threads=T]\n"
          "                                                  (Connect-style, "
          "no table)\n"
          "       [--first=human|ai] [--mark=X|O]            a game\n"
          "  play ... --position=P [--json] [--pv]           one answer\n"
          "  play ... --batch [--json]                       one answer a line",
          argc, argv)) {
    return *done;
  }
  mnk::ExitOnTruncatedTable("play", mnk::kExitTable);
  return mnk::RunGuarded(mnk::Main);
}
