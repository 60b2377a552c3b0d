// The sweep the tests share: every board of up to 12 cells (every m x n
// with m * n <= 12, every k up to the longer side), with and without
// gravity, normal and misère: 816 games, each solved at most once in a
// test binary.
//
//   for (const mnk::GameSpec& spec : mnk::SmallBoards()) {
//     const mnk::Solution& s = mnk::SolvedSmallBoard(spec);  // full records
//     ...
//   }
#ifndef MNK_TESTS_SMALL_BOARDS_H_
#define MNK_TESTS_SMALL_BOARDS_H_

#include <vector>

#include "rules/game/game.h"
#include "solver/retrograde/solver.h"

namespace mnk {

// Which of the 816 games a sweep takes.
struct SmallBoardFilter {
  bool normal = true;
  bool misere = true;
  bool gravity = true;
  bool free = true;  // without gravity
  int min_k = 1;
  int max_k = 12;
};

// The games the filter takes, by width, height, k, gravity, misère.
std::vector<GameSpec> SmallBoards(const SmallBoardFilter& filter = {});

// The game's full records (SolveOptions: two threads), solved the first
// time a test asks for them and kept for the rest of the binary.
const Solution& SolvedSmallBoard(const GameSpec& spec);

}  // namespace mnk

#endif  // MNK_TESTS_SMALL_BOARDS_H_
