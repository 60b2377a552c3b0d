// The table fuzzer's seeds (fuzz_corpus/table, byte 0 the fuzzer's mode,
// table_fuzzer.cc) start it where they should: each whole table among them
// is one this program reads, so that mutations reach the layouts' readers
// (a seed of an older format is refused at its first bytes), and the cut
// ones are refused as damaged.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "table/table.h"

namespace mnk {
namespace {

// A seed's table bytes (without the mode byte).
std::string Seed(const std::string& name) {
  std::ifstream in(std::string(std::getenv("TEST_SRCDIR")) +
                       "/mnk/table/fuzz_corpus/table/" + name,
                   std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  const std::string bytes = s.str();
  EXPECT_FALSE(bytes.empty()) << name << ": missing or empty";
  return bytes.empty() ? bytes : bytes.substr(1);
}

TEST(FuzzCorpusTest, WholeTablesAreRead) {
  for (const char* name :
       {"ttt", "compressed_ttt", "file_path_valid", "compressed_3x3g",
        "gravity2x2_fixcrc", "book_5x4g", "book_5x4g_packed"}) {
    const absl::StatusOr<Table> table = Table::FromBytes(Seed(name));
    EXPECT_TRUE(table.ok()) << name << ": " << table.status();
  }
}

TEST(FuzzCorpusTest, CutTablesAreRefused) {
  for (const char* name : {"truncated", "header_only", "file_path_truncated"}) {
    EXPECT_EQ(Table::FromBytes(Seed(name)).status().code(),
              absl::StatusCode::kDataLoss)
        << name;
  }
}

}  // namespace
}  // namespace mnk
