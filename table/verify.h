// Re-checks a whole table against the game rules: every record of a
// reachable position must follow from its children's records (the value is
// the best child value for the side to move, the remoteness one more than
// that child's, the best move the policy's choice), terminal positions must
// be scored by the rules, and the table must mark exactly the positions the
// rules reach (found by a forward pass with gravity). A compact table's
// stored values (even layers) are checked against the values its children
// derive from their own children. A full table's 2-bit value section (what
// value-only probes read) must agree with its records. A book (layout 4)
// must hold canonical reachable positions in play, in ascending order, and
// each position whose moves it holds must be the best of them. Uses no
// solver code: only the rules, the index and the table.
//
//   absl::StatusOr<mnk::Table> t = mnk::Table::Load(path);  // checksum
//   mnk::VerifyReport r = mnk::VerifyRecords(*t, /*threads=*/2);
//   if (r.errors == 0) ...
#ifndef MNK_TABLE_VERIFY_H_
#define MNK_TABLE_VERIFY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "table/table.h"

namespace mnk {

struct VerifyReport {
  uint64_t indices = 0;    // entries looked at
  uint64_t reachable = 0;  // reachable positions by the rules
  uint64_t checked = 0;    // stored records checked against their children
  uint64_t terminal = 0;   // of which terminal, checked against the rules
  uint64_t errors = 0;
  std::vector<std::string> first_errors;  // up to 10, described
};

// `progress`, when set, is called now and then with the entries done since
// its last call (from any thread).
VerifyReport VerifyRecords(const Table& table, int threads,
                           const std::function<void(uint64_t)>& progress = {});

}  // namespace mnk

#endif  // MNK_TABLE_VERIFY_H_
