// --threads, defined once for every tool that works on several threads
// (solve, verify, book, play, the benchmarks): 0, the default, is one per
// core.
//
//   absl::StatusOr<int> threads = mnk::ThreadsFromFlag();
//   if (!threads.ok()) return mnk::Fail(mnk::kExitUsage, threads.status());
#ifndef MNK_BASE_CLI_THREADS_FLAG_H_
#define MNK_BASE_CLI_THREADS_FLAG_H_

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"

ABSL_DECLARE_FLAG(int, threads);

namespace mnk {

// The threads --threads asks for, at least 1 (0: one per core, at most
// `max`); kInvalidArgument when it asks for more than `max`.
absl::StatusOr<int> ThreadsFromFlag(int max);

}  // namespace mnk

#endif  // MNK_BASE_CLI_THREADS_FLAG_H_
