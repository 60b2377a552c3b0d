// --search_memory, defined once for every tool that runs the exact search
// of Connect-style boards (play, serve, book): the bytes of its
// transposition table.
//
//   absl::StatusOr<mnk::SearchMemory> memory = mnk::SearchMemoryFromFlag();
//   if (!memory.ok()) return mnk::Fail(mnk::kExitUsage, memory.status());
//   options.search_memory = memory->bytes;       // 16777216
//   options.search_memory_name = memory->name;   // "--search_memory=16M"
#ifndef MNK_BASE_CLI_SEARCH_FLAGS_H_
#define MNK_BASE_CLI_SEARCH_FLAGS_H_

#include <cstdint>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"

ABSL_DECLARE_FLAG(std::string, search_memory);

namespace mnk {

struct SearchMemory {
  uint64_t bytes = 0;
  std::string name;  // the flag as given, for messages
};

// --search_memory, parsed (K, M, G, T: powers of 1024): kInvalidArgument
// naming the flag when it is not a positive size.
absl::StatusOr<SearchMemory> SearchMemoryFromFlag();

}  // namespace mnk

#endif  // MNK_BASE_CLI_SEARCH_FLAGS_H_
