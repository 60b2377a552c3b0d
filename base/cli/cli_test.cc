#include "base/cli/cli.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace mnk {
namespace {

TEST(UserPathTest, RelativePathsAreTheUsersUnderBazelRun) {
  unsetenv("BUILD_WORKING_DIRECTORY");
  EXPECT_EQ(UserPath("t.mnk"), "t.mnk");
  setenv("BUILD_WORKING_DIRECTORY", "/home/me/work", 1);
  EXPECT_EQ(UserPath("t.mnk"), "/home/me/work/t.mnk");
  EXPECT_EQ(UserPath("../t.mnk"), "/home/me/work/../t.mnk");
  EXPECT_EQ(UserPath("/tmp/t.mnk"), "/tmp/t.mnk");
  EXPECT_EQ(UserPath(""), "");
  unsetenv("BUILD_WORKING_DIRECTORY");
}

TEST(AbsolutePathTest, JoinsTheCurrentFolder) {
  EXPECT_EQ(AbsolutePath("/tmp/t.mnk"), "/tmp/t.mnk");
  const std::string here = AbsolutePath("t.mnk");
  EXPECT_EQ(here.front(), '/');
  EXPECT_EQ(here.substr(here.size() - 6), "/t.mnk");
  EXPECT_EQ(AbsolutePath("./t.mnk"), here);
}

TEST(HelpAskedTest, FindsTheHelpFlagsBeforeALoneDoubleDash) {
  char prog[] = "play", help[] = "--help", h[] = "-h", dash[] = "--",
       other[] = "--table=x";
  char* with[] = {prog, other, help};
  char* short_form[] = {prog, h};
  char* after_dash[] = {prog, dash, help};
  char* without[] = {prog, other};
  EXPECT_TRUE(HelpAsked(3, with));
  EXPECT_TRUE(HelpAsked(2, short_form));
  EXPECT_FALSE(HelpAsked(3, after_dash));
  EXPECT_FALSE(HelpAsked(2, without));
}

}  // namespace
}  // namespace mnk
