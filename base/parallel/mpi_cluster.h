// The ranks of an Open MPI run as a Cluster (cluster.h), for the _mpi
// binaries (//solver:solve_mpi, //search/book:book_mpi). Only the main
// thread calls MPI.
//
//   int main(int argc, char** argv) {
//     if (!mnk::MpiCluster::Init(&argc, &argv)) return 1;
//     mnk::MpiCluster cluster;
//     const int status = Run(argc, argv, cluster);
//     return mnk::MpiCluster::Finish(status);
//   }
#ifndef MNK_BASE_PARALLEL_MPI_CLUSTER_H_
#define MNK_BASE_PARALLEL_MPI_CLUSTER_H_

#include <cstddef>
#include <cstdint>

#include "base/parallel/cluster.h"

namespace mnk {

class MpiCluster : public Cluster {
 public:
  // Starts MPI (threads inside a rank never call it); false, with a line on
  // standard error, when it cannot start.
  static bool Init(int* argc, char*** argv);
  // Ends the run with a rank's exit status: a rank that failed (its message
  // printed) may have left the others waiting at a meeting point, so every
  // rank is then ended with its status (MPI_Abort); otherwise MPI is
  // finalized and 0 returned.
  static int Finish(int status);

  MpiCluster();
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  bool AllOk(bool ok) override;
  void OrWords(uint64_t* words, size_t count) override;

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace mnk

#endif  // MNK_BASE_PARALLEL_MPI_CLUSTER_H_
