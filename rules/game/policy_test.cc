#include "rules/game/policy.h"

#include "gtest/gtest.h"

namespace mnk {
namespace {

TEST(PolicyTest, PrefersWinsThenDrawsThenLosses) {
  EXPECT_GT(PolicyScore(Value::kWin, 9), PolicyScore(Value::kDraw, 1));
  EXPECT_GT(PolicyScore(Value::kDraw, 9), PolicyScore(Value::kLoss, 1));
  EXPECT_EQ(PolicyScore(Value::kDraw, 2), PolicyScore(Value::kDraw, 7));
}

TEST(PolicyTest, BestMoveTakesTheFastestWinAtTheLowestCell) {
  BestMove best;
  EXPECT_TRUE(best.empty());
  EXPECT_EQ(best.cell(), -1);
  best.Add(0, Value::kWin, 3);   // a loss in 4 for the mover
  best.Add(1, Value::kDraw, 5);  // a draw
  best.Add(2, Value::kLoss, 4);  // a win in 5
  best.Add(3, Value::kLoss, 2);  // a win in 3
  best.Add(4, Value::kLoss, 2);  // as fast: the lower cell stays
  EXPECT_FALSE(best.empty());
  EXPECT_EQ(best.cell(), 3);
  EXPECT_EQ(best.value(), Value::kWin);
  EXPECT_EQ(best.remoteness(), 3);
}

TEST(PolicyTest, BestMoveTakesTheSlowestLoss) {
  BestMove best;
  best.Add(2, Value::kWin, 1);
  best.Add(5, Value::kWin, 5);
  best.Add(7, Value::kWin, 5);
  EXPECT_EQ(best.cell(), 5);
  EXPECT_EQ(best.value(), Value::kLoss);
  EXPECT_EQ(best.remoteness(), 6);
  BestMove ended;
  ended.Add(4, Value::kLoss, 0);  // the move makes a line
  EXPECT_EQ(ended.value(), Value::kWin);
  EXPECT_EQ(ended.remoteness(), 1);
}

}  // namespace
}  // namespace mnk
