#include "base/cli/search_flags.h"

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "base/cli/cli.h"
#include "rules/game/printable.h"

ABSL_FLAG(std::string, search_memory, "16M",
          "memory for the exact search's transposition table, shared by its "
          "threads (K, M, G: powers of 1024)");

namespace mnk {

absl::StatusOr<SearchMemory> SearchMemoryFromFlag() {
  const std::string text = absl::GetFlag(FLAGS_search_memory);
  absl::StatusOr<uint64_t> bytes = BytesFlag("search_memory", text);
  if (!bytes.ok()) return bytes.status();
  return SearchMemory{*bytes,
                      absl::StrCat("--search_memory=", Printable(text))};
}

}  // namespace mnk
