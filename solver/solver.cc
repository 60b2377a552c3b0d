#include "solver/solver.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mnk {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Walks the positions of one layer in index order, shape by shape, and gives
// the index of every child in O(1): the ranks of a child's shape and pattern
// are sums over the parent's cells and O slots in which only the terms at or
// above the new stone's slot change, so prefix and suffix sums prepared once
// per shape (and once per pattern) give each child's rank with a few adds.
class LayerWalker {
 public:
  LayerWalker(const Game& game, const PositionIndex& index, int stones)
      : game_(game),
        index_(index),
        stones_(stones),
        x_moves_(stones % 2 == 0),
        patterns_(index.patterns(stones)),
        child_patterns_(stones < index.cells() ? index.patterns(stones + 1)
                                               : 0),
        child_offset_(stones < index.cells() ? index.layer_offset(stones + 1)
                                             : 0) {}

  // Calls visit(global_index, position) for every position of the shapes
  // [begin, end). Inside visit, legal() and Child() refer to that position.
  template <typename Visit>
  void Walk(uint64_t begin, uint64_t end, Visit&& visit) {
    uint32_t occupied = index_.Shape(stones_, begin);
    uint64_t global = index_.layer_offset(stones_) + begin * patterns_;
    for (uint64_t shape = begin; shape < end; ++shape) {
      PrepareShape(occupied);
      uint32_t slots = (uint32_t{1} << (stones_ / 2)) - 1;
      for (uint64_t r = 0; r < patterns_; ++r, ++global) {
        PreparePattern(slots);
        Position p;
        p.o = PositionIndex::Deposit(slots, occupied);
        p.x = occupied & ~p.o;
        visit(global, p);
        if (r + 1 < patterns_) {
          const uint32_t low = slots & -slots;
          const uint32_t ripple = slots + low;
          slots = ripple | (((slots ^ ripple) >> 2) / low);
        }
      }
      if (shape + 1 < end) occupied = index_.NextShape(occupied);
    }
  }

  // The cells a move can go to from the current shape (ignoring whether the
  // position is terminal).
  uint32_t legal() const { return legal_; }

  // Global index of the current position's child after a move to `cell`.
  uint64_t Child(int cell) const {
    const int jc = slot_[cell];
    const int t = __builtin_popcount(slots_ & ((uint32_t{1} << jc) - 1));
    const uint64_t pattern = x_moves_ ? low_pattern_[t] + high_pattern_[t]
                                      : low_pattern_[t] +
                                            PositionIndex::Binomial(jc, t + 1) +
                                            high_pattern_[t];
    return child_offset_ + child_shape_[cell] * child_patterns_ + pattern;
  }

 private:
  void PrepareShape(uint32_t occupied) {
    const uint32_t empty = game_.full_mask() & ~occupied;
    if (game_.spec().gravity) {
      const int m = game_.width();
      const uint32_t bottom_row = game_.full_mask() & ~(game_.full_mask() >> m);
      legal_ = empty & (bottom_row | (occupied >> m));
    } else {
      legal_ = empty;
    }
    if (stones_ == index_.cells()) return;
    // Occupied cells c_0 < c_1 < ...: low[j] sums C(c_i, i + 1) for i < j,
    // high[j] sums C(c_i, i + 2) for i >= j (their slot moves up by one).
    int cells[kMaxGravityCells];
    int count = 0;
    for (uint32_t s = occupied; s != 0; s &= s - 1) {
      cells[count++] = __builtin_ctz(s);
    }
    uint64_t low[kMaxGravityCells + 1], high[kMaxGravityCells + 1];
    low[0] = 0;
    for (int j = 0; j < count; ++j) {
      low[j + 1] = low[j] + PositionIndex::Binomial(cells[j], j + 1);
    }
    high[count] = 0;
    for (int j = count - 1; j >= 0; --j) {
      high[j] = high[j + 1] + PositionIndex::Binomial(cells[j], j + 2);
    }
    for (uint32_t s = legal_; s != 0; s &= s - 1) {
      const int cell = __builtin_ctz(s);
      const int jc = __builtin_popcount(occupied & ((uint32_t{1} << cell) - 1));
      slot_[cell] = jc;
      child_shape_[cell] =
          game_.spec().gravity
              ? index_.ShapeRank(occupied | uint32_t{1} << cell)
              : low[jc] + PositionIndex::Binomial(cell, jc + 1) + high[jc];
    }
  }

