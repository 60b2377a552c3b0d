// The best-move policy: which of a position's moves the perfect player
// plays. A rule of play, not of a file format: the solver, the table's
// probes, verify and the naive yardstick all take it from here.
//
//   int best = -1, best_score = INT_MIN;
//   for (each legal cell, ascending) {
//     const int score = mnk::PolicyScore(value_for_mover, plies_to_end);
//     if (score > best_score) { best_score = score; best = cell; }
//   }  // ties keep the lowest cell
#ifndef MNK_RULES_GAME_POLICY_H_
#define MNK_RULES_GAME_POLICY_H_

#include "rules/game/game.h"

namespace mnk {

// The preference among moves by what they lead to, seen by the mover:
// higher is better, and ties go to the lowest cell. Wins beat draws beat
// losses; among wins the fastest, among losses the slowest (a draw's
// remoteness does not count).
inline int PolicyScore(Value v, int remoteness) {
  switch (v) {
    case Value::kWin:
      return 1000 - remoteness;
    case Value::kLoss:
      return -1000 + remoteness;
    default:
      return 0;
  }
}

}  // namespace mnk

#endif  // MNK_RULES_GAME_POLICY_H_
