// The exact search for Connect-style (gravity) boards too big to tabulate,
// Connect Four 7x6 first: what `play` and `serve` answer with when there is
// no table, and the oracle of the big-board checks. Built as the fastest
// public Connect Four solvers are (Pons' connect4, Steininger's c4):
// bitboards, negamax with alpha-beta on null windows (first the value, then
// the exact score), optionally on several threads that share the table
// (every move's score: a move to a thread; otherwise Lazy SMP, where a
// thread leaves a move another thread is searching for last, as in
// ABDADA), a transposition table of bounds in two-entry buckets
// where a position and its mirror image share an entry (the nodes near the
// end in a small table of their own), immediate wins and
// forced replies settled before searching (a move that leaves the opponent no
// safe reply ends a node's search; a node with one safe move plays it without a
// table entry), bounds from the lines each side can still make and from
// claimeven, transposition cutoffs, moves ordered by the table's refutation,
// then the threats they make (ties to those right above a playable cell).
// docs/connect-four.md has its figures.
//
//   absl::StatusOr<std::unique_ptr<mnk::ConnectSearch>> search =
//       mnk::ConnectSearch::Create(game, {/*table_bits=*/24});
//   mnk::SearchResult r = (*search)->Solve(pos);       // value, remoteness
//   mnk::MoveAnalysis a = (*search)->Analyze(pos);     // and every move's
//   mnk::MoveAnalysis m = (*search)->BestMove(pos);    // the move alone
//
// It shares the game seam with the rest of the project only at its edges
// (positions in, the rules' verdict on finished games); inside it keeps its
// own board, so that the tests that compare it with the tables compare two
// implementations of the rules. Column-major, with one sentinel bit above
// each column, so that a move, a line and a threat are a few shifts:
//
//   7x6, bit numbers              the seam's cell `row * width + col` (row 0
//    6 13 20 27 34 41 48  <- sentinels, always 0     at the top) is bit
//    5 12 19 26 33 40 47                             col * (height + 1) +
//    4 11 18 25 32 39 46                             (height - 1 - row)
//    3 10 17 24 31 38 45
//    2  9 16 23 30 37 44   A board needs width * (height + 1) <= 64 bits:
//    1  8 15 22 29 36 43   7x6 takes 49, 8x7 64; 8x8 does not fit.
//    0  7 14 21 28 35 42
//
// Scores, as in Pons' solver: with n stones on the board, a win whose last
// stone is the m-th scores (cells + 2 - m) / 2 for the winner and the
// negation for the loser; a draw scores 0. The sooner the win, the higher
// the score; scores fit in 8 bits. Remoteness follows from the score, n and
// the parity of m (the winner's stones go down on every other ply).
#ifndef MNK_SEARCH_CONNECT_H_
#define MNK_SEARCH_CONNECT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "rules/game/game.h"
#include "search/connect_board.h"
#include "search/connect_table.h"
#include "search/result.h"

