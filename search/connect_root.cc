// ConnectSearch's root (search/connect.h): a position's exact score by
// null windows, each searched by one thread or by several sharing the table
// (Lazy SMP), and the answers built from it: a position's value and
// remoteness, every move's (its moves shared out among the threads), the
// best move, within a node budget.
#include <atomic>
#include <cassert>
#include <functional>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "rules/game/policy.h"
#include "search/connect.h"

namespace mnk {

int ConnectSearch::SolveScore(Worker& w, const Bits& b, int floor) {
  if (board_.CanWinNext(b)) return (cells_ + 1 - b.moves) / 2;
  // Null windows: first the value (is it a win? a loss?), which prunes
  // the most, then the score, each window at the bound the last one
  // returned (fail-soft bounds are often the score itself), none below
  // the floor.
  int lo = std::max(-(cells_ - b.moves) / 2, floor);
  int hi = (cells_ + 1 - b.moves) / 2;
  bool up = true;
  while (lo < hi) {
    const int mid = lo <= 0 && 0 < hi     ? 0
                    : lo <= -1 && -1 < hi ? -1
                    : up                  ? lo
                                          : hi - 1;
    const int r = NullWindow(w, b, mid);
    if (w.stopped) return 0;
    if (r <= mid) {
      hi = r;
      up = false;
    } else {
      lo = r;
      up = true;
    }
  }
  return lo;
}

int ConnectSearch::ScoreToRemoteness(int score, int moves) const {
  if (score == 0) return cells_ - moves;  // a draw fills the board
  // The winner's last stone is the m-th, m one of two numbers by the
  // score; the winner's stones go down on plies of one parity.
  const int winner_parity = score > 0 ? (moves + 1) & 1 : moves & 1;
  int m = cells_ + 2 - 2 * (score > 0 ? score : -score);
  if ((m & 1) != winner_parity) --m;
  return m - moves;
}

SearchResult ConnectSearch::ResultOf(int score, int moves) const {
  const Value value = score > 0   ? Value::kWin
                      : score < 0 ? Value::kLoss
                                  : Value::kDraw;
  return {value, ScoreToRemoteness(score, moves)};
}

int ConnectSearch::ScoreOf(SearchResult result, int moves) const {
  if (result.value == Value::kDraw) return 0;
  // ScoreToRemoteness: the winner's last stone is the m-th, m = cells + 2
  // - 2 |score| or one less.
  const int magnitude = (cells_ + 2 - (moves + result.remoteness)) / 2;
  return result.value == Value::kWin ? magnitude : -magnitude;
}

SearchResult ConnectSearch::Solve(const Position& p) {
  return SolveAbove(main_, p, -cells_);
}

SearchResult ConnectSearch::SolveAfter(const Position& p, SearchResult parent) {
  return SolveAbove(main_, p, -ScoreOf(parent, p.stones() - 1));
}

SearchResult ConnectSearch::SolveAbove(Worker& w, const Position& p,
                                       int floor) {
  if (const std::optional<Value> end = game_.Primitive(p)) return {*end, 0};
  if (const std::optional<SearchResult> known = KnownResult(p)) return *known;
  const Bits b = board_.ToBits(p);
  return ResultOf(SolveScore(w, b, floor), b.moves);
}

MoveAnalysis ConnectSearch::Analyze(
    const Position& p, const std::function<void(int, int)>& progress) {
  MoveAnalysis a;
  if (const std::optional<Value> end = game_.Primitive(p)) {
    a.result = {*end, 0};
    return a;
  }
  // The position's score, when known, bounds its moves': none leaves the
  // opponent a better score than its negation (the windows below it are
  // not searched).
  const std::optional<SearchResult> known = KnownResult(p);
  const int floor = known ? -ScoreOf(*known, p.stones()) : -cells_;
  const std::vector<int> cells = game_.LegalMoves(p);
  std::vector<SearchResult> children(cells.size());
  if (!SolveMoves(p, cells, floor, progress, &children)) {
    return a;  // unfinished (AnalyzeWithin)
  }
  mnk::BestMove best;
  for (size_t i = 0; i < cells.size(); ++i) {
    a.moves.push_back(
        {cells[i], Negate(children[i].value), children[i].remoteness + 1});
    best.Add(cells[i], children[i].value, children[i].remoteness);
  }
  a.best_move = best.cell();
  a.result = {best.value(), best.remoteness()};
  return a;
}

// The moves of one Analyze shared out among threads (SolveMoves). A thread
// takes the first move no thread has begun; once none is left, the
// unsolved move the fewest threads have begun, and searches it too
// (sharing the table and marking their nodes busy, they part ways and
// finish it sooner). The first to solve a move answers for it and stops
// the others on it: its done flag is their Worker::stop.
class ConnectSearch::MovePool {
 public:
  explicit MovePool(const std::vector<int>& cells)
      : cells_(cells),
        done_(new std::atomic<bool>[cells.size()]()),
        joined_(new std::atomic<bool>[cells.size()]()),
        begun_(cells.size()),
        results_(cells.size()) {}

