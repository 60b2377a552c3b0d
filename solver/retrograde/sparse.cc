#include "solver/retrograde/sparse.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/game/policy.h"
#include "rules/index/index.h"
#include "table/record.h"

namespace mnk {
namespace {

// One layer: the keys of its canonical positions in play, ascending, and
// their record bytes (value and remoteness) once solved.
struct Layer {
  std::vector<uint64_t> keys;
  std::vector<uint8_t> records;
};

void SortUnique(std::vector<uint64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

// How many distinct positions p's symmetries make of it (its class's size).
uint64_t Images(const Game& game, const Position& p) {
  absl::InlinedVector<Position, 8> seen;
  for (size_t s = 0; s < game.symmetries().size(); ++s) {
    const Position image = game.Transform(p, static_cast<int>(s));
    if (std::find(seen.begin(), seen.end(), image) == seen.end()) {
      seen.push_back(image);
    }
  }
  return seen.size();
}

class SparseSolver {
 public:
  SparseSolver(const Game& game, const SolveOptions& options,
               Solution& solution)
      : game_(game),
        index_(solution.index),
        options_(options),
        stats_(solution.stats),
        layers_(game.cells() + 1),
        last_(game.cells()) {
    stats_.per_ply.assign(game.cells() + 1, 0);
  }

  // The frontier's layer (SolveOptions::frontier) made the last one:
  // kInvalidArgument when the book is empty or holds positions of more
  // than one layer.
  absl::Status SetFrontier() {
    const BookReader& book = *options_.frontier;
    if (book.size() == 0) {
      return absl::InvalidArgumentError(
          "the frontier book is empty: expected every position of a layer "
          "(book --every_position)");
    }
    last_ = index_.At(book.Key(0)).stones();
    for (uint64_t i = 1; i < book.size(); ++i) {
      const int stones = index_.At(book.Key(i)).stones();
      if (stones != last_) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the frontier book holds positions of ", last_, " and of ", stones,
            " stones: expected one layer (book --every_position)"));
      }
    }
    return absl::OkStatus();
  }

  // Layers 0 to the last listed, each from the one before.
  absl::Status ListLayers() {
    layers_[0].keys = {index_.Index(Position{})};
    for (int stones = 0; stones < last_; ++stones) {
      Progress("listing", stones + 1);
      std::vector<uint64_t> next, ended;
      for (const uint64_t key : layers_[stones].keys) {
        const Position p = index_.At(key);
        for (Mask s = game_.LegalMask(p); s != 0; s &= s - 1) {
          const Position child =
              game_.Canonical(Game::Play(p, absl::countr_zero(s)));
          (game_.IsTerminal(child) ? ended : next)
              .push_back(index_.Index(child));
        }
        if (absl::Status s =
                CheckMemory(stones + 1, next.size() + ended.size());
            !s.ok()) {
          return s;
        }
      }
      SortUnique(next);
      SortUnique(ended);
      CountEnded(stones + 1, ended);
      listed_ += next.size();
      layers_[stones + 1].keys = std::move(next);
    }
    return absl::OkStatus();
  }

  // Every layer's records, from the last back to the empty board: the
  // frontier's from the book (kFailedPrecondition, naming the position,
  // when it lacks one), the others from their children.
  absl::Status SolveLayers() {
    for (int stones = last_; stones >= 0; --stones) {
      Progress("solving", stones);
      Layer& layer = layers_[stones];
      layer.records.resize(layer.keys.size());
      const bool frontier = options_.frontier != nullptr && stones == last_;
      for (size_t i = 0; i < layer.keys.size(); ++i) {
        const Position p = index_.At(layer.keys[i]);
        if (frontier) {
          const std::optional<BookEntry> e = options_.frontier->Find(p);
          if (!e.has_value()) {
            return absl::FailedPreconditionError(absl::StrCat(
                "the frontier book lacks ", game_.Format(p), " of ", stones,
                " stones: expected every position of its layer in play"));
          }
          layer.records[i] = RecordArrays::Details(e->value, e->remoteness);
        } else {
          layer.records[i] = SolvePosition(p, stones);
        }
        Count(stones, p,
              static_cast<Value>(layer.records[i] >> kRemotenessBits));
      }
      stats_.index_visits += layer.keys.size();
    }
    const uint8_t start = layers_[0].records[0];
    stats_.start_value = static_cast<Value>(start >> kRemotenessBits);
    stats_.start_remoteness = start & kMaxRemoteness;
    if (options_.progress) std::fputc('\n', stderr);
    return absl::OkStatus();
  }

