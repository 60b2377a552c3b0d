// solve: one process (solver/solve_command.h has the flags and exit codes).
#include "solver/solve_command.h"

int main(int argc, char** argv) {
  mnk::Cluster alone;
  return mnk::RunSolve(argc, argv, alone);
}
