// The tables built into the tools and the library, compiled in as bytes
// (made at build time by //data:embed from the tables data/BUILD solves,
// and the committed Connect Four book): a tool copied anywhere keeps them.
//
//   std::optional<absl::string_view> bytes = mnk::BuiltinTable("3x3k3");
//   if (bytes) table = mnk::Table::FromStatic(*bytes);  // read in place
//
// Names are game file stems (GameSpec::FileStem): "3x3k3", "3x3k3m",
// "4x4k4g", and "7x6k4g-book" for the opening book of Connect Four 7x6.
#ifndef MNK_DATA_BUILTIN_H_
#define MNK_DATA_BUILTIN_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"

namespace mnk {

struct BuiltinFile {
  const char* name;
  absl::string_view bytes;
};

// Every built-in file, in a fixed order.
const std::vector<BuiltinFile>& BuiltinFiles();

// The bytes of the built-in file `name`; nullopt when there is none.
inline std::optional<absl::string_view> BuiltinTable(absl::string_view name) {
  for (const BuiltinFile& f : BuiltinFiles()) {
    if (name == f.name) return f.bytes;
  }
  return std::nullopt;
}

}  // namespace mnk

#endif  // MNK_DATA_BUILTIN_H_