namespace mnk {

struct ConnectSearchOptions {
  // The transposition table holds 2^table_bits entries of 16 bytes, in
  // buckets of two: 24 bits take 256 MiB; the nodes near the end keep
  // theirs in another table of 1 MiB at most (kNearEmpty). Kept between
  // searches (their bounds hold for any root).
  int table_bits = 24;
  // Threads searching at once, sharing the table. Analyze gives each
  // thread a move of its own to solve when the moves have kParallelEmpty or
  // more empty cells (once none is left, a thread joins the move the fewest
  // search, and the first to finish answers); elsewhere each null-window
  // search of a position that big runs on all of them (Lazy SMP), and the
  // first to finish answers. Where threads search the same position, at
  // a node with kDeferEmpty or more empty cells a thread searches a move
  // (but the first) that another thread is searching only after the
  // node's other moves (ABDADA), so that the threads part ways. The
  // answers do not depend on it; the positions searched do.
  int threads = 1;
};

// One legal move and what it leads to, seen by the side to move.
struct MoveResult {
  int cell;
  Value value;
  int remoteness;  // plies to the end from the analysed position
};

// A position's value and remoteness, the move the perfect player makes
// (mnk::PolicyScore, ties to the lowest cell; -1 once the game is over),
// and every legal move's outcome, by cell (empty from BestMove).
struct MoveAnalysis {
  SearchResult result;
  int best_move = -1;
  std::vector<MoveResult> moves;
};

// The limits of one answer (AnalyzeWithin, BestMoveWithin), all checked
// inside the search: the node budget at every node, the cancel flag at
// every node, the clock (and `poll`) every kCheckNodes nodes of the
// calling thread.
struct SearchLimits {
  // The most positions each thread searches for the answer; 0: no limit.
  uint64_t max_nodes = 0;
  // When the search gives up; absl::InfiniteFuture(): never.
  absl::Time deadline = absl::InfiniteFuture();
  // Stops the search once set, from any thread.
  const std::atomic<bool>* cancel = nullptr;
  // Called on the calling thread about every kPollInterval while it
  // searches; true stops the search (the Python module checks for Ctrl-C
  // there).
  std::function<bool()> poll;
};

// Why a search within limits stopped before its answer.
enum class SearchStop { kNodes, kDeadline, kCancelled };

class ConnectSearch {
 public:
  static constexpr int kMinTableBits = 10;
  static constexpr uint64_t kEntryBytes = ConnectTable::kEntryBytes;
  static constexpr int kMaxTableBits = 32;
  static constexpr int kMaxThreads = 64;
  // Searches of positions with fewer empty cells stay on one thread.
  static constexpr int kParallelEmpty = 20;
  // Threads leave moves others are searching for last at nodes with at
  // least this many empty cells (ConnectSearchOptions::threads).
  static constexpr int kDeferEmpty = 14;
  // Nodes with this many empty cells or fewer neither read nor write the
  // transposition table: their subtrees are small, and re-searching one
  // costs less than waiting for its entry's cache line to come from memory.
  static constexpr int kUntabledEmpty = 8;
  // Nodes with more empty cells than kUntabledEmpty and at most kNearEmpty
  // keep their entries in a table of their own, of 2^kNearTableBits
  // entries (1 MiB, about a core's L2 cache; the main table's size if that
  // is smaller): their entries are many and soon useless, and there they
  // stay in the cache instead of being read from memory. Overwritten
  // sooner, they let the search visit more positions, yet in less time
  // (docs/connect-four.md).
  static constexpr int kNearEmpty = 13;
  static constexpr int kNearTableBits = 16;
  // The calling thread looks at the clock every this many nodes, and calls
  // SearchLimits::poll at most this often.
  static constexpr uint64_t kCheckNodes = 4096;
  static constexpr absl::Duration kPollInterval = absl::Milliseconds(20);
  // The most table bits `bytes` of memory hold (at most kMaxTableBits);
  // below kMinTableBits when too little.
  static int TableBitsFor(uint64_t bytes);
  // The table bits of each of `shares` searches sharing `bytes` of memory
  // (TableBitsFor(bytes / shares)); kInvalidArgument when too little for
  // the smallest table, naming `flag` as the user wrote it
  // ("--search_memory=1") and the least that serves, or more than
  // kMaxTableBits take (naming the most).
  static absl::StatusOr<int> TableBitsForFlag(uint64_t bytes, int shares,
                                              absl::string_view flag);

  // Refuses, with kInvalidArgument naming why, a game without gravity, a
  // misère game, a board over 64 bits as drawn above, or table_bits out of
  // [kMinTableBits, kMaxTableBits]; kResourceExhausted when the table's
  // memory cannot be had.
  static absl::StatusOr<std::unique_ptr<ConnectSearch>> Create(
      const Game& game, const ConnectSearchOptions& options = {});
  ~ConnectSearch();

  const Game& game() const { return game_; }

  // Exact results known without a search (an opening book's): the result
  // of a position, or nullopt. Solve, and the root of Analyze and BestMove
  // and its moves, take a known result instead of searching; the tree
  // below them never asks. `known` must be thread-safe and outlive the
  // search; empty: none known.
  using Known = std::function<std::optional<SearchResult>(const Position&)>;
  void set_known(Known known) { known_ = std::move(known); }

