// One malloc arena for every thread of a tool. glibc gives each thread an
// arena of its own and keeps what a thread frees in it for that arena's
// next allocations, so memory one thread let go of still counts against
// the process (solve_mpi's rank 0, whose gathering thread encodes a
// layer's sections and reads them back: 6x5 gravity on two ranks peaks at
// 424 MiB with an arena a thread, 345 MiB with one). Measured without
// cost: 6x5 gravity on two threads takes as long either way.
//
//   int main(int argc, char** argv) {
//     mnk::UseOneMallocArena();  // before any thread starts
//     ...
//   }
#ifndef MNK_BASE_PARALLEL_MALLOC_ARENA_H_
#define MNK_BASE_PARALLEL_MALLOC_ARENA_H_

namespace mnk {

// Has every thread allocate from the main arena. Call it before a second
// thread starts (MPI_Init starts some): glibc fixes how many arenas it
// makes once a thread has one of its own. Does nothing without glibc.
void UseOneMallocArena();

}  // namespace mnk

#endif  // MNK_BASE_PARALLEL_MALLOC_ARENA_H_
