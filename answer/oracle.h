// Answers to positions: what a table, or the exact search after an opening
// book, says of a position and of each of its moves (an Oracle, which
// AnswerSource in answer.h hands out), the limits of a search's answer,
// and the reasons an answer fails (AnswerFailure).
//
//   absl::StatusOr<mnk::Analysis> a = mnk::Analyze(table, pos);
//   mnk::Oracle searched(search.get());  // a ConnectSearch, not a table
//   absl::StatusOr<mnk::Analysis> b = searched.Analyze(pos);
#ifndef MNK_ANSWER_ORACLE_H_
#define MNK_ANSWER_ORACLE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "rules/game/game.h"
#include "search/connect.h"
#include "table/record.h"
#include "table/table.h"

namespace mnk {

// One legal move and what it leads to, seen by the side to move.
struct MoveEval {
  int cell;
  Value value;
  int remoteness;  // plies to the end from the analysed position
};

struct Analysis {
  Position position;
  Record record;
  // Every legal move in board order: by cell; with gravity by column, left
  // to right (held inline: no allocation for a board of up to 16 cells or
  // columns).
  absl::InlinedVector<MoveEval, 16> moves;
};

// Probes the position and each of its children: 1 + (legal moves) lookups.
absl::StatusOr<Analysis> Analyze(const Table& table, const Position& p);
// The same, with the table's file checked for changes before and after
// (Table::CheckUnchanged): an answer only from a table that stayed the same
// all along. Two fstat() calls more: for one answer at a time (serve, the
// game); a batch checks at each read and write instead.

// Progress of an answer that takes a while: moves solved, moves in all.
using Progress = std::function<void(int done, int total)>;

// "thinking: 3 of 7 moves done, 4.2s": what a game and --position show of
// a search that has taken `spent` so far.
std::string ProgressLine(int done, int total, absl::Duration spent);

// The limits of one answer that takes a search (a table's answers take
// none): checked inside the search (SearchLimits).
struct AnswerLimits {
  // The most positions searched; 0: no limit (kResourceExhausted past it).
  uint64_t max_nodes = 0;
  // The longest the answer may take, from the start of Analyze;
  // absl::InfiniteDuration(): no limit (kDeadlineExceeded past it).
  absl::Duration max_time = absl::InfiniteDuration();
  // Stops the search once set, from any thread (kCancelled).
  const std::atomic<bool>* cancel = nullptr;
  // Called on the searching thread about every 20 ms; true stops the search
  // (kCancelled).
  std::function<bool()> poll;
};

// A time limit given in seconds by a binding or a flag: 0 and +infinity
// mean none; kInvalidArgument naming `name` for a negative value or NaN.
absl::StatusOr<absl::Duration> TimeLimit(double seconds,
                                         absl::string_view name);

// Why an answer failed, carried by its status (a payload, never the
// message's text) and read by FailureOf: what each binding maps to its own
// error (exception, status code, HTTP status).
enum class AnswerFailure {
  kNone,          // OK
  kBadPosition,   // kInvalidArgument: not a position of the game
  kNodeLimit,     // kResourceExhausted: the search's node budget
  kDeadline,      // kDeadlineExceeded: the answer's time limit
  kCancelled,     // kCancelled: the cancel flag or the poll
  kTableDamaged,  // kDataLoss: a page that fails its checksum
  kTableChanged,  // kDataLoss: the file was changed in place
  kNoMemory,      // kResourceExhausted: memory could not be had
  kOther,         // anything else (the code says what)
};
// `status` marked with `failure` (for the code the table above gives).
absl::Status WithFailure(absl::Status status, AnswerFailure failure);
// The failure `status` carries; for an unmarked one, by its code alone:
// kDataLoss a damaged table, kResourceExhausted no memory, else kOther.
AnswerFailure FailureOf(const absl::Status& status);
// True for a search stopped by its AnswerLimits: kNodeLimit, kDeadline or
// kCancelled.
bool IsSearchStop(const absl::Status& status);

// What an answer must hold: every move's outcome (eval, --position, the
// batch, serve), or the position's result and the policy's move alone (a
// game's moves and hints). A table answers both alike; a search answers
// the second far sooner (ConnectSearch::BestMove), leaving `moves` empty.
enum class Need { kEveryMove, kBestMove };

// What answers positions: a table (lookups), or the exact search (for a
// Connect-style board without a table), after an opening book when there
// is one (a table in the book layout, search/book/book.h). Made from a
// table implicitly, so that every function below takes a Table too. Refers
// to the table, book or search, which must outlive it.
class Oracle {
 public:
  Oracle(const Table& table) : table_(&table) {}  // NOLINT: implicit
  // Each answer of the search keeps within `limits` (AnswerLimits says
  // what Analyze gives past each).
  explicit Oracle(ConnectSearch* search, const Table* book = nullptr,
                  AnswerLimits limits = {})
      : search_(search), book_(book), limits_(std::move(limits)) {}

  const Game& game() const {
    return table_ != nullptr ? table_->game() : search_->game();
  }
  // True when answers come from a search (and may take seconds).
  bool searches() const { return search_ != nullptr; }
  // True when the answer to a valid position takes no search: a table's,
  // the book's, or the rules' (the game is over).
  bool AnswersAtOnce(const Position& p) const;
  // The position and each move's outcome (or, for Need::kBestMove from a
  // search, the policy's move alone); `progress` is called as a search
  // goes through the moves (a table needs none).
  absl::StatusOr<Analysis> Analyze(const Position& p,
                                   const Progress& progress = {},
                                   Need need = Need::kEveryMove) const;
  // The table's (or book's) Table::CheckUnchanged; OK for a search alone.
  absl::Status CheckUnchanged() const {
    return table_ != nullptr  ? table_->CheckUnchanged()
           : book_ != nullptr ? book_->CheckUnchanged()
                              : absl::OkStatus();
  }

 private:
  // The status of a search of p stopped by its limits, marked with its
  // AnswerFailure.
  absl::Status Stopped(const Position& p, SearchStop why) const;
  // The answer from the book: nullopt unless it holds p and every move.
  std::optional<Analysis> FromBook(const Position& p) const;

  const Table* table_ = nullptr;
  ConnectSearch* search_ = nullptr;
  const Table* book_ = nullptr;
  AnswerLimits limits_;
};

}  // namespace mnk

#endif  // MNK_ANSWER_ORACLE_H_
