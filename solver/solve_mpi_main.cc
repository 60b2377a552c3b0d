// solve_mpi: the solve command as N cooperating processes under Open MPI,
// with the same flags as `solve` (solver/solve_command.h) plus a required
// --work-dir that every rank reaches (a shared filesystem on a cluster):
//
//   mpirun -np 3 solve_mpi --width=5 --height=4 --k=4 --gravity
//          --work-dir=/shared/5x4.work --out=5x4.mnk
//
// Every rank solves its share of each layer's tiers (tier t of layer L on rank
// (t + L) % N) and writes them to the work dir; after each layer the ranks meet
// (MPI_Allreduce), and each reads the other ranks' tiers of that layer, the
// children of the next. Rank 0 keeps the records and writes the table, the
// same bytes as `solve` writes. The gravity boards' forward pass is shared
// the same way, its bits ORed together (MPI_Allreduce with MPI_BOR). A rank
// that fails says why and ends every rank (MPI_Abort) with its exit status
// (solver/solve_command.h); the tiers done stay in the work dir.
#include "base/parallel/mpi_cluster.h"
#include "solver/solve_command.h"

int main(int argc, char** argv) {
  if (!mnk::MpiCluster::Init(&argc, &argv)) return 1;
  mnk::MpiCluster cluster;
  return mnk::MpiCluster::Finish(mnk::RunSolve(argc, argv, cluster));
}
