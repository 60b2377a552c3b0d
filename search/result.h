// A searched position's outcome: its value for the side to move and its
// remoteness (plies to the end under perfect play). What the exact
// Connect-style search (connect.h) and the live yardsticks (search.h) both
// answer.
//
//   mnk::SearchResult r = search.Solve(position);
//   if (r.value == mnk::Value::kWin) ...  // in r.remoteness plies
#ifndef MNK_SEARCH_RESULT_H_
#define MNK_SEARCH_RESULT_H_

#include "rules/game/game.h"

namespace mnk {

struct SearchResult {
  Value value;
  int remoteness;
};

}  // namespace mnk

#endif  // MNK_SEARCH_RESULT_H_
