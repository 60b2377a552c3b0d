// The interactive game in a terminal: the board drawn as text, the
// person's moves and commands, the computer's answers.
//
//   mnk::PlayGame(*source, {.human_first = true}, std::cin, std::cout);
#ifndef MNK_PLAYER_GAME_SESSION_H_
#define MNK_PLAYER_GAME_SESSION_H_

#include <istream>
#include <ostream>
#include <string>

#include "answer/answer.h"
#include "answer/play.h"
#include "rules/game/game.h"

namespace mnk {

// The board as text. Without gravity empty cells show their number; with
// gravity they show '.', with column numbers underneath. `marks` gives the
// characters for the first player's and the second player's stones.
std::string DrawBoard(const Game& game, const Position& p,
                      const char marks[2] = nullptr);

struct GameOptions {
  bool human_first = true;
  char human_mark = 'X';  // the person's stones are drawn with this mark
  Level level;            // how the computer plays (answer/play.h)
};

// Interactive games against `source` (answer/answer.h: its table or
// search), one after another while
// the person answers "y" to "Play again?". Reads moves and the commands
// hint, eval, help and quit from `in`; never fails on bad input. Returns 0
// (also at end of input), or kTableFailed when the table could not answer
// (a damaged page, or the file changed while in use: checked before every
// move of the player's). A search that takes over a second says how far
// it got, a line a move solved.
inline constexpr int kTableFailed = 3;
int PlayGame(const AnswerSource& source, const GameOptions& options,
             std::istream& in, std::ostream& out);

}  // namespace mnk

#endif  // MNK_PLAYER_GAME_SESSION_H_