  // The layers one after the other: the book's keys, ascending.
  BookEntries TakeEntries() {
    BookEntries book;
    book.complete = options_.frontier == nullptr;
    book.keys.reserve(listed_);
    book.records.reserve(listed_);
    for (Layer& layer : layers_) {
      assert(book.keys.empty() || layer.keys.empty() ||
             book.keys.back() < layer.keys.front());
      book.keys.insert(book.keys.end(), layer.keys.begin(), layer.keys.end());
      book.records.insert(book.records.end(), layer.records.begin(),
                          layer.records.end());
      layer = Layer();
    }
    return book;
  }

 private:
  // The record byte of p, in play: the policy's best child.
  uint8_t SolvePosition(const Position& p, int stones) const {
    const Layer& below = layers_[stones + 1];
    BestMove best;
    for (Mask s = game_.LegalMask(p); s != 0; s &= s - 1) {
      const int cell = absl::countr_zero(s);
      const Position child = Game::Play(p, cell);
      uint8_t c;
      if (const std::optional<Value> end = game_.Primitive(child)) {
        c = RecordArrays::Details(*end, 0);
      } else {
        const uint64_t key = index_.Index(game_.Canonical(child));
        const auto it =
            std::lower_bound(below.keys.begin(), below.keys.end(), key);
        assert(it != below.keys.end() && *it == key);
        c = below.records[it - below.keys.begin()];
      }
      best.Add(cell, static_cast<Value>(c >> kRemotenessBits),
               c & kMaxRemoteness);
    }
    assert(!best.empty());
    return RecordArrays::Details(best.value(), best.remoteness());
  }

  // The children that end the game, as the dense solver counts them.
  void CountEnded(int stones, const std::vector<uint64_t>& ended) {
    for (const uint64_t key : ended) {
      const Position p = index_.At(key);
      const Value value = *game_.Primitive(p);
      const uint64_t images = Count(stones, p, value);
      stats_.terminal += images;
      if (value == Value::kDraw) {
        stats_.full_draws += images;
      } else {
        const bool x_won = (value == Value::kWin) == (p.side_to_move() == 0);
        (x_won ? stats_.x_wins : stats_.o_wins) += images;
      }
    }
  }

  // Counts p's class (reachable, by ply, by value); returns its size.
  uint64_t Count(int stones, const Position& p, Value value) {
    const uint64_t images = Images(game_, p);
    stats_.reachable += images;
    ++stats_.canonical;
    stats_.per_ply[stones] += images;
    (value == Value::kWin    ? stats_.wins
     : value == Value::kDraw ? stats_.draws
                             : stats_.losses) += images;
    return images;
  }

  absl::Status CheckMemory(int stones, uint64_t children) const {
    const uint64_t bytes = 9 * listed_ + 8 * children;
    if (bytes <= options_.max_bytes) return absl::OkStatus();
    return absl::ResourceExhaustedError(absl::StrFormat(
        "solving %s over its reachable positions needs more than the "
        "limit of %.1f GiB: %d positions in play up to ply %d and %d "
        "children of ply %d listed so far",
        game_.spec().Name(), options_.max_bytes / 1073741824.0, listed_,
        stones - 1, children, stones - 1));
  }

  void Progress(const char* what, int stones) const {
    if (!options_.progress) return;
    absl::FPrintF(stderr, "\rsolve %s: %s ply %d, %d positions in play so far ",
                  game_.spec().Name(), what, stones, listed_);
  }

  const Game& game_;
  const PositionIndex& index_;
  const SolveOptions& options_;
  SolveStats& stats_;
  std::vector<Layer> layers_;
  int last_;  // the last layer solved: the full board's, or the frontier's
  uint64_t listed_ = 1;  // positions in play listed (the empty board first)
};

}  // namespace

absl::StatusOr<Solution> SolveSparse(const Game& game,
                                     const SolveOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (absl::Status s = CheckSolvable(game); !s.ok()) return s;
  Solution solution(game, TableLayout::Book());
  SparseSolver solver(game, options, solution);
  if (options.frontier != nullptr) {
    if (absl::Status s = solver.SetFrontier(); !s.ok()) return s;
  }
  if (absl::Status s = solver.ListLayers(); !s.ok()) return s;
  if (absl::Status s = solver.SolveLayers(); !s.ok()) return s;
  solution.kept = LayerSink::MakeBook(solver.TakeEntries());
  solution.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return solution;
}

}  // namespace mnk