  void PreparePattern(uint32_t slots) {
    if (stones_ == index_.cells()) return;
    slots_ = slots;
    // O slots s_0 < s_1 < ...: a stone added at slot jc moves every O slot at
    // or above jc up by one; an O stone there also takes index t.
    int s[kMaxGravityCells];
    int count = 0;
    for (uint32_t b = slots; b != 0; b &= b - 1) s[count++] = __builtin_ctz(b);
    low_pattern_[0] = 0;
    for (int i = 0; i < count; ++i) {
      low_pattern_[i + 1] =
          low_pattern_[i] + PositionIndex::Binomial(s[i], i + 1);
    }
    const int extra = x_moves_ ? 1 : 2;
    high_pattern_[count] = 0;
    for (int i = count - 1; i >= 0; --i) {
      high_pattern_[i] =
          high_pattern_[i + 1] + PositionIndex::Binomial(s[i] + 1, i + extra);
    }
  }

  const Game& game_;
  const PositionIndex& index_;
  const int stones_;
  const bool x_moves_;
  const uint64_t patterns_;
  const uint64_t child_patterns_;
  const uint64_t child_offset_;
  uint32_t legal_ = 0;
  uint32_t slots_ = 0;
  int slot_[kMaxGravityCells];
  uint64_t child_shape_[kMaxGravityCells];
  uint64_t low_pattern_[kMaxGravityCells + 1];
  uint64_t high_pattern_[kMaxGravityCells + 1];
};

// Without gravity: whether a position with a legal piece count can arise.
bool LocallyReachable(const Game& game, const Position& p) {
  if (game.HasLine(p.mover())) return false;
  const uint32_t last = p.last_mover();
  if (!game.HasLine(last)) return true;
  for (uint32_t s = last; s != 0; s &= s - 1) {
    if (!game.HasLine(last & ~(s & -s))) return true;
  }
  return false;
}

// Counts kept per thread and added up after each layer.
struct Counts {
  uint64_t reachable = 0, terminal = 0, x_wins = 0, o_wins = 0, full_draws = 0,
           wins = 0, draws = 0, losses = 0;
  void Add(const Counts& c) {
    reachable += c.reachable;
    terminal += c.terminal;
    x_wins += c.x_wins;
    o_wins += c.o_wins;
    full_draws += c.full_draws;
    wins += c.wins;
    draws += c.draws;
    losses += c.losses;
  }
};

// Draws "solve 4,4,4: layer 9/16  1.2e6 of 1.0e7 positions  3.1e6/s  2 s
// left" on standard error until stopped.
class Progress {
 public:
  Progress(bool enabled, std::string name, uint64_t total)
      : enabled_(enabled), name_(std::move(name)), total_(total) {
    if (enabled_) thread_ = std::thread([this] { Run(); });
  }
  ~Progress() {
    if (!enabled_) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
    Draw();
    std::fputc('\n', stderr);
  }
  void SetPhase(const char* phase, int layer) {
    phase_.store(phase);
    layer_.store(layer);
  }
  void Add(uint64_t n) { done_.fetch_add(n, std::memory_order_relaxed); }
  void ResetCount() { done_.store(0); }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(250),
                         [this] { return stop_; })) {
      Draw();
    }
  }
  void Draw() {
    const double seconds = SecondsSince(start_);
    const uint64_t done = done_.load();
    const double rate = seconds > 0 ? done / seconds : 0;
    const double left = rate > 0 ? (total_ - std::min(done, total_)) / rate : 0;
    std::fprintf(stderr,
                 "\rsolve %s: %s layer %2d  %.3g of %.3g positions  %.3g/s  "
                 "%.0f s left   ",
                 name_.c_str(), phase_.load(), layer_.load(),
                 static_cast<double>(done), static_cast<double>(total_), rate,
                 left);
  }

  const bool enabled_;
  const std::string name_;
  const uint64_t total_;
  const Clock::time_point start_ = Clock::now();
  std::atomic<const char*> phase_{"solving"};
  std::atomic<int> layer_{0};
  std::atomic<uint64_t> done_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

// Runs work(begin, end, counts) over the shapes of a layer in chunks handed
// out to `threads` threads, and adds up their counts.
template <typename Work>
Counts ForShapes(const PositionIndex& index, int stones, int threads,
                 Progress& progress, Work&& work) {
  const uint64_t shapes = index.shapes(stones);
  const uint64_t patterns = index.patterns(stones);
  // About 64K positions a chunk; small layers run on the calling thread.
  const uint64_t chunk = std::max<uint64_t>(1, (uint64_t{1} << 16) / patterns);
  if (threads <= 1 || shapes <= chunk) {
    Counts counts;
    work(0, shapes, counts);
    progress.Add(shapes * patterns);
    return counts;
  }
  std::atomic<uint64_t> next{0};
  std::vector<Counts> counts(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (;;) {
        const uint64_t begin = next.fetch_add(chunk);
        if (begin >= shapes) break;
        const uint64_t end = std::min(shapes, begin + chunk);
        work(begin, end, counts[t]);
        progress.Add((end - begin) * patterns);
      }
    });
  }
  for (std::thread& thread : pool) thread.join();
  Counts total;
  for (const Counts& c : counts) total.Add(c);
  return total;
}

}  // namespace

