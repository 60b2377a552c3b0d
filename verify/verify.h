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
//
// VerifyRecords holds whole layers (a compressed table: a byte an entry of
// two layers). VerifyInWorkDir makes the same checks of a compressed table
// a tier at a time, with scratch tiers on disk, for boards
// whose layers do not fit in memory (6x6: 7.6e10 entries a layer):
//
//   mnk::TieredVerifyOptions options;
//   options.work_dir = "/big/verify.work";
//   absl::StatusOr<mnk::VerifyReport> r = mnk::VerifyInWorkDir(*t, options);
#ifndef MNK_VERIFY_VERIFY_H_
#define MNK_VERIFY_VERIFY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
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

struct TieredVerifyOptions {
  std::string work_dir;  // created when missing; see verify_tiers.cc
  int threads = 1;
  // Indices a scratch tier holds: a power of two, 2^6 to 2^32.
  uint64_t tier_indices = uint64_t{1} << 24;
  // Continue a verify stopped at any moment in `work_dir` (the tiers and
  // layers done there are taken as they are).
  bool resume = false;
};

// VerifyRecords' checks of a compressed table, a tier at a time: the
// reachable positions found by a forward pass, every stored record against
// its children (every position in play derived from the layer above, the
// stored ones compared), the same report when the table is right. Errors:
// kInvalidArgument for another kind of table or a bad option; the work dir's
// (store/work_dir.h: kAlreadyExists for one in use without `resume`,
// kFailedPrecondition for another verify's, kResourceExhausted for a full
// disk); kDataLoss when a scratch tier that cannot be made again is damaged.
// Sections that do not decode are an error of the report, as in VerifyRecords.
// `progress` as in VerifyRecords; `found_done`, when set, is called with the
// entries of the tiers and layers a resumed run finds done in the work dir.
absl::StatusOr<VerifyReport> VerifyInWorkDir(
    const Table& table, const TieredVerifyOptions& options,
    const std::function<void(uint64_t)>& progress = {},
    const std::function<void(uint64_t)>& found_done = {});

}  // namespace mnk

#endif  // MNK_VERIFY_VERIFY_H_
