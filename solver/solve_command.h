// The `solve` command, shared by //solver:solve (one process) and
// //solver:solve_mpi (one process per MPI rank): solves one game of the
// m,n,k family completely, prints a summary and writes its table.
//
//   bazel run //solver:solve -- --width=4 --height=4 --k=3 --out=/tmp/4x4k3.mnk
//   bazel run //solver:solve -- --json        # tic-tac-toe, summary as JSON
//   solve --width=6 --height=5 --k=4 --gravity --out=6x5.mnk
//         --work-dir=/big/6x5.work [--resume] [--memory=12G]
//   mpirun -np 4 solve_mpi ... --work-dir=/shared/dir   # same flags
//
// Exit status: 0 done; 1 bad command line, or a work dir in use by another
// solve (or by this one without --resume); 3 the table could not be written
// (checked before solving, too); 4 the game needs more memory than --memory
// allows, or memory ran out; 5 the work dir could not be written (a full
// disk) or read back: the tiers done are kept, --resume continues; 6
// standard output could not be written. SIGINT and SIGTERM remove a table
// being written before the program ends; SIGXFSZ is ignored, so a file-size
// limit is a write error.
#ifndef MNK_SOLVER_SOLVE_COMMAND_H_
#define MNK_SOLVER_SOLVE_COMMAND_H_

#include "solver/retrograde/solver.h"

namespace mnk {

// Parses the command line and runs the solve shared among `cluster`'s
// processes (rank 0 writes the table and prints the summary). Returns the
// exit status.
int RunSolve(int argc, char** argv, Cluster& cluster);

}  // namespace mnk

#endif  // MNK_SOLVER_SOLVE_COMMAND_H_
