#include "store/tier_flags.h"

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/cli/cli.h"
#include "rules/game/printable.h"
#include "store/work_dir.h"

ABSL_FLAG(bool, resume, false,
          "continue the run kept in --work-dir, with the same options");
ABSL_FLAG(std::string, tier_indices, "1048576",
          "with --work-dir: indices a tier holds, a power of two (more: "
          "fewer files and more memory; never changes a table)");

namespace mnk {

absl::StatusOr<TierFlags> TierFlagsFromFlags(const std::string& work_dir) {
  TierFlags flags;
  flags.resume = absl::GetFlag(FLAGS_resume);
  const std::string tiers = absl::GetFlag(FLAGS_tier_indices);
  if (!absl::SimpleAtoi(tiers, &flags.tier_indices) || tiers[0] == '+' ||
      !CheckTierIndices(flags.tier_indices).ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--tier-indices=", Printable(tiers), ": expected a power of two from ",
        kMinTierIndices, " to ", kMaxTierIndices, ", e.g. 1048576"));
  }
  if (work_dir.empty() && (FlagGiven("resume") || FlagGiven("tier_indices"))) {
    return absl::InvalidArgumentError(
        absl::StrCat(FlagGiven("resume") ? "--resume" : "--tier-indices",
                     " needs the --work-dir=DIR of the run"));
  }
  return flags;
}

}  // namespace mnk