  int moves() const { return static_cast<int>(cells_.size()); }
  int cell(int move) const { return cells_[move]; }
  const std::atomic<bool>* done(int move) const { return &done_[move]; }
  // Set once a second thread takes the move.
  const std::atomic<bool>* joined(int move) const { return &joined_[move]; }

  // The move to search next, or -1 once every move is done.
  int Take() {
    absl::MutexLock lock(&mu_);
    int pick = -1;
    for (int i = 0; i < moves(); ++i) {
      if (done_[i].load(std::memory_order_relaxed)) continue;
      if (pick < 0 || begun_[i] < begun_[pick]) pick = i;
    }
    if (pick < 0) return -1;
    if (begun_[pick]++ > 0) joined_[pick].store(true);
    return pick;
  }
  // The result of `move`, from a thread that solved it, unless another
  // thread did first.
  void Solved(int move, SearchResult result) {
    absl::MutexLock lock(&mu_);
    if (done_[move].load(std::memory_order_relaxed)) return;
    results_[move] = result;
    ++solved_;
    done_[move].store(true);
  }
  // Stops every thread: each move is done, unsolved.
  void Stop() {
    absl::MutexLock lock(&mu_);
    stopped_ = true;
    for (int i = 0; i < moves(); ++i) done_[i].store(true);
  }
  bool stopped() const {
    absl::MutexLock lock(&mu_);
    return stopped_;
  }
  int solved() const {
    absl::MutexLock lock(&mu_);
    return solved_;
  }
  // The results by move, once every thread has left the pool.
  std::vector<SearchResult> results() const {
    absl::MutexLock lock(&mu_);
    return results_;
  }

 private:
  const std::vector<int>& cells_;
  const std::unique_ptr<std::atomic<bool>[]> done_;
  const std::unique_ptr<std::atomic<bool>[]> joined_;
  mutable absl::Mutex mu_;
  std::vector<int> begun_ ABSL_GUARDED_BY(mu_);
  std::vector<SearchResult> results_ ABSL_GUARDED_BY(mu_);
  int solved_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopped_ ABSL_GUARDED_BY(mu_) = false;
};

bool ConnectSearch::SolveMoves(const Position& p, const std::vector<int>& cells,
                               int floor,
                               const std::function<void(int, int)>& progress,
                               std::vector<SearchResult>* children) {
  const int n = static_cast<int>(cells.size());
  if (threads_ == 1 || cells_ - p.stones() - 1 < kParallelEmpty) {
    for (int i = 0; i < n; ++i) {
      (*children)[i] = SolveAbove(main_, Game::Play(p, cells[i]), floor);
      if (main_.stopped) return false;
      if (progress) progress(i + 1, n);
    }
    return true;
  }
  // Side by side: the helpers with the same budget as the calling thread
  // (which alone looks at the clock and polls, and reports progress).
  MakeBusySlots();
  MovePool pool(cells);
  std::vector<Worker> helpers(threads_ - 1);
  std::vector<std::thread> threads;
  for (Worker& helper : helpers) {
    helper.alone = true;
    helper.cancel = main_.cancel;
    helper.node_limit = main_.node_limit - main_.nodes;
    try {
      threads.emplace_back(
          [&] { SolveFromPool(helper, p, floor, pool, nullptr); });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: search with those started
    }
  }
  int reported = 0;
  const auto report = [&](int solved) {
    while (progress && reported < solved) progress(++reported, n);
  };
  main_.alone = true;
  SolveFromPool(main_, p, floor, pool, [&] { report(pool.solved()); });
  main_.alone = false;
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < threads.size(); ++i) helper_nodes_ += helpers[i].nodes;
  if (pool.stopped()) {
    main_.stopped = true;
    return false;
  }
  report(n);
  *children = pool.results();
  return true;
}

