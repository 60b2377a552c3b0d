// --resume and --tier_indices, defined once for the tools whose work dir
// holds tiers (solve, verify). Both need --work_dir.
//
//   absl::StatusOr<mnk::TierFlags> tiers = mnk::TierFlagsFromFlags(dir);
//   if (!tiers.ok()) return mnk::Fail(mnk::kExitUsage, tiers.status());
//   options.resume = tiers->resume;
//   options.tier_indices = tiers->tier_indices;  // 1048576 by default
#ifndef MNK_STORE_TIER_FLAGS_H_
#define MNK_STORE_TIER_FLAGS_H_

#include <cstdint>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"

ABSL_DECLARE_FLAG(bool, resume);
ABSL_DECLARE_FLAG(std::string, tier_indices);

namespace mnk {

struct TierFlags {
  bool resume = false;
  uint64_t tier_indices = 0;
};

// The flags, checked: kInvalidArgument for a --tier_indices that is not a
// power of two from kMinTierIndices to kMaxTierIndices, or for either flag
// given without a `work_dir`.
absl::StatusOr<TierFlags> TierFlagsFromFlags(const std::string& work_dir);

}  // namespace mnk

#endif  // MNK_STORE_TIER_FLAGS_H_
