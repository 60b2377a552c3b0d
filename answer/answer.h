// The answer call: a game's answers, from where they come, chosen in one
// place for every tool and binding (play, serve, the benchmarks, the C
// library, the Python module, the WebAssembly module): a table file the
// user names; else the game's built-in table (data/builtin.h); else, on a
// Connect-style board, the exact search after an opening book (the
// user's, else the built-in one). Answer() parses a position and answers
// it, a search within limits checked inside the search; a failure's
// reason is read by FailureOf (oracle.h).
//
//   mnk::SourceOptions options;                 // built-in, or:
//   options.table = "/tables/5x4k4g.mnk";
//   absl::StatusOr<std::unique_ptr<mnk::AnswerSource>> source =
//       mnk::AnswerSource::Open(mnk::GameSpec{5, 4, 4, true}, options);
//   absl::StatusOr<mnk::Analysis> a = (*source)->Answer("X..../.....");
//   mnk::AnswerLimits limits;                   // for a search
//   limits.max_time = absl::Seconds(2);
//   a = (*source)->Answer(position, limits);
//   if (mnk::FailureOf(a.status()) == mnk::AnswerFailure::kDeadline) ...
#ifndef MNK_ANSWER_ANSWER_H_
#define MNK_ANSWER_ANSWER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "answer/oracle.h"
#include "rules/game/game.h"
#include "search/connect.h"
#include "table/table.h"

namespace mnk {

struct SourceOptions {
  // A table file; empty: the game's built-in table, if any.
  std::string table;
  // The opening book of a searched game; empty: the built-in one, if any.
  std::string book;
  // False: no built-in table or book (a Connect-style game with no table
  // file is then searched from its first move).
  bool builtin = true;
  Table::Placement placement = Table::Placement::kMapped;
  // A searched game's transposition tables, shared among `searches`
  // searches (each answers one position at a time), each with
  // `search_threads` threads.
  uint64_t search_memory = uint64_t{16} << 20;
  // How messages name search_memory ("--search_memory=1K"); empty: by its
  // bytes.
  std::string search_memory_name;
  int searches = 1;
  int search_threads = 1;
  // The most positions a search visits for one answer; 0: no limit.
  uint64_t max_nodes = 0;
  // How the caller's user makes a table of a game with no built-in one
  // (the end of kNotFound's message); empty: SolveHint, the `solve` tool's
  // command lines.
  std::function<std::string(const GameSpec&)> how_to_solve;
};

// The `solve` flags of a game: "--width=4 --height=4 --k=4 --gravity".
std::string SolveFlags(const GameSpec& spec);
// How the command line makes a table of `spec`: "`solve FLAGS --estimate`
// says what solving it takes; `solve FLAGS --out=FILE` makes one, and
// --table=FILE plays from it".
std::string SolveHint(const GameSpec& spec);

// The games answered with no file, in the order a menu lists them: those
// of the built-in tables (tic-tac-toe, misère tic-tac-toe, Connect-style
// 4x4) and Connect Four 7x6, searched after the built-in book.
std::vector<GameSpec> BuiltinGames();

class AnswerSource {
 public:
  // The source of `spec`'s answers. With options.table, the table must be
  // of `spec` when it is given (kFailedPrecondition naming both games) and
  // complete (a book there is refused: it goes in options.book). Without,
  // `spec` is required: its built-in table, or the search. Errors: the
  // table's (Table::Load); kNotFound "no built-in table ..." for a game
  // with neither table nor search (saying what would make one);
  // kInvalidArgument for options out of range (search memory too little:
  // naming --search_memory); kResourceExhausted when the search's memory
  // cannot be had.
  static absl::StatusOr<std::unique_ptr<AnswerSource>> Open(
      std::optional<GameSpec> spec, const SourceOptions& options);
  // The source of a table already loaded; `origin` names it.
  static std::unique_ptr<AnswerSource> Of(Table table, std::string origin);

  const Game& game() const;
  // The table answering (null for a searched game), the book (may be
  // null), and whether answers come from a search.
  const Table* table() const { return table_.get(); }
  const Table* book() const { return book_.get(); }
  bool searched() const { return !searches_.empty(); }
  // The positions its searches have visited in all (0 for a table): how a
  // test tells an answer by lookup from one that searched. Read while no
  // answer is under way.
  uint64_t searched_nodes() const;
  // "built-in", a table file's path, or "search".
  const std::string& origin() const { return origin_; }

  // `position` read as a position of the game: kInvalidArgument
  // "position 'P': why" (AnswerFailure::kBadPosition) when it is not one.
  absl::StatusOr<Position> Parse(absl::string_view position) const;

  // The answer call. `position` is parsed (kInvalidArgument "position 'P':
  // why", AnswerFailure::kBadPosition), then answered by the table, the
  // book or the rules at once, or by a search within `limits` (its
  // max_nodes 0: the source's) on a search leased for the call, waiting
  // while every search is busy; `progress` as the search goes through the
  // moves. The table's file is checked before and after (kDataLoss,
  // kTableChanged, once it was changed in place). Thread-safe. Why a call
  // failed: FailureOf (answer/oracle.h).
  absl::StatusOr<Analysis> Answer(absl::string_view position,
                                  const AnswerLimits& limits = {},
                                  const Progress& progress = {},
                                  Need need = Need::kEveryMove) const;
  absl::StatusOr<Analysis> Answer(const Position& p,
                                  const AnswerLimits& limits = {},
                                  const Progress& progress = {},
                                  Need need = Need::kEveryMove) const;
  // The answers to `positions`, in order, on one lease, each within
  // `limits`. The first failure ends the batch, its message starting
  // "position I" (I counted from 0) and its AnswerFailure kept.
  absl::StatusOr<std::vector<Analysis>> AnswerAll(
      absl::Span<const std::string> positions,
      const AnswerLimits& limits = {}) const;

  // One search's use, or none for a table: the oracle to answer with.
  // Its search (if any) is the caller's alone until the lease ends.
  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    // Answers as the source does, a search within `limits` (its
    // max_nodes 0: the source's).
    Oracle oracle(AnswerLimits limits = {}) const;

   private:
    friend class AnswerSource;
    Lease(const AnswerSource* source, ConnectSearch* search)
        : source_(source), search_(search) {}
    const AnswerSource* source_;
    ConnectSearch* search_;
  };
  // A lease on a free search (waiting for one while every search is in
  // use); a table's lease holds none. Thread-safe.
  Lease Take() const;
  // The oracle of a position that takes no search (a table's, the book's,
  // a game over): thread-safe, no lease needed.
  Oracle oracle() const;
  // True when answering `p` (valid) takes a search.
  bool NeedsSearch(const Position& p) const {
    return searched() && !oracle().AnswersAtOnce(p);
  }

 private:
  AnswerSource() = default;
  void Give(ConnectSearch* search) const;
  // The exact search and its book; for a game it cannot play, the error
  // says what would make a table instead.
  absl::Status OpenSearch(const GameSpec& spec, const SourceOptions& options);

  std::unique_ptr<Table> table_;
  std::unique_ptr<Table> book_;
  std::vector<std::unique_ptr<ConnectSearch>> searches_;
  uint64_t max_nodes_ = 0;
  std::string origin_;
  mutable absl::Mutex mu_;
  mutable std::vector<ConnectSearch*> free_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mnk

#endif  // MNK_ANSWER_ANSWER_H_
