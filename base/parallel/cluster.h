// The processes a long job (a solve, an opening book) is shared among: this
// one alone, or the ranks of an Open MPI run (mpi_cluster.h). The job calls
// the same methods either way; alone they cost nothing.
//
//   mnk::Cluster alone;                       // rank 0 of 1
//   if (!cluster.AllOk(status.ok())) ...      // every process meets here
//   cluster.OrWords(bits.data(), bits.size());
#ifndef MNK_BASE_PARALLEL_CLUSTER_H_
#define MNK_BASE_PARALLEL_CLUSTER_H_

#include <cstddef>
#include <cstdint>

namespace mnk {

class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  // A meeting point: true on every process when `ok` is true on every one.
  virtual bool AllOk(bool ok) { return ok; }
  // ORs words[0, count) over all processes, in place.
  virtual void OrWords(uint64_t* /*words*/, size_t /*count*/) {}
};

}  // namespace mnk

#endif  // MNK_BASE_PARALLEL_CLUSTER_H_
