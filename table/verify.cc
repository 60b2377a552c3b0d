#include "table/verify.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"

namespace mnk {
namespace {

// The record the rules and the children's records call for, or a
// description of a child the table lacks.
struct Expected {
  Record record;
  std::string problem;
};

Expected Derive(const Table& table, const Position& p) {
  const Game& game = table.game();
  if (game.HasLine(p.last_mover())) return {{Value::kLoss, 0, kNoMove}, ""};
  if (p.occupied() == game.full_mask()) return {{Value::kDraw, 0, kNoMove}, ""};
  const RecordView view = table.view();
  int best = -(1 << 20);
  Record expected;
  for (uint32_t s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = __builtin_ctz(s);
    const Record child = view.Get(table.index().Index(Game::Play(p, cell)));
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
  return absl::StrCat(
      ValueName(r.value), " in ", r.remoteness, ", move ",
      r.best_move == kNoMove ? std::string("none") : absl::StrCat(r.best_move));
}

}  // namespace

VerifyReport VerifyRecords(const Table& table, int threads,
                           const std::function<void(uint64_t)>& progress) {
  const Game& game = table.game();
  const PositionIndex& index = table.index();
  const RecordView view = table.view();
  const bool gravity = game.spec().gravity;
  constexpr uint64_t kChunk = 1 << 16;
  std::atomic<uint64_t> next{0};
  std::mutex mu;
  VerifyReport total;
  auto work = [&] {
    VerifyReport mine;
    std::vector<std::string> errors;
    for (;;) {
      const uint64_t begin = next.fetch_add(kChunk);
      if (begin >= index.size()) break;
      const uint64_t end = std::min(index.size(), begin + kChunk);
      for (uint64_t i = begin; i < end; ++i) {
        const Position p = index.At(i);
        const Record stored = view.Get(i);
        ++mine.indices;
        std::string problem;
        if (stored.value == Value::kUnreachable) {
          // With gravity reachability depends on the move order; the
          // forward pass of the solver is the reference for it.
          if (!gravity && game.Validate(p).ok()) {
            problem = "a reachable position is marked unreachable";
          }
        } else if (!gravity && !game.Validate(p).ok()) {
          problem = "an unreachable position has a record";
        } else {
          ++mine.reachable;
          mine.terminal += game.IsTerminal(p);
          const Expected expected = Derive(table, p);
          if (!expected.problem.empty()) {
            problem = expected.problem;
          } else if (!(expected.record == stored)) {
            problem =
                absl::StrCat("stored ", Describe(stored),
                             ", its children give ", Describe(expected.record));
          }
        }
        if (!problem.empty()) {
          ++mine.errors;
          if (errors.size() < 10) {
            errors.push_back(
                absl::StrCat("index ", i, " ", game.Format(p), ": ", problem));
          }
        }
      }
      if (progress) progress(end - begin);
    }
    std::lock_guard<std::mutex> lock(mu);
    total.indices += mine.indices;
    total.reachable += mine.reachable;
    total.terminal += mine.terminal;
    total.errors += mine.errors;
    for (std::string& e : errors) {
      if (total.first_errors.size() < 10) {
        total.first_errors.push_back(std::move(e));
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  return total;
}

}  // namespace mnk