  // The exact value and remoteness of a valid position (Game::Validate).
  SearchResult Solve(const Position& p);
  // Solve, for a position p after a move from a position whose result (for
  // its own side to move) is `parent`: that side scores no better by its
  // move to p, so p's side to move scores at least the negation, and the
  // windows below it are not searched. The worse the parent's result of
  // all p's parents, the less is searched.
  SearchResult SolveAfter(const Position& p, SearchResult parent);
  // Solve for each legal move, and the policy's choice among them.
  // `progress`, when given, is called on the calling thread with the
  // number of moves solved so far and the number of moves, after each
  // move it solves (and for those other threads solved meanwhile).
  MoveAnalysis Analyze(const Position& p,
                       const std::function<void(int, int)>& progress = {});
  // Analyze within `limits`: nullopt (and *stop, when given, saying why)
  // once one is reached. What it learnt stays in the table, so asking
  // again goes further.
  std::optional<MoveAnalysis> AnalyzeWithin(
      const Position& p, const SearchLimits& limits,
      const std::function<void(int, int)>& progress = {},
      SearchStop* stop = nullptr);
  // The position's result and the policy's move alone (`moves` left
  // empty): the exact score, then one null-window test a move, in the
  // policy's order, until a move reaches it. What the perfect player needs
  // to move, at a fraction of Analyze's cost (which solves every move
  // exactly). `progress` is called after each move tested.
  MoveAnalysis BestMove(const Position& p,
                        const std::function<void(int, int)>& progress = {});
  // BestMove within `limits`, as AnalyzeWithin.
  std::optional<MoveAnalysis> BestMoveWithin(
      const Position& p, const SearchLimits& limits,
      const std::function<void(int, int)>& progress = {},
      SearchStop* stop = nullptr);

  // Positions searched since the search was made, by every thread.
  uint64_t nodes() const { return main_.nodes + helper_nodes_; }
  // Forgets every entry of the transposition table (for measurements that
  // start each search from nothing).
  void Clear();

 private:
  // One thread's search: its count of positions and its limit (a search
  // that reaches it stops: each node then returns at once, storing
  // nothing, and `stopped` says so), the flag that stops it when another
  // thread has answered, and the caller's cancel flag. The calling
  // thread's worker also checks the deadline and polls (`limits`) once
  // its nodes reach `next_check`, and keeps why it stopped in `why`. A
  // worker `alone` searches its null windows on its own thread (Analyze's
  // moves side by side). A worker marks the nodes it searches busy
  // (ABDADA) only while `joined` says another thread searches its root
  // too (null: none does).
  struct alignas(64) Worker {
    uint64_t nodes = 0;
    uint64_t node_limit = ~uint64_t{0};
    bool stopped = false;
    const std::atomic<bool>* stop = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    uint64_t next_check = ~uint64_t{0};
    const SearchLimits* limits = nullptr;
    absl::Time next_poll;
    std::optional<SearchStop> why;
    bool alone = false;
    const std::atomic<bool>* joined = nullptr;
  };
  class MovePool;
  using Bits = ConnectBoard::Bits;

  ConnectSearch(const Game& game, const ConnectSearchOptions& options);

