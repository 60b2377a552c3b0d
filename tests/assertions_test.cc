// The suite runs with assertions on (.bazelrc: `test --copt=-UNDEBUG`): this
// test fails if a configuration compiles them out again.
#include <cassert>

#include "gtest/gtest.h"

namespace mnk {
namespace {

TEST(AssertionsTest, AreOnInTests) {
#ifdef NDEBUG
  FAIL() << "NDEBUG is defined: assert() is compiled out in this test build";
#endif
  EXPECT_DEATH(assert(1 + 1 == 3), "1 \\+ 1 == 3");
}

}  // namespace
}  // namespace mnk
