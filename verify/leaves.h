// Checks a book's leaves (its entries whose moves it does not hold, such as
// the frontier layer of `solve --frontier`) against fresh searches: the
// children check (verify.h) cannot see them, and every entry before them is
// backed up from them. A random sample, each position solved by the
// Connect search (search/connect.h) from an empty transposition table,
// value and remoteness compared with the book's.
//
//   mnk::LeafCheckOptions options;
//   options.sample = 20000;  // 0: every leaf
//   absl::StatusOr<mnk::LeafReport> r = mnk::CheckLeaves(table, options);
//   if (r.ok() && r->errors == 0) ...
#ifndef MNK_VERIFY_LEAVES_H_
#define MNK_VERIFY_LEAVES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/parallel/parallel.h"
#include "table/table.h"

namespace mnk {

struct LeafCheckOptions {
  uint64_t sample = 0;  // leaves drawn at random; 0 or more than there are: all
  uint64_t seed = 1;    // the draw's seed: the same sample every run
  int threads = 1;      // each with a search of its own
  int table_bits = 22;  // each search's table: 2^22 entries, 64 MiB
};

struct LeafReport {
  uint64_t leaves = 0;   // the book's entries whose moves it does not hold
  uint64_t checked = 0;  // those searched
  uint64_t errors = 0;
  std::vector<std::string> first_errors;  // up to 10, described
};

// kInvalidArgument when the table is not a book, or its game is not one
// the Connect search plays (ConnectSearch::Create's message); kResource-
// Exhausted without the searches' memory. `progress`, when set, is told
// the leaves to search once they are drawn (AddTotal) and each leaf
// searched (Add, from any thread).
absl::StatusOr<LeafReport> CheckLeaves(const Table& table,
                                       const LeafCheckOptions& options,
                                       Progress* progress = nullptr);

}  // namespace mnk

#endif  // MNK_VERIFY_LEAVES_H_
