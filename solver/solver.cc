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
  // [begin, end). Inside visit, legal() refers to that position, and after
  // PrepareChildren() so does Child().
  template <typename Visit>
  void Walk(uint64_t begin, uint64_t end, Visit&& visit) {
    uint32_t occupied = index_.Shape(stones_, begin);
    uint64_t global = index_.layer_offset(stones_) + begin * patterns_;
    for (uint64_t shape = begin; shape < end; ++shape) {
      PrepareShape(occupied);
      uint32_t slots = (uint32_t{1} << (stones_ / 2)) - 1;
      for (uint64_t r = 0; r < patterns_; ++r, ++global) {
        slots_ = slots;
        Position p;
        for (uint32_t b = slots; b != 0; b &= b - 1) {
          p.o |= cell_bit_[__builtin_ctz(b)];
        }
        p.x = occupied & ~p.o;
        visit(global, p);
        if (r + 1 < patterns_) {
          const uint32_t low = slots & -slots;
          const uint32_t ripple = slots + low;
          slots = ripple | ((slots ^ ripple) >> (2 + __builtin_ctz(low)));
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
    return child_base_[cell] + pattern;
  }

  // Makes Child() work for the current position (not the full board).
  void PrepareChildren() {
    const uint32_t slots = slots_;
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
    // Occupied cells c_0 < c_1 < ...: low[j] sums C(c_i, i + 1) for i < j,
    // high[j] sums C(c_i, i + 2) for i >= j (their slot moves up by one).
    int cells[kMaxGravityCells];
    int count = 0;
    for (uint32_t s = occupied; s != 0; s &= s - 1) {
      cells[count] = __builtin_ctz(s);
      cell_bit_[count++] = s & -s;
    }
    if (stones_ == index_.cells()) return;
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
      const uint64_t child_shape =
          game_.spec().gravity
              ? index_.ShapeRank(occupied | uint32_t{1} << cell)
              : low[jc] + PositionIndex::Binomial(cell, jc + 1) + high[jc];
      child_base_[cell] = child_offset_ + child_shape * child_patterns_;
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
  uint32_t cell_bit_[kMaxGravityCells];
  int slot_[kMaxGravityCells];
  uint64_t child_base_[kMaxGravityCells];  // index of the child's block
  uint64_t low_pattern_[kMaxGravityCells + 1];
  uint64_t high_pattern_[kMaxGravityCells + 1];
};

// A child's byte in the layer arrays (value << 6 | remoteness) to the policy
// score of moving there, for the parent: one load instead of a switch.
struct ChildScores {
  int16_t score[256];
  ChildScores() {
    for (int b = 0; b < 256; ++b) {
      const Value v = Negate(static_cast<Value>(b >> 6));
      score[b] =
          v == Value::kUnreachable ? -30000 : PolicyScore(v, (b & 63) + 1);
    }
  }
};
const ChildScores kChildScores;

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
  const bool compact = options.compact;
  const bool forward = game.spec().gravity || options.forward_reachability;
  const uint64_t bytes =
      (compact ? CompactLayout(index).bytes()
               : RecordView::ValueBytes(index.size()) + 2 * index.size()) +
      2 * widest + (forward ? index.size() / 8 : 0);
  if (bytes > options.max_bytes) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "solving %s needs %.1f GiB for %u indexed positions; the limit is "
        "%.1f GiB%s",
        game.spec().Name(), bytes / 1073741824.0, index.size(),
        options.max_bytes / 1073741824.0,
        compact ? "" : " (the compact layout needs less)"));
  }
  Solution solution(game, compact);
  RecordArrays& records = solution.records;
  const CompactLayout layout(index);
  const int threads = std::max(1, options.threads);
  Progress progress(options.progress, game.spec().Name(),
                    index.size() * (forward ? 2 : 1));
  // With gravity, mark the reachable indices in a bitmap first.
  std::vector<uint64_t> reached(forward ? (index.size() + 63) / 64 : 0, 0);
  // Words at a layer's edge are shared with the layer being marked.
  auto is_reached = [&](uint64_t i) {
    return __atomic_load_n(&reached[i >> 6], __ATOMIC_RELAXED) >> (i & 63) & 1;
  };
  if (forward) {
    reached[0] = 1;  // the empty board, index 0
    for (int stones = 0; stones < cells; ++stones) {
      progress.SetPhase("marking", stones);
      ForShapes(index, stones, threads, progress,
                [&](uint64_t begin, uint64_t end, Counts&) {
                  LayerWalker walker(game, index, stones);
                  walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
                    if (!is_reached(i) || game.IsTerminal(p)) return;
                    walker.PrepareChildren();
                    for (uint32_t s = walker.legal(); s != 0; s &= s - 1) {
                      const uint64_t child = walker.Child(__builtin_ctz(s));
                      __atomic_fetch_or(&reached[child >> 6],
                                        uint64_t{1} << (child & 63),
                                        __ATOMIC_RELAXED);
                    }
                  });
                });
    }
  }

  SolveStats& stats = solution.stats;
  stats.per_ply.assign(cells + 1, 0);
  // One byte a position of the layer being solved and of its child layer:
  // value << 6 | remoteness, so that a child costs one load.
  std::vector<uint8_t> child_layer;
  for (int stones = cells; stones >= 0; --stones) {
    progress.SetPhase("solving", stones);
    const uint64_t offset = index.layer_offset(stones);
    const uint64_t child_offset =
        stones < cells ? index.layer_offset(stones + 1) : 0;
    std::vector<uint8_t> layer(index.layer_size(stones), 0);
    const Counts counts = ForShapes(
        index, stones, threads, progress,
        [&](uint64_t begin, uint64_t end, Counts& c) {
          LayerWalker walker(game, index, stones);
          walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
            // Without gravity: reachable unless the player to move has a
            // line, or the last mover has lines no single stone explains.
            const uint32_t last = p.last_mover();
            const bool last_line = game.HasLine(last);
            bool reachable;
            if (forward) {
              reachable = is_reached(i);
            } else {
              reachable = !game.HasLine(p.mover());
              if (reachable && last_line) {
                reachable = false;
                for (uint32_t s = last; s != 0 && !reachable; s &= s - 1) {
                  reachable = !game.HasLine(last & ~(s & -s));
                }
              }
            }
            if (!reachable) {
              if (!compact) records.SetDetails(i, 0, kNoMove);
              return;
            }
            ++c.reachable;
            Value value;
            int plies = 0, move = kNoMove;
            if (last_line) {
              value = Value::kLoss;
              ++c.terminal;
              ++(p.side_to_move() == 0 ? c.o_wins : c.x_wins);
            } else if (p.occupied() == game.full_mask()) {
              value = Value::kDraw;
              ++c.terminal;
              ++c.full_draws;
            } else {
              walker.PrepareChildren();
              int best = -(1 << 20);
              uint8_t best_child = 0;
              for (uint32_t s = walker.legal(); s != 0; s &= s - 1) {
                const int cell = __builtin_ctz(s);
                const uint8_t child =
                    child_layer[walker.Child(cell) - child_offset];
                const int score = kChildScores.score[child];
                if (score > best) {
                  best = score;
                  best_child = child;
                  move = cell;
                  if (child == static_cast<uint8_t>(Value::kLoss) << 6) {
                    break;  // a win at once: nothing is better
                  }
                }
              }
              value = Negate(static_cast<Value>(best_child >> 6));
              assert(value != Value::kUnreachable);
              plies = (best_child & 63) + 1;
            }
            ++(value == Value::kWin    ? c.wins
               : value == Value::kDraw ? c.draws
                                       : c.losses);
            layer[i - offset] = static_cast<uint8_t>(value) << 6 | plies;
            if (!compact) records.SetDetails(i, layer[i - offset], move);
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
    if (!compact) {
      for (uint64_t i = 0; i < layer.size(); ++i) {
        if (layer[i] != 0) {
          records.SetValue(offset + i, static_cast<Value>(layer[i] >> 6));
        }
      }
    } else if (stones % 2 == 0) {
      const uint64_t first = layout.Entry(offset, stones);
      for (uint64_t i = 0; i < layer.size(); ++i) {
        if (layer[i] != 0) {
          CompactLayout::Put(solution.compact.data(), first + i,
                             static_cast<Value>(layer[i] >> 6));
        }
      }
    }
    if (stones == 0) {
      stats.start_value = static_cast<Value>(layer[0] >> 6);
      stats.start_remoteness = layer[0] & 63;
    }
    child_layer = std::move(layer);
  }
  stats.seconds = SecondsSince(start);
  return solution;
}

}  // namespace mnk
