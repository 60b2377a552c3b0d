#include "table/verify.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "solver/game/policy.h"
#include "solver/index/layer_walker.h"
#include "solver/parallel/parallel.h"

namespace mnk {
namespace {

constexpr uint64_t kChunk = 1 << 16;

// One bit an index: the positions reachable from the empty board by the
// rules, found layer by layer.
std::vector<uint64_t> MarkReachable(const Game& game,
                                    const PositionIndex& index, int threads) {
  std::vector<uint64_t> reached((index.size() + 63) / 64, 0);
  reached[0] = 1;  // the empty board
  for (int stones = 0; stones < game.cells(); ++stones) {
    // Positions in index order, children found in O(1), in chunks of
    // shapes of about kChunk positions.
    const uint64_t chunk =
        std::max<uint64_t>(1, kChunk / index.patterns(stones));
    ParallelChunks(
        index.shapes(stones), chunk, threads,
        [&](uint64_t begin, uint64_t end, int) {
          LayerWalker walker(game, index, stones);
          walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
            // Words at a layer's edge are shared with the layer being marked.
            if ((__atomic_load_n(&reached[i >> 6], __ATOMIC_RELAXED) >>
                     (i & 63) &
                 1) == 0 ||
                game.IsTerminal(p)) {
              return;
            }
            walker.PrepareChildren();
            for (uint32_t s = walker.legal(); s != 0; s &= s - 1) {
              const uint64_t c = walker.Child(absl::countr_zero(s));
              __atomic_fetch_or(&reached[c >> 6], uint64_t{1} << (c & 63),
                                __ATOMIC_RELAXED);
            }
          });
        });
  }
  return reached;
}

// The record the rules and the children call for, or a description of a
// child the table lacks. From a compact table only the value is derived.
struct Expected {
  Record record;
  std::string problem;
};

// `child(cell)`: the index of p's child after a move to `cell` (a full
// table's records are read by index).
template <typename ChildIndex>
Expected Derive(const Table& table, const Position& p,
                const ChildIndex& child_index) {
  const Game& game = table.game();
  const bool full = table.layout() == Layout::kFull;
  const int none = full ? 0 : kUnknownRemoteness;
  if (const std::optional<Value> end = game.Primitive(p)) {
    return {{*end, none, kNoMove}, ""};
  }
  if (!full) {
    // Values only: the best of the children's derived values.
    Value best = Value::kUnreachable;
    for (uint32_t s = game.LegalMask(p); s != 0; s &= s - 1) {
      best = std::max(
          best, Negate(table.ValueOf(Game::Play(p, absl::countr_zero(s)))));
    }
    return {{best, kUnknownRemoteness, kNoMove}, ""};
  }
  const RecordView view = table.view();
  int best = -(1 << 20);
  Record expected;
  for (uint32_t s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const Record child = view.Get(child_index(cell));
    if (child.value == Value::kUnreachable) {
      return {{},
              absl::StrCat("its child after ", cell, " is marked unreachable")};
    }
    const Value v = Negate(child.value);
    const int score = PolicyScore(v, child.remoteness + 1);
    if (score > best) {
      best = score;
      expected = {v, child.remoteness + 1, cell};
    }
  }
  return {expected, ""};
}

// Errors found by one thread, merged into the report under a lock.
struct Findings {
  VerifyReport report;
  std::vector<std::string> errors;
  void Add(uint64_t i, const Game& game, const Position& p,
           const std::string& problem) {
    ++report.errors;
    if (errors.size() < 10) {
      errors.push_back(
          absl::StrCat("index ", i, " ", game.Format(p), ": ", problem));
    }
  }
  void MergeInto(VerifyReport& total, std::mutex& mu) {
    std::lock_guard<std::mutex> lock(mu);
    total.indices += report.indices;
    total.reachable += report.reachable;
    total.checked += report.checked;
    total.terminal += report.terminal;
    total.errors += report.errors;
    for (std::string& e : errors) {
      if (total.first_errors.size() < 10) {
        total.first_errors.push_back(std::move(e));
      }
    }
  }
};

