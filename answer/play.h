// Playing from answers: the move a level of play chooses, and the
// principal variation (the moves both sides play under perfect play to the
// end). Every binding's `choose` and `pv` are these.
//
//   mnk::Level level;
//   level.level = 6;                       // 1 random .. 10 perfect
//   level.seed = 42;                       // the same move every time
//   absl::StatusOr<int> cell = mnk::Choose(*source, position, level);
//   absl::StatusOr<mnk::Line> pv = mnk::PrincipalVariation(*source, p);
//   pv->cells;     // {4, 0, 8, ...}: X's move first when X is to move
//
// Level L chooses move i with probability proportional to
// exp(u_i / T_L), where u_i = PolicyScore(value_i, remoteness_i) / 1000
// is +1 for a win (less a thousandth a ply), 0 for a draw, -1 for a loss
// (plus a thousandth a ply), and the temperature T_L is
//
//   level  1    2    3     4     5     6     7     8     9     10
//   T_L    inf  4    2.5   1.56  0.98  0.61  0.38  0.24  0.15  0
//
// (T_L = 4 * 0.625^(L - 2) from 2 to 9): level 1 plays a uniformly random
// legal move; level 10 the perfect move, the lowest cell among equally
// good ones unless `vary` asks for a random one of them.
#ifndef MNK_ANSWER_PLAY_H_
#define MNK_ANSWER_PLAY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "answer/answer.h"
#include "answer/oracle.h"
#include "rules/game/game.h"

namespace mnk {

inline constexpr int kRandomLevel = 1;
inline constexpr int kPerfectLevel = 10;

struct Level {
  int level = kPerfectLevel;  // kRandomLevel .. kPerfectLevel
  // Level 10: a random one of the equally good moves (same value and
  // remoteness), not the lowest cell.
  bool vary = false;
  // With a seed, the same seed, level and position always choose the same
  // move (on every machine); without, each choice draws afresh.
  std::optional<uint64_t> seed;
};

// kInvalidArgument naming `name` unless 1 <= level <= 10.
absl::Status CheckLevel(int level, absl::string_view name);

// The temperature T_L of the table above (infinity for level 1).
double Temperature(int level);

// Whether `level` chooses from every move's value, or from the position's
// best move alone (level 10 without vary: Need::kBestMove).
Need NeedOf(const Level& level);

// The cell `level` plays in the analysed position `a` (a game in play),
// drawn from `a.moves` as the file comment says (level 10 without vary:
// a.record.best_move, which needs no moves).
int ChooseMove(const Analysis& a, const Level& level);

// The move `level` plays at `position` (a position string of the source's
// game, in play), answered within `limits`. kInvalidArgument for a bad
// position, a level out of range, or a finished game; a search's errors
// as AnswerSource::Answer gives them.
absl::StatusOr<int> Choose(const AnswerSource& source,
                           absl::string_view position, const Level& level,
                           const AnswerLimits& limits = {});

// A principal variation: the cells played from a position, the side to
// move's first.
struct Line {
  std::vector<int> cells;
  // True when the line reaches the end of the game; false when a search
  // stopped at `limits` first (the line then holds what was found).
  bool complete = true;
};

// The principal variation from `position`: the best move (the policy's:
// the fastest win, the slowest loss, ties to the lowest cell), then the
// opponent's best reply, and so on to the end of the game. A table answers
// it whole, its length the position's remoteness; a searched game searches
// each move, `limits.max_time` for the whole line and `limits.max_nodes`
// for each move, and returns the line so far when one runs out (complete
// false). Errors: a bad position (kInvalidArgument) and the source's
// other errors.
absl::StatusOr<Line> PrincipalVariation(const AnswerSource& source,
                                        absl::string_view position,
                                        const AnswerLimits& limits = {});

// A node of the game tree, for teaching minimax as the seed tutorials draw
// it: a position, what perfect play makes of it, and its children.
struct TreeNode {
  int cell = -1;  // the move from the parent into it; -1 at the root
  Position position;
  Value value = Value::kUnreachable;  // for the side to move here
  int remoteness = 0;                 // plies to the end from here
  // True for the child minimax keeps at its parent (the policy's best
  // move: the fastest win, the slowest loss, ties to the lowest cell).
  bool best = false;
  // The seeds' scores, for the side to move at the root (the maximiser):
  // +10 - plies for its win, -10 + plies for its loss, 0 for a draw,
  // plies counted from the root to the end of perfect play (the node's
  // depth plus its remoteness); and +1, 0, -1 alone. On boards of more
  // than 9 cells, cells + 1 takes 10's place, so that every win scores
  // above 0 and every loss below.
  int score = 0;
  int sign = 0;
  std::vector<TreeNode> children;  // in board order; empty past the depth
};

// The most nodes GameTree builds (tic-tac-toe's whole tree from the empty
// board has 549,946).
inline constexpr int kMaxTreeNodes = 100000;

// The tree of `position` to `depth` plies (0: the root alone): every
// node's answer, from a table at once, a search's within `limits` each.
// kInvalidArgument for a bad position or a depth outside 0-64;
// kResourceExhausted past kMaxTreeNodes (the message says which depth
// fits); a search's errors as Answer gives them.
absl::StatusOr<TreeNode> GameTree(const AnswerSource& source,
                                  absl::string_view position, int depth,
                                  const AnswerLimits& limits = {});

}  // namespace mnk

#endif  // MNK_ANSWER_PLAY_H_