void ConnectSearch::SolveFromPool(Worker& w, const Position& p, int floor,
                                  MovePool& pool,
                                  const std::function<void()>& after_each) {
  for (int move; (move = pool.Take()) >= 0;) {
    w.stop = pool.done(move);
    w.joined = pool.joined(move);
    const SearchResult child =
        SolveAbove(w, Game::Play(p, pool.cell(move)), floor);
    w.stop = nullptr;
    w.joined = nullptr;
    if (!w.stopped) {
      pool.Solved(move, child);
    } else if (w.why.has_value() || w.nodes >= w.node_limit ||
               (w.cancel != nullptr && w.cancel->load())) {
      pool.Stop();  // a limit stopped it
      return;
    } else {
      w.stopped = false;  // another thread solved the move first
    }
    if (after_each) after_each();
  }
}

std::optional<MoveAnalysis> ConnectSearch::AnalyzeWithin(
    const Position& p, const SearchLimits& limits,
    const std::function<void(int, int)>& progress, SearchStop* stop) {
  return Within(limits, stop, [&] { return Analyze(p, progress); });
}

bool ConnectSearch::ScoreAtMost(const Position& child, int bound) {
  if (const std::optional<Value> end = game_.Primitive(child)) {
    // Lost to the line just made (scored as the win it was a ply ago), or
    // a full board.
    const int score =
        *end == Value::kDraw ? 0 : -(cells_ + 2 - child.stones()) / 2;
    return score <= bound;
  }
  if (const std::optional<SearchResult> known = KnownResult(child)) {
    return ScoreOf(*known, child.stones()) <= bound;
  }
  const Bits b = board_.ToBits(child);
  if (board_.CanWinNext(b)) return (cells_ + 1 - b.moves) / 2 <= bound;
  return NullWindow(main_, b, bound) <= bound;
}

int ConnectSearch::NullWindow(Worker& w, const Bits& b, int bound) {
  if (w.alone || threads_ == 1 || cells_ - b.moves < kParallelEmpty) {
    return Negamax(w, b, bound, bound + 1);
  }
  assert(&w == &main_);
  // Lazy SMP: every thread searches the same window, sharing the table
  // (and marking its nodes busy); the first to finish answers and stops
  // the others.
  MakeBusySlots();
  static const std::atomic<bool> kTogether{true};
  alignas(64) std::atomic<bool> stop{false};
  std::vector<Worker> helpers(threads_ - 1);
  std::vector<int> scores(threads_ - 1);
  std::vector<std::thread> threads;
  for (int i = 0; i < threads_ - 1; ++i) {
    helpers[i].stop = &stop;
    helpers[i].cancel = main_.cancel;
    helpers[i].joined = &kTogether;
    try {
      threads.emplace_back([&, i] {
        scores[i] = Negamax(helpers[i], b, bound, bound + 1);
        if (!helpers[i].stopped) stop.store(true);
      });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: search with those started
    }
  }
  main_.stop = &stop;
  main_.joined = &kTogether;
  int score = Negamax(main_, b, bound, bound + 1);
  stop.store(true);  // whichever helpers still search stop
  for (std::thread& t : threads) t.join();
  main_.stop = nullptr;
  main_.joined = nullptr;
  for (size_t i = 0; i < threads.size(); ++i) {
    helper_nodes_ += helpers[i].nodes;
    if (main_.stopped && !helpers[i].stopped) {  // a helper finished first
      main_.stopped = false;
      main_.why.reset();
      score = scores[i];
    }
  }
  return score;
}

