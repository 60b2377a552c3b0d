// The best-move policy: which of a position's moves the perfect player
// plays, and the back-up step that gives a position its outcome from its
// children's. A rule of play, not of a file format: the solver, the
// table's probes, the book, the search's root and the naive yardstick all
// take it from here.
//
//   mnk::BestMove best;
//   for (each legal cell, ascending) {
//     best.Add(cell, child.value, child.remoteness);  // the child's mover's
//   }
//   best.value(), best.remoteness()  // the position's, for its mover
//   best.cell()                      // the policy's move: ties keep the
//                                    // lowest cell
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

// The back-up step of minimax: a position's outcome from its moves'
// children, added cells ascending. A move to a child with value v for the
// child's mover, r plies from its end, is worth Negate(v) in r + 1 plies
// to the position's mover; the best by PolicyScore is kept, ties going to
// the first added (the lowest cell).
class BestMove {
 public:
  void Add(int cell, Value child_value, int child_remoteness) {
    const Value v = Negate(child_value);
    const int score = PolicyScore(v, child_remoteness + 1);
    if (cell_ < 0 || score > score_) {
      cell_ = cell;
      score_ = score;
      value_ = v;
      remoteness_ = child_remoteness + 1;
    }
  }

  // Whether no move was added.
  bool empty() const { return cell_ < 0; }
  // The best move's cell, -1 while empty.
  int cell() const { return cell_; }
  // The position's value and remoteness for its mover (after a move).
  Value value() const { return value_; }
  int remoteness() const { return remoteness_; }

 private:
  int cell_ = -1;
  int score_ = 0;
  Value value_ = Value::kUnreachable;
  int remoteness_ = 0;
};

}  // namespace mnk

#endif  // MNK_RULES_GAME_POLICY_H_