absl::StatusOr<Solution> Solve(const Game& game, const SolveOptions& options) {
  const Clock::time_point start = Clock::now();
  const PositionIndex index(game);
  const int cells = game.cells();
  uint64_t widest = 0;
  for (int l = 0; l <= cells; ++l) {
    widest = std::max(widest, index.layer_size(l));
  }
  const uint64_t bytes =
      RecordView::ValueBytes(index.size()) + 2 * index.size() + 2 * widest;
  if (bytes > options.max_bytes) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "solving %s needs %.1f GiB for %u indexed positions; the limit is "
        "%.1f GiB",
        game.spec().Name(), bytes / 1073741824.0, index.size(),
        options.max_bytes / 1073741824.0));
  }
  Solution solution(game);
  RecordArrays& records = solution.records;
  uint8_t* remoteness = records.remoteness();
  uint8_t* best_move = records.best_move();
  const int threads = std::max(1, options.threads);
  const bool gravity = game.spec().gravity;
  Progress progress(options.progress, game.spec().Name(),
                    index.size() * (gravity ? 2 : 1));

  // With gravity, mark the reachable indices (remoteness byte 1) first.
  if (gravity) {
    remoteness[index.layer_offset(0)] = 1;
    for (int stones = 0; stones < cells; ++stones) {
      progress.SetPhase("marking", stones);
      ForShapes(index, stones, threads, progress,
                [&](uint64_t begin, uint64_t end, Counts&) {
                  LayerWalker walker(game, index, stones);
                  walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
                    if (remoteness[i] == 0 || game.IsTerminal(p)) return;
                    for (uint32_t s = walker.legal(); s != 0; s &= s - 1) {
                      __atomic_store_n(
                          &remoteness[walker.Child(__builtin_ctz(s))], 1,
                          __ATOMIC_RELAXED);
                    }
                  });
                });
    }
  }

  SolveStats& stats = solution.stats;
  stats.per_ply.assign(cells + 1, 0);
  std::vector<uint8_t> child_values;  // layer stones + 1, one Value a byte
  for (int stones = cells; stones >= 0; --stones) {
    progress.SetPhase("solving", stones);
    const uint64_t offset = index.layer_offset(stones);
    const uint64_t child_offset =
        stones < cells ? index.layer_offset(stones + 1) : 0;
    std::vector<uint8_t> values(index.layer_size(stones), 0);
    const Counts counts = ForShapes(
        index, stones, threads, progress,
        [&](uint64_t begin, uint64_t end, Counts& c) {
          LayerWalker walker(game, index, stones);
          walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
            const bool reachable =
                gravity ? remoteness[i] != 0 : LocallyReachable(game, p);
            if (!reachable) {
              remoteness[i] = 0;
              return;
            }
            ++c.reachable;
            Value value;
            int plies = 0, move = kNoMove;
            if (game.HasLine(p.last_mover())) {
              value = Value::kLoss;
              ++c.terminal;
              ++(p.side_to_move() == 0 ? c.o_wins : c.x_wins);
            } else if (p.occupied() == game.full_mask()) {
              value = Value::kDraw;
              ++c.terminal;
              ++c.full_draws;
            } else {
              int best = -1 << 20;
              value = Value::kUnreachable;
              for (uint32_t s = walker.legal(); s != 0; s &= s - 1) {
                const int cell = __builtin_ctz(s);
                const uint64_t child = walker.Child(cell);
                const Value v = Negate(
                    static_cast<Value>(child_values[child - child_offset]));
                assert(v != Value::kUnreachable);
                const int r = remoteness[child] + 1;
                const int score = PolicyScore(v, r);
                if (score > best) {
                  best = score;
                  value = v;
                  plies = r;
                  move = cell;
                }
              }
            }
            ++(value == Value::kWin    ? c.wins
               : value == Value::kDraw ? c.draws
                                       : c.losses);
            values[i - offset] = static_cast<uint8_t>(value);
            remoteness[i] = plies;
            best_move[i] = move;
          });
        });
    stats.per_ply[stones] = counts.reachable;
    stats.reachable += counts.reachable;
    stats.terminal += counts.terminal;
    stats.x_wins += counts.x_wins;
    stats.o_wins += counts.o_wins;
    stats.full_draws += counts.full_draws;
    stats.wins += counts.wins;
    stats.draws += counts.draws;
    stats.losses += counts.losses;
    for (uint64_t i = 0; i < values.size(); ++i) {
      if (values[i] != 0) {
        records.SetValue(offset + i, static_cast<Value>(values[i]));
      }
    }
    child_values = std::move(values);
  }
  stats.seconds = SecondsSince(start);
  return solution;
}

}  // namespace mnk
