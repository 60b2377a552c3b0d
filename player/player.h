// The player: answers positions and plays games from a table, by lookups,
// or, on a Connect-style board with no table (Connect Four 7x6), by the
// exact search. Used by the `play` binary; kept as a library so tests can
// drive it with strings.
//
//   absl::StatusOr<mnk::Analysis> a = mnk::Analyze(table, pos);
//   mnk::Oracle searched(search.get());  // a ConnectSearch, not a table
//   std::cout << mnk::AnswerLine(searched, "......./......./...", false);
//   std::cout << mnk::AnalysisJson(table.game(), *a);
//   std::cout << mnk::AnswerLine(table, "X.O/X.X/OO.", /*json=*/true);
//   mnk::PlayGame(table, {.human_first = true}, std::cin, std::cout);
#ifndef MNK_PLAYER_PLAYER_H_
#define MNK_PLAYER_PLAYER_H_

#include <atomic>
#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "solver/game/game.h"
#include "solver/search/connect.h"
#include "table/record.h"
#include "table/table.h"

namespace mnk {

// Input lines longer than this are refused (and read no further).
inline constexpr size_t kMaxLineBytes = 4096;

// One legal move and what it leads to, seen by the side to move.
struct MoveEval {
  int cell;
  Value value;
  int remoteness;  // plies to the end from the analysed position
};

struct Analysis {
  Position position;
  Record record;
  // Every legal move, by cell (held inline: no allocation for a board of up
  // to 16 cells or columns).
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

// What an answer must hold: every move's outcome (eval, --position, the
// batch, serve), or the position's result and the policy's move alone (a
// game's moves and hints). A table answers both alike; a search answers
// the second far sooner (ConnectSearch::BestMove), leaving `moves` empty.
enum class Need { kEveryMove, kBestMove };

// What answers positions: a table (lookups), or the exact search (for a
// Connect-style board without a table), after an opening book when there
// is one (a table in the book layout, solver/book/book.h). Made from a
// table implicitly, so that every function below takes a Table too. Refers
// to the table, book or search, which must outlive it.
class Oracle {
 public:
  Oracle(const Table& table) : table_(&table) {}  // NOLINT: implicit
  // `max_nodes`: 0, or the most positions a search may visit for one
  // answer (past it, Analyze gives kResourceExhausted). `cancel`, when
  // given, stops a search once set, from any thread (Analyze then gives
  // kCancelled).
  explicit Oracle(ConnectSearch* search, const Table* book = nullptr,
                  uint64_t max_nodes = 0,
                  const std::atomic<bool>* cancel = nullptr)
      : search_(search), book_(book), max_nodes_(max_nodes), cancel_(cancel) {}

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
  // The answer from the book: nullopt unless it holds p and every move.
  std::optional<Analysis> FromBook(const Position& p) const;

  const Table* table_ = nullptr;
  ConnectSearch* search_ = nullptr;
  const Table* book_ = nullptr;
  uint64_t max_nodes_ = 0;
  const std::atomic<bool>* cancel_ = nullptr;
};

absl::StatusOr<Analysis> AnalyzeUnchanged(const Oracle& oracle,
                                          const Position& p,
                                          const Progress& progress = {},
                                          Need need = Need::kEveryMove);

// "win in 3", "draw in 5", "loss in 2"; once the game is over "lost", "won"
// (misère: the opponent made the line) or "drawn".
std::string Outcome(Value value, int remoteness);

// Multi-line report for --position.
std::string AnalysisText(const Game& game, const Analysis& a);
// One JSON object (written as nlohmann-json would) and a newline:
// {"game":{"width","height","k","gravity","misere"},"position","to_move",
// "value","remoteness","best_move","moves":[{"move","value","remoteness"}]};
// with gravity also "best_column" and "column". Remoteness is null from a
// compact table.
std::string AnalysisJson(const Game& game, const Analysis& a);
// The same, appended to *out (the batch's hot path).
void AppendAnalysisJson(const Game& game, const Analysis& a, std::string* out);
// One line: position=... to_move=X value=win remoteness=1 best_move=4
// moves=1:loss:2,4:win:1,8:loss:2
std::string AnalysisLine(const Game& game, const Analysis& a);
// The same, appended to *out (the batch's hot path).
void AppendAnalysisLine(const Game& game, const Analysis& a, std::string* out);

// The batch protocol: the answer to one input line (without its '\n'), as
// one line ending in '\n'. A bad line gives "error: <what is wrong>" or, with
// json, {"input": <the line's first 64 bytes>, "error": ...}. `too_long`
// says the line was cut at kMaxLineBytes.
std::string AnswerLine(const Oracle& oracle, absl::string_view line, bool json,
                       bool too_long = false);
// The same, appended to *out. Returns the table's error when the table
// could not answer (a damaged page: the line is an error line too), OK
// otherwise, bad lines included.
absl::Status AppendAnswerLine(const Oracle& oracle, absl::string_view line,
                              bool json, bool too_long, std::string* out);

// Reads one line (without its '\n', or "\r\n") of at most kMaxLineBytes;
// a longer line is consumed to its end and reported through *too_long.
// False at end of input with nothing read.
bool ReadLine(std::istream& in, std::string* line, bool* too_long);

// The board as text. Without gravity empty cells show their number; with
// gravity they show '.', with column numbers underneath. `marks` gives the
// characters for the first player's and the second player's stones.
std::string DrawBoard(const Game& game, const Position& p,
                      const char marks[2] = nullptr);

struct GameOptions {
  bool human_first = true;
  char human_mark = 'X';  // the person's stones are drawn with this mark
};

// Interactive games against the table or search, one after another while
// the person answers "y" to "Play again?". Reads moves and the commands
// hint, eval, help and quit from `in`; never fails on bad input. Returns 0
// (also at end of input), or kTableFailed when the table could not answer
// (a damaged page, or the file changed while in use: checked before every
// move of the player's). A search that takes over a second says how far
// it got, a line a move solved.
inline constexpr int kTableFailed = 3;
int PlayGame(const Oracle& oracle, const GameOptions& options, std::istream& in,
             std::ostream& out);

}  // namespace mnk

#endif  // MNK_PLAYER_PLAYER_H_
