// book_mpi: the book command as N cooperating processes under Open MPI, with
// the same flags as `book` (search/book/book_command.h); --work_dir is
// required and every rank must reach it (a shared filesystem on a cluster):
//
//   mpirun -np 3 book_mpi --width=5 --height=4 --plies=8
//          --work_dir=/shared/book-5x4 --out=5x4k4g-book.mnk
//
// Rank r solves the r-th N-th of each ply's moves and logs them to its own
// log in the work dir; after each ply the ranks meet (MPI_Allreduce) and
// read each other's logs (search/book/book.h). Rank 0 writes the book, the
// same bytes as `book` writes. A rank that fails says why and ends every
// rank (MPI_Abort) with its exit status; what was solved stays logged.
#include "base/parallel/mpi_cluster.h"
#include "search/book/book_command.h"

int main(int argc, char** argv) {
  if (!mnk::MpiCluster::Init(&argc, &argv)) return 1;
  mnk::MpiCluster cluster;
  return mnk::MpiCluster::Finish(mnk::RunBook(argc, argv, cluster));
}
