// A driver for Steininger's c4 (github.com/ChristopheSteininger/c4), the
// search connect_goals.py compares ours with. Not built by Bazel: the
// script compiles it against a c4 checkout, whose settings.h it sets to the
// board, threads and table size first. It reads positions as their moves
// (columns from 1, one position a line), solves every move's exact score
// from an empty table each time (as `play --json` answers), and prints one
// line a position: the moves, each column's score for the side that moves
// there ('.' for a full column), c4's node count and the seconds taken.
//
//   g++ -std=c++20 -O3 -flto -DNDEBUG -Ic4/src -o c4_driver c4_driver.cc \
//       c4/src/solver/*.cpp c4/src/solver/*/*.cpp -pthread
//   echo 4453 | ./c4_driver   # 4453 -5 -5 -2 -3 -4 -2 -2 17083343 5.06
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "solver/position.h"
#include "solver/settings.h"
#include "solver/solver.h"

int main() {
  Solver solver;
  std::string moves;
  while (std::getline(std::cin, moves)) {
    Position pos{};
    for (char c : moves) pos.move(c - '1');
    solver.clear_state();
    const auto start = std::chrono::steady_clock::now();
    std::string scores;
    for (int col = 0; col < BOARD_WIDTH; ++col) {
      if (!pos.is_move_valid(col)) {
        scores += " .";
        continue;
      }
      const board before = pos.move(col);
      scores += " " + std::to_string(-solver.solve_strong(pos));
      pos.unmove(before);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("%s%s %llu %.6f\n", moves.c_str(), scores.c_str(),
                solver.get_merged_stats().get_num_nodes(), seconds);
    std::fflush(stdout);
  }
  return 0;
}
