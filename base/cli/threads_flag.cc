#include "base/cli/threads_flag.h"

#include <algorithm>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "base/cli/cli.h"

ABSL_FLAG(int, threads, 0, "threads at work (0: one per core)");

namespace mnk {

absl::StatusOr<int> ThreadsFromFlag(int max) {
  const int asked = absl::GetFlag(FLAGS_threads);
  absl::StatusOr<int> threads = ThreadsFlag(asked);
  if (!threads.ok()) return threads.status();
  if (asked == 0) return std::min(*threads, max);
  if (*threads > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("--threads=", asked, ": expected 0 (one per core, ",
                     *threads, " here) to ", max));
  }
  return threads;
}

}  // namespace mnk