// Runs visit(findings, walker, index, position) over every position of layer
// `stones`, in chunks of shapes shared out among the threads.
template <typename Visit>
void ForLayer(const Table& table, int stones, int threads, VerifyReport& total,
              const std::function<void(uint64_t)>& progress, Visit&& visit) {
  const PositionIndex& index = table.index();
  const uint64_t patterns = index.patterns(stones);
  const uint64_t chunk = std::max<uint64_t>(1, kChunk / patterns);
  std::mutex mu;
  ParallelChunks(index.shapes(stones), chunk, threads,
                 [&](uint64_t begin, uint64_t end, int) {
                   Findings mine;
                   LayerWalker walker(table.game(), index, stones);
                   walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
                     visit(mine, walker, i, p);
                   });
                   if (progress) progress((end - begin) * patterns);
                   mine.MergeInto(total, mu);
                 });
}

// 0 when `p` is not the least of its symmetric images (Game::Canonical's
// order: x, then o); else the number of its distinct images, so that the
// canonical positions alone count every position. Most positions are not
// canonical, and most of those show it at the first image that differs.
int OrbitIfCanonical(const Game& game, const Position& p) {
  const int n = static_cast<int>(game.symmetries().size());
  int fixed = 1;  // the symmetries that keep p
  for (int s = 1; s < n; ++s) {
    const uint32_t x = game.TransformMask(p.x, s);
    if (x > p.x) continue;
    if (x < p.x) return 0;
    const uint32_t o = game.TransformMask(p.o, s);
    if (o < p.o) return 0;
    fixed += o == p.o;
  }
  return n / fixed;
}

// A value and remoteness in a byte: Value << 6 | remoteness (0: none).
uint8_t Pack(Value v, int remoteness) {
  return static_cast<uint8_t>(static_cast<int>(v) << 6 | remoteness);
}
Value PackedValue(uint8_t packed) { return static_cast<Value>(packed >> 6); }
int PackedRemoteness(uint8_t packed) { return packed & 63; }

