#include "base/parallel/mpi_cluster.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>

#include "base/parallel/malloc_arena.h"

namespace mnk {

bool MpiCluster::Init(int* argc, char*** argv) {
  UseOneMallocArena();  // before Open MPI starts its threads
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS) {
    std::fprintf(stderr, "MPI could not start\n");
    return false;
  }
  return true;
}

int MpiCluster::Finish(int status) {
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status);
  MPI_Finalize();
  return 0;
}

MpiCluster::MpiCluster() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

bool MpiCluster::AllOk(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

void MpiCluster::OrWords(uint64_t* words, size_t count) {
  // MPI counts are ints: large bitmaps go in pieces.
  while (count > 0) {
    const size_t n = std::min<size_t>(count, INT_MAX / 2);
    MPI_Allreduce(MPI_IN_PLACE, words, static_cast<int>(n), MPI_UINT64_T,
                  MPI_BOR, MPI_COMM_WORLD);
    words += n;
    count -= n;
  }
}

}  // namespace mnk
