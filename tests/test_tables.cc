#include "tests/test_tables.h"

#include <memory>

#include "tools/cpp/runfiles/runfiles.h"

namespace mnk {

std::string BuiltTablePath(const std::string& name) {
  std::string error;
  std::unique_ptr<bazel::tools::cpp::runfiles::Runfiles> runfiles(
      bazel::tools::cpp::runfiles::Runfiles::CreateForTest(&error));
  return runfiles == nullptr ? "" : runfiles->Rlocation("mnk/data/" + name);
}

absl::StatusOr<Table> LoadBuiltTable(const std::string& name) {
  return Table::Load(BuiltTablePath(name));
}

}  // namespace mnk
