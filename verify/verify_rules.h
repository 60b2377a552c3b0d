// What the compressed layout's verifiers (verify.cc, all in memory, and
// verify_tiers.cc, a tier at a time) derive from the rules: a value and
// remoteness packed in a byte, a position's best child by the policy, and
// what is wrong with a stored record. Internal to //verify:verify_lib.
//
//   int move = kNoMove;
//   uint8_t best = verify_internal::BestChild(
//       game, /*has_remoteness=*/true, p,
//       [&](int cell, const Position& child) { return packed[...]; }, &move);
#ifndef MNK_VERIFY_VERIFY_RULES_H_
#define MNK_VERIFY_VERIFY_RULES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "rules/game/game.h"
#include "rules/game/policy.h"
#include "table/record.h"

namespace mnk {
namespace verify_internal {

// A value and remoteness packed in a byte by RecordArrays::Details
// (table/record.h), as the solver's layer bytes hold them; 0: no record.
inline Value PackedValue(uint8_t packed) {
  return static_cast<Value>(packed >> kRemotenessBits);
}
inline int PackedRemoteness(uint8_t packed) { return packed & kMaxRemoteness; }

// The best child of `p` (not over) by the policy, from the rules for a
// child that is over and from `lookup(cell, child)` (a packed record) for
// the others: a packed record, and the move in `move`; 0 when a child has
// no record.
template <typename Lookup>
uint8_t BestChild(const Game& game, bool has_remoteness, const Position& p,
                  const Lookup& lookup, int* move) {
  int best_score = -(1 << 20);
  uint8_t result = 0;
  for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const Position child = Game::Play(p, cell);
    Value v;
    int after = 0;
    if (const std::optional<Value> end = game.Primitive(child)) {
      v = Negate(*end);
    } else {
      const uint8_t packed = lookup(cell, child);
      if (PackedValue(packed) == Value::kUnreachable) return 0;
      v = Negate(PackedValue(packed));
      after = PackedRemoteness(packed);
    }
    const int remoteness = has_remoteness ? after + 1 : 0;
    const int score = PolicyScore(v, remoteness);
    if (score > best_score) {
      best_score = score;
      result = RecordArrays::Details(v, remoteness);
      *move = cell;
    }
  }
  return result;
}

// What is wrong with the stored record of `p` (not over) of a compressed
// table, "" if nothing: `stored` its value and remoteness packed,
// `stored_move` its move symbol (a column with gravity), and
// `lookup(cell, child)` the packed records of its children not over.
// `expected` and `move`: what BestChild gives for `p`.
template <typename Lookup>
std::string StoredProblem(const Game& game, bool has_remoteness,
                          const Position& p, uint8_t stored, int stored_move,
                          uint8_t expected, int move, const Lookup& lookup) {
  const int stored_value = static_cast<int>(PackedValue(stored));
  const int stored_remoteness = PackedRemoteness(stored);
  const bool gravity = game.spec().gravity;
  const int want_move = gravity ? move % game.width() : move;
  if (expected == 0) return "a child has no derived record";
  if (stored_value != static_cast<int>(PackedValue(expected)) ||
      stored_remoteness != PackedRemoteness(expected)) {
    return absl::StrCat(
        "stored ", ValueName(static_cast<Value>(stored_value)),
        has_remoteness ? absl::StrCat(" in ", stored_remoteness) : "",
        ", its children give ", ValueName(PackedValue(expected)),
        has_remoteness ? absl::StrCat(" in ", PackedRemoteness(expected)) : "");
  }
  if (has_remoteness) {
    return stored_move == want_move
               ? ""
               : absl::StrCat("stored move ", stored_move, " is not the best (",
                              want_move, ")");
  }
  // Without remoteness any move of the best value is the policy's.
  int cell = stored_move;
  if (gravity) {
    absl::StatusOr<int> drop = game.DropCell(p, stored_move);
    cell = drop.ok() ? *drop : -1;
  }
  if (cell < 0 || cell >= game.cells() || !(game.LegalMask(p) >> cell & 1)) {
    return absl::StrCat("stored move ", stored_move, " is not a legal move");
  }
  const Position c = Game::Play(p, cell);
  const std::optional<Value> end = game.Primitive(c);
  const Value v = Negate(end ? *end : PackedValue(lookup(cell, c)));
  return static_cast<int>(v) == stored_value
             ? ""
             : absl::StrCat("stored move ", stored_move, " is not the best");
}

// StoredProblem with `p`'s best child found from `lookup`.
template <typename Lookup>
std::string StoredProblem(const Game& game, bool has_remoteness,
                          const Position& p, uint8_t stored, int stored_move,
                          const Lookup& lookup) {
  int move = kNoMove;
  const uint8_t expected = BestChild(game, has_remoteness, p, lookup, &move);
  return StoredProblem(game, has_remoteness, p, stored, stored_move, expected,
                       move, lookup);
}

}  // namespace verify_internal
}  // namespace mnk

#endif  // MNK_VERIFY_VERIFY_RULES_H_