// A compressed table, layer by layer from the last: the stored records of
// even layer s + 2 decoded into memory (a byte an entry), the value and
// remoteness of every stored-canonical position of odd layer s + 1 derived
// from them (a byte an entry), then every stored record of layer s decoded
// and checked against its children. Memory: about five bytes an entry of
// three consecutive layers; work: one pass over each layer, in which only
// canonical positions are looked at closely (the reachable count adds up
// their images). reachable_orbit(i, p): the size of p's symmetry class
// when p is reachable and canonical; -1 when p is not canonical (and may be
// reachable); else 0.
template <typename ReachableOrbit>
VerifyReport VerifyCompressed(const Table& table, int threads,
                              const ReachableOrbit& reachable_orbit,
                              const std::function<void(uint64_t)>& progress) {
  const Game& game = table.game();
  const PositionIndex& index = table.index();
  const CompressedSections& sections = *table.compressed();
  const bool plies = table.has_remoteness();
  VerifyReport total;
  // Layer s + 2's stored value and remoteness, packed; empty past the end.
  std::unique_ptr<uint8_t[]> above;
  // The entry of a position's canonical image in its layer.
  auto entry = [&](const Position& p) {
    return index.Index(game.Canonical(p)) - index.layer_offset(p.stones());
  };
  // The best child of `p` by the policy, from `lookup(cell, child)` (a
  // packed record for a child not over): a packed record and the move; 0
  // when a child has no record.
  auto best = [&](const Position& p, const auto& lookup, int* move) {
    int best_score = -(1 << 20);
    uint8_t result = 0;
    for (uint32_t s = game.LegalMask(p); s != 0; s &= s - 1) {
      const int cell = absl::countr_zero(s);
      const Position child = Game::Play(p, cell);
      Value v;
      int after = 0;
      if (const std::optional<Value> end = game.Primitive(child)) {
        v = Negate(*end);
      } else {
        const uint8_t packed = lookup(cell, child);
        if (PackedValue(packed) == Value::kUnreachable) return uint8_t{0};
        v = Negate(PackedValue(packed));
        after = PackedRemoteness(packed);
      }
      const int score = PolicyScore(v, plies ? after + 1 : 0);
      if (score > best_score) {
        best_score = score;
        result = Pack(v, plies ? after + 1 : 0);
        *move = cell;
      }
    }
    return result;
  };
  const int top = game.cells() - game.cells() % 2;
  for (int stones = top; stones >= 0; stones -= 2) {
    // This layer's stored records, decoded in chunks of whole blocks.
    const uint64_t size = index.layer_size(stones);
    // Not zeroed: Decode sets every entry.
    std::unique_ptr<uint8_t[]> values(new uint8_t[size]),
        moves(new uint8_t[size]), plies_of(new uint8_t[plies ? size : 0]);
    std::atomic<bool> decoded{true};
    ParallelChunks(size, kChunk, threads, [&](uint64_t b, uint64_t e, int) {
      if (!sections.value_reader(stones).Decode(b, e, &values[b]) ||
          !sections.move_reader(stones).Decode(b, e, &moves[b]) ||
          (plies &&
           !sections.remoteness_reader(stones).Decode(b, e, &plies_of[b]))) {
        decoded = false;
      }
      // Value and remoteness packed in `values`, as `above` holds them.
      for (uint64_t j = b; j < e; ++j) {
        values[j] =
            Pack(static_cast<Value>(values[j] + 1), plies ? plies_of[j] : 0);
      }
    });
    if (!decoded) {
      ++total.errors;
      total.first_errors.push_back(absl::StrCat(
          "layer ", stones, ": its sections are damaged",
          table.CheckAll().ok() ? "" : " (a page fails its checksum)"));
      return total;
    }

    // Odd layer s + 1 from layer s + 2 (or the rules, when all is over).
    std::vector<uint8_t> odd;
    if (stones < game.cells()) {
      const uint64_t odd_offset = index.layer_offset(stones + 1);
      odd.assign(index.layer_size(stones + 1), 0);
      const uint64_t above_offset =
          stones + 2 <= game.cells() ? index.layer_offset(stones + 2) : 0;
      ForLayer(table, stones + 1, threads, total, progress,
               [&](Findings& mine, LayerWalker& walker, uint64_t i,
                   const Position& p) {
                 ++mine.report.indices;
                 const int orbit = reachable_orbit(i, p);
                 if (orbit <= 0) return;
                 mine.report.reachable += orbit;
                 if (game.IsTerminal(p)) return;
                 // `above` holds every position of its layer (the
                 // canonical ones' records copied to the others): children
                 // are found in O(1).
                 walker.PrepareChildren();
                 int move = kNoMove;
                 odd[i - odd_offset] = best(
                     p,
                     [&](int cell, const Position&) {
                       return above[walker.Child(cell) - above_offset];
                     },
                     &move);
                 if (odd[i - odd_offset] == 0) {
                   mine.Add(i, game, p, "a child has no stored record");
                 }
               });
    }
    const uint64_t offset = index.layer_offset(stones);
    ForLayer(
        table, stones, threads, total, progress,
        [&](Findings& mine, LayerWalker&, uint64_t i, const Position& p) {
          ++mine.report.indices;
          const uint64_t e = i - offset;
          const int orbit = reachable_orbit(i, p);
          if (orbit < 0) {
            // Not canonical: its image's record, for the odd layer below
            // (the image's entry is never written here).
            values[e] = values[entry(p)];
            return;
          }
          if (orbit == 0) return;
          mine.report.reachable += orbit;
          if (game.IsTerminal(p)) return;
          ++mine.report.checked;
          int move = kNoMove;
          const uint8_t expected = best(
              p, [&](int, const Position& c) { return odd[entry(c)]; }, &move);
          const int stored_value = static_cast<int>(PackedValue(values[e]));
          const int stored_plies = PackedRemoteness(values[e]);
          const int stored_move = moves[e];
          const bool gravity = game.spec().gravity;
          const int want_move = gravity ? move % game.width() : move;
          std::string problem;
          if (expected == 0) {
            problem = "a child has no derived record";
          } else if (stored_value != static_cast<int>(PackedValue(expected)) ||
                     stored_plies != PackedRemoteness(expected)) {
            problem = absl::StrCat(
                "stored ", ValueName(static_cast<Value>(stored_value)),
                plies ? absl::StrCat(" in ", stored_plies) : "",
                ", its children give ", ValueName(PackedValue(expected)),
                plies ? absl::StrCat(" in ", PackedRemoteness(expected)) : "");
          } else if (plies ? stored_move != want_move : false) {
            problem = absl::StrCat("stored move ", stored_move,
                                   " is not the best (", want_move, ")");
          } else if (!plies) {
            // Without remoteness any move of the best value is the policy's.
            int cell = stored_move;
            if (gravity) {
              absl::StatusOr<int> drop = game.DropCell(p, stored_move);
              cell = drop.ok() ? *drop : -1;
            }
            if (cell < 0 || cell >= game.cells() ||
                !(game.LegalMask(p) >> cell & 1)) {
              problem = absl::StrCat("stored move ", stored_move,
                                     " is not a legal move");
            } else {
              const Position c = Game::Play(p, cell);
              const std::optional<Value> end = game.Primitive(c);
              const Value v = Negate(end ? *end : PackedValue(odd[entry(c)]));
              if (static_cast<int>(v) != stored_value) {
                problem = absl::StrCat("stored move ", stored_move,
                                       " is not the best");
              }
            }
          }
          if (!problem.empty()) mine.Add(i, game, p, problem);
        });
    above = std::move(values);
  }
  return total;
}

