// The `book` command, shared by //search/book:book (one process) and
// //search/book:book_mpi (one process per MPI rank): builds the opening book
// of a Connect-style game too big to tabulate (book.h), resumably, and
// writes it as a table in the book layout.
//
//   bazel run //search/book:book -- --plies=6 --work_dir=/tmp/book-7x6
//       --out=/tmp/7x6k4g-book.mnk          (7x6, four in a row: the default)
//   mpirun -np 4 book_mpi --plies=10 --work_dir=/shared/book-7x6
//       --out=7x6k4g-book.mnk               (the same flags)
//
// Exit status: 0 written; 1 bad command line; 4 not enough memory for the
// search's table; 5 the work dir cannot be used; 6 the book cannot be
// written. Over MPI, rank 0 writes the book and prints the progress.
#ifndef MNK_SEARCH_BOOK_BOOK_COMMAND_H_
#define MNK_SEARCH_BOOK_BOOK_COMMAND_H_

#include "base/parallel/cluster.h"

namespace mnk {

// Parses the command line and builds the book shared among `cluster`'s
// processes. Returns the exit status.
int RunBook(int argc, char** argv, Cluster& cluster);

}  // namespace mnk

#endif  // MNK_SEARCH_BOOK_BOOK_COMMAND_H_
