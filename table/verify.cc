#include "table/verify.h"

#include <algorithm>
#include <mutex>
#include <optional>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
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
    const uint64_t first = index.layer_offset(stones);
    ParallelChunks(
        index.layer_size(stones), kChunk, threads,
        [&](uint64_t begin, uint64_t end, int) {
          for (uint64_t i = first + begin; i < first + end; ++i) {
            if ((reached[i >> 6] >> (i & 63) & 1) == 0) continue;
            const Position p = index.At(i);
            if (game.IsTerminal(p)) continue;
            for (uint32_t s = game.LegalMask(p); s != 0; s &= s - 1) {
              const uint64_t c =
                  index.Index(Game::Play(p, absl::countr_zero(s)));
              __atomic_fetch_or(&reached[c >> 6], uint64_t{1} << (c & 63),
                                __ATOMIC_RELAXED);
            }
          }
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

Expected Derive(const Table& table, const Position& p) {
  const Game& game = table.game();
  const bool full = table.layout() == Layout::kFull;
  const int none = full ? 0 : kUnknownRemoteness;
  if (const std::optional<Value> end = game.Primitive(p)) {
    return {{*end, none, kNoMove}, ""};
  }
  if (table.layout() == Layout::kCompressed) {
    // The best child by the policy, each child as a probe derives it from
    // the stored records of its own children.
    const bool plies = table.has_remoteness();
    int best = -(1 << 20);
    Record expected;
    for (uint32_t s = game.LegalMask(p); s != 0; s &= s - 1) {
      const int cell = absl::countr_zero(s);
      absl::StatusOr<Record> child = table.Probe(Game::Play(p, cell));
      if (!child.ok()) {
        return {{},
                absl::StrCat("its child after ", cell, ": ",
                             child.status().message())};
      }
      const Value v = Negate(child->value);
      const int score = PolicyScore(v, plies ? child->remoteness + 1 : 0);
      if (score > best) {
        best = score;
        expected = {v, plies ? child->remoteness + 1 : kUnknownRemoteness,
                    cell};
      }
    }
    return {expected, ""};
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
  int best = -(1 << 20);
  Record expected;
  for (uint32_t s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const Record child =
        table.view().Get(table.index().Index(Game::Play(p, cell)));
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
  const bool compressed = table.layout() == Layout::kCompressed;
  // Without gravity the rules decide reachability locally; with gravity it
  // takes a forward pass.
  const std::vector<uint64_t> reached =
      game.reachability_is_local() ? std::vector<uint64_t>()
                                   : MarkReachable(game, index, threads);
  auto reachable = [&](uint64_t i, const Position& p) {
    return reached.empty() ? game.IsLegal(p)
                           : (reached[i >> 6] >> (i & 63) & 1) != 0;
  };
  std::mutex mu;
  VerifyReport total;
  ParallelChunks(
      index.size(), kChunk, threads, [&](uint64_t begin, uint64_t end, int) {
        VerifyReport mine;
        std::vector<std::string> errors;
        for (uint64_t i = begin; i < end; ++i) {
          const Position p = index.At(i);
          const int stones = p.stones();
          ++mine.indices;
          const bool live = reachable(i, p);
          mine.reachable += live;
          // A compact table stores even layers only: odd ones have no record.
          if (!full && stones % 2 == 1) continue;
          if (compressed) {
            // Stored: reachable canonical positions not over, X to move.
            if (!live || game.IsTerminal(p) || !(game.Canonical(p) == p)) {
              continue;
            }
            ++mine.checked;
            std::string problem;
            absl::StatusOr<Record> stored = table.Probe(p);
            const Expected expected = Derive(table, p);
            if (!stored.ok()) {
              problem = std::string(stored.status().message());
            } else if (!expected.problem.empty()) {
              problem = expected.problem;
            } else if (stored->value != expected.record.value ||
                       stored->remoteness != expected.record.remoteness) {
              problem = absl::StrCat("stored ", Describe(*stored),
                                     ", its children give ",
                                     Describe(expected.record));
            } else if (table.has_remoteness()
                           ? stored->best_move != expected.record.best_move
                           : Negate(table.ValueOf(Game::Play(
                                 p, stored->best_move))) != stored->value) {
              problem = absl::StrCat("stored move ", stored->best_move,
                                     " is not the best (",
                                     Describe(expected.record), ")");
            }
            if (!problem.empty()) {
              ++mine.errors;
              if (errors.size() < 10) {
                errors.push_back(absl::StrCat("index ", i, " ", game.Format(p),
                                              ": ", problem));
              }
            }
            continue;
          }
          const Record stored = full ? table.view().Get(i)
                                     : Record{table.CompactValue(i, stones),
                                              kUnknownRemoteness, kNoMove};
          std::string problem;
          // A full table holds each value twice: the 2-bit section that
          // value-only probes read must agree with the record.
          const Value section = full ? table.view().GetValue(i) : stored.value;
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
            ++mine.checked;
            mine.terminal += game.IsTerminal(p);
            const Expected expected = Derive(table, p);
            if (!expected.problem.empty()) {
              problem = expected.problem;
            } else if (!(expected.record == stored)) {
              problem = absl::StrCat("stored ", Describe(stored),
                                     ", its children give ",
                                     Describe(expected.record));
            }
          }
          if (!problem.empty()) {
            ++mine.errors;
            if (errors.size() < 10) {
              errors.push_back(absl::StrCat("index ", i, " ", game.Format(p),
                                            ": ", problem));
            }
          }
        }
        if (progress) progress(end - begin);
        std::lock_guard<std::mutex> lock(mu);
        total.indices += mine.indices;
        total.reachable += mine.reachable;
        total.checked += mine.checked;
        total.terminal += mine.terminal;
        total.errors += mine.errors;
        for (std::string& e : errors) {
          if (total.first_errors.size() < 10) {
            total.first_errors.push_back(std::move(e));
          }
        }
      });
  return total;
}

}  // namespace mnk