MoveAnalysis ConnectSearch::BestMove(
    const Position& p, const std::function<void(int, int)>& progress) {
  MoveAnalysis a;
  if (const std::optional<Value> end = game_.Primitive(p)) {
    a.result = {*end, 0};
    return a;
  }
  const Bits b = board_.ToBits(p);
  const std::optional<SearchResult> known = KnownResult(p);
  const int score =
      known ? ScoreOf(*known, b.moves) : SolveScore(main_, b, -cells_);
  if (main_.stopped) return a;
  a.result = ResultOf(score, b.moves);
  // Every child scores at least -score for its mover; the best reach it.
  const std::vector<int> cells = game_.LegalMoves(p);
  for (size_t i = 0; i < cells.size(); ++i) {
    const bool best = ScoreAtMost(Game::Play(p, cells[i]), -score);
    if (main_.stopped) return a;
    if (progress)
      progress(static_cast<int>(i + 1), static_cast<int>(cells.size()));
    if (best) {
      a.best_move = cells[i];
      return a;
    }
  }
  assert(false && "no move reaches the position's score");
  return a;
}

std::optional<MoveAnalysis> ConnectSearch::BestMoveWithin(
    const Position& p, const SearchLimits& limits,
    const std::function<void(int, int)>& progress, SearchStop* stop) {
  return Within(limits, stop, [&] { return BestMove(p, progress); });
}

std::optional<MoveAnalysis> ConnectSearch::Within(
    const SearchLimits& limits, SearchStop* stop,
    const std::function<MoveAnalysis()>& answer) {
  const uint64_t max_nodes =
      limits.max_nodes == 0 ? ~uint64_t{0} : limits.max_nodes;
  main_.node_limit =
      max_nodes > ~main_.nodes ? ~uint64_t{0} : main_.nodes + max_nodes;
  main_.cancel = limits.cancel;
  main_.limits = &limits;
  main_.why.reset();
  const bool checks = limits.deadline != absl::InfiniteFuture() ||
                      static_cast<bool>(limits.poll);
  main_.next_poll = absl::Now() + kPollInterval;
  main_.next_check = checks ? main_.nodes : ~uint64_t{0};
  MoveAnalysis a = answer();
  const bool stopped = main_.stopped;
  const std::optional<SearchStop> why = main_.why;
  main_.node_limit = ~uint64_t{0};
  main_.cancel = nullptr;
  main_.limits = nullptr;
  main_.next_check = ~uint64_t{0};
  main_.stopped = false;
  if (!stopped) return a;
  if (stop != nullptr) {
    *stop = why.has_value() ? *why
            : limits.cancel != nullptr && limits.cancel->load()
                ? SearchStop::kCancelled
                : SearchStop::kNodes;
  }
  return std::nullopt;
}

bool ConnectSearch::CheckLimits(Worker& w) {
  w.next_check = w.nodes + kCheckNodes;
  const absl::Time now = absl::Now();
  if (now >= w.limits->deadline) {
    w.why = SearchStop::kDeadline;
    return true;
  }
  if (w.limits->poll && now >= w.next_poll) {
    w.next_poll = now + kPollInterval;
    if (w.limits->poll()) {
      w.why = SearchStop::kCancelled;
      return true;
    }
  }
  return false;
}

}  // namespace mnk