  int ScoreToRemoteness(int score, int moves) const;
  // A score's value and remoteness, with `moves` stones on the board.
  SearchResult ResultOf(int score, int moves) const;
  // The score of a result, with `moves` stones on the board (ResultOf's
  // inverse).
  int ScoreOf(SearchResult result, int moves) const;
  // The known result of `p`, if any (known_).
  std::optional<SearchResult> KnownResult(const Position& p) const {
    return known_ ? known_(p) : std::nullopt;
  }
  // True when the score of `child` (any valid position, over or not) for
  // its side to move is at most `bound`: one null-window search.
  bool ScoreAtMost(const Position& child, int bound);
  // Runs `answer` within `limits` on the main worker: nullopt (and *stop
  // set, when given) when the search stopped there.
  std::optional<MoveAnalysis> Within(
      const SearchLimits& limits, SearchStop* stop,
      const std::function<MoveAnalysis()>& answer);
  // The deadline and the poll (SearchLimits), every kCheckNodes nodes:
  // true (and w.why set) when the search must stop.
  static bool CheckLimits(Worker& w);
  // The exact score of a position where the side to move cannot win at
  // once, and where it can, known to be at least `floor`.
  int SolveScore(Worker& w, const Bits& b, int floor);
  // Solve, for a position known to score at least `floor` for its side
  // to move (-cells_: nothing known).
  SearchResult SolveAbove(Worker& w, const Position& p, int floor);
  // Analyze's results of the moves `cells` of p (each scoring at least
  // `floor`), in `children` by move, solved one after another or side by
  // side (ConnectSearchOptions::threads); false when the search stopped.
  bool SolveMoves(const Position& p, const std::vector<int>& cells, int floor,
                  const std::function<void(int, int)>& progress,
                  std::vector<SearchResult>* children);
  // One thread's share of SolveMoves' moves side by side: moves from `pool`
  // until none is left or the search stops (then it stops the pool).
  void SolveFromPool(Worker& w, const Position& p, int floor, MovePool& pool,
                     const std::function<void()>& after_each);
  int Negamax(Worker& w, const Bits& b, int alpha, int beta);
  // Negamax, given the winning cells of b's opponent (its caller has
  // them).
  int Negamax(Worker& w, const Bits& b, uint64_t opponent_threats, int alpha,
              int beta);
  // The busy_ slot of a key (its high bits mixed: the low ones are the
  // first columns').
  static uint64_t BusySlot(uint64_t key) {
    return (key * 0x9E3779B97F4A7C15ull) >> (64 - kBusyBits);
  }
  // True when w marks the positions it searches busy, at a node with
  // `work` empty cells.
  static bool MarksBusy(const Worker& w, int work) {
    return work >= kDeferEmpty && w.joined != nullptr &&
           w.joined->load(std::memory_order_relaxed);
  }
  // Makes busy_, before the first search on several threads starts them.
  void MakeBusySlots();
  // True when another thread is searching the position of `key` (or one
  // that shares its slot).
  bool Busy(uint64_t key) const {
    return busy_[BusySlot(key)].load(std::memory_order_relaxed) != 0;
  }
  // True (and w.stopped set) once w has reached its limit or is told to
  // stop: its nodes then return at once, storing nothing.
  static bool Stopping(Worker& w) {
    w.stopped =
        w.stopped || w.nodes >= w.node_limit ||
        (w.nodes >= w.next_check && CheckLimits(w)) ||
        (w.stop != nullptr && w.stop->load(std::memory_order_relaxed)) ||
        (w.cancel != nullptr && w.cancel->load(std::memory_order_relaxed));
    return w.stopped;
  }
  class MoveList;
  // Lists the `safe` moves of b, scored for ordering, each with the
  // threats it leaves its maker (prefetching the entry of each child with
  // more than one safe reply: the moves' open()); the score of a move that
  // leaves the opponent no safe reply instead, when there is one (the best
  // score still possible).
  std::optional<int> ListMoves(const Bits& b, uint64_t safe,
                               uint64_t opponent_threats,
                               MoveList* moves) const;
  // The least score b's side to move is sure of by one of `moves` and then
  // claimeven (b with an odd number of stones): 1 when a move leaves the
  // opponent lost against it, 0 when one leaves it no win, less otherwise.
  int ClaimevenFloor(const Bits& b, const MoveList& moves) const;
  // Negamax's search of the moves of b (key `key`, `mirrored` as its
  // entry), listed best first, in the window (alpha, beta) with the bounds
  // [lower, upper] known: the score, stored in the table.
  int SearchMoves(Worker& w, const Bits& b, uint64_t key, bool mirrored,
                  const MoveList& moves, int alpha, int beta, int lower,
                  int upper);
  // Negamax on the window (bound, bound + 1), on every thread when the
  // position is big enough and w is not alone.
  int NullWindow(Worker& w, const Bits& b, int bound);

  // Narrows [*lower, *upper] by the key's entry; returns its refutation as
  // a column of the position (`mirrored`: the key is its mirror's), or -1.
  int TableBounds(int moves, uint64_t key, bool mirrored, int* lower,
                  int* upper) const;
  // The table of positions with `moves` stones: near_ or table_.
  const ConnectTable& TableAt(int moves) const {
    return moves >= near_moves_ ? near_ : table_;
  }
  ConnectTable& TableAt(int moves) {
    return moves >= near_moves_ ? near_ : table_;
  }
  // Enhanced transposition cutoff: the score of a child among `moves`
  // whose stored upper bound already lifts the node to beta, if there is
  // one.
  std::optional<int> TranspositionCutoff(const Bits& b, uint64_t moves,
                                         int beta) const;

  const Game game_;
  const ConnectBoard board_;
  const int cells_;
  const int tabled_moves_;  // nodes before this ply use a table
  const int near_moves_;    // nodes from this ply on use near_
  int etc_moves_;  // transposition cutoffs are looked for before this ply
  ConnectTable table_;
  ConnectTable near_;  // kNearEmpty
  const int threads_;
  // Threads: how many search each position (by key, in kBusySlots slots)
  // with kDeferEmpty or more empty cells; null until a search runs on
  // several threads (MakeBusySlots).
  static constexpr int kBusyBits = 16;
  static constexpr uint64_t kBusySlots = uint64_t{1} << kBusyBits;
  std::unique_ptr<std::atomic<uint16_t>[]> busy_;
  Known known_;
  Worker main_;                // the calling thread's search
  uint64_t helper_nodes_ = 0;  // positions searched by the helper threads
};

}  // namespace mnk

#endif  // MNK_SEARCH_CONNECT_H_