std::string Describe(const Record& r) {
  std::string text(ValueName(r.value));
  if (r.remoteness != kUnknownRemoteness) {
    absl::StrAppend(&text, " in ", r.remoteness, ", move ",
                    r.best_move == kNoMove ? std::string("none")
                                           : absl::StrCat(r.best_move));
  }
  return text;
}

}  // namespace

VerifyReport VerifyRecords(const Table& table, int threads,
                           const std::function<void(uint64_t)>& progress) {
  const Game& game = table.game();
  const PositionIndex& index = table.index();
  const bool full = table.layout() == Layout::kFull;
  // Without gravity the rules decide reachability locally; with gravity it
  // takes a forward pass.
  const std::vector<uint64_t> reached =
      game.reachability_is_local() ? std::vector<uint64_t>()
                                   : MarkReachable(game, index, threads);
  auto marked = [&](uint64_t i) {
    return (reached[i >> 6] >> (i & 63) & 1) != 0;
  };
  auto reachable = [&](uint64_t i, const Position& p) {
    return reached.empty() ? game.IsLegal(p) : marked(i);
  };
  if (table.layout() == Layout::kCompressed) {
    // The size of a reachable canonical position's symmetry class, else 0:
    // the cheaper test first.
    return VerifyCompressed(
        table, threads,
        [&](uint64_t i, const Position& p) {
          if (!reached.empty() && !marked(i)) return 0;
          const int orbit = OrbitIfCanonical(game, p);
          if (orbit == 0) return -1;
          return !reached.empty() || game.IsLegal(p) ? orbit : 0;
        },
        progress);
  }
  VerifyReport total;
  const RecordView view = full ? table.view() : RecordView{};
  for (int stones = 0; stones <= game.cells(); ++stones) {
    ForLayer(
        table, stones, threads, total, progress,
        [&](Findings& mine, LayerWalker& walker, uint64_t i,
            const Position& p) {
          ++mine.report.indices;
          const bool live = reachable(i, p);
          mine.report.reachable += live;
          // A compact table stores even layers only: odd ones have no record.
          if (!full && stones % 2 == 1) return;
          const Record stored = full ? view.Get(i)
                                     : Record{table.CompactValue(i, stones),
                                              kUnknownRemoteness, kNoMove};
          std::string problem;
          // A full table holds each value twice: the 2-bit section that
          // value-only probes read must agree with the record.
          const Value section = full ? view.GetValue(i) : stored.value;
          if (section != stored.value) {
            problem =
                absl::StrCat("the value section says ", ValueName(section),
                             ", the record ", ValueName(stored.value));
          } else if (!live) {
            // Unreachable: a full table marks it so; a compact one holds 0
            // (loss) there.
            if (stored.value != (full ? Value::kUnreachable : Value::kLoss)) {
              problem = "an unreachable position has a record";
            }
          } else if (full && stored.value == Value::kUnreachable) {
            problem = "a reachable position is marked unreachable";
          } else {
            ++mine.report.checked;
            mine.report.terminal += game.IsTerminal(p);
            bool prepared = false;  // children found in O(1) by the walker
            const Expected expected = Derive(table, p, [&](int cell) {
              if (!prepared) walker.PrepareChildren();
              prepared = true;
              return walker.Child(cell);
            });
            if (!expected.problem.empty()) {
              problem = expected.problem;
            } else if (!(expected.record == stored)) {
              problem = absl::StrCat("stored ", Describe(stored),
                                     ", its children give ",
                                     Describe(expected.record));
            }
          }
          if (!problem.empty()) mine.Add(i, game, p, problem);
        });
  }
  return total;
}

}  // namespace mnk
