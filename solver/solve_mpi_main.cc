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
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>

#include "solver/solve_command.h"

namespace mnk {
namespace {

class MpiCluster : public Cluster {
 public:
  MpiCluster() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  bool AllOk(bool ok) override {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all != 0;
  }
  void OrWords(uint64_t* words, size_t count) override {
    // MPI counts are ints: large bitmaps go in pieces.
    while (count > 0) {
      const size_t n = std::min<size_t>(count, INT_MAX / 2);
      MPI_Allreduce(MPI_IN_PLACE, words, static_cast<int>(n), MPI_UINT64_T,
                    MPI_BOR, MPI_COMM_WORLD);
      words += n;
      count -= n;
    }
  }

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  int provided = 0;
  // Threads inside a rank never call MPI: only the main thread does.
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS) {
    std::fprintf(stderr, "solve_mpi: MPI could not start\n");
    return 1;
  }
  mnk::MpiCluster cluster;
  const int status = mnk::RunSolve(argc, argv, cluster);
  // A rank that failed (its message printed) may have left the others
  // waiting at a meeting point: every rank is ended with its status. The
  // tiers done stay in the work dir.
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status);
  MPI_Finalize();
  return 0;
}
