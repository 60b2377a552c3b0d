// Finds the tables built by //data at test time.
//
//   absl::StatusOr<mnk::Table> t = mnk::LoadBuiltTable("3x3k3.mnk");
#ifndef MNK_TESTS_TEST_TABLES_H_
#define MNK_TESTS_TEST_TABLES_H_

#include <string>

#include "absl/status/statusor.h"
#include "table/table.h"

namespace mnk {

// The path of data/<name> in the test's runfiles.
std::string BuiltTablePath(const std::string& name);
absl::StatusOr<Table> LoadBuiltTable(const std::string& name);

}  // namespace mnk

#endif  // MNK_TESTS_TEST_TABLES_H_
