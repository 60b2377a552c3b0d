#include "serve/search_pool.h"

#include <atomic>
#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace mnk {
namespace {

// A job that runs until told to stop, and says why it stopped.
SearchPool::Job UntilStopped(std::atomic<int>* why,
                             absl::Notification* started = nullptr) {
  return [why, started](const SearchPool::StopFlag& stop) {
    if (started != nullptr) started->Notify();
    while (!stop.flag.load()) absl::SleepFor(absl::Milliseconds(1));
    why->store(stop.why());
  };
}

TEST(SearchPoolTest, RefusesWhenEveryThreadIsBusy) {
  SearchPool pool(2);
  std::atomic<int> first{-1}, second{-1};
  ASSERT_TRUE(pool.Reserve());
  pool.Run(UntilStopped(&first));
  ASSERT_TRUE(pool.Reserve());
  pool.Run(UntilStopped(&second));
  EXPECT_FALSE(pool.Reserve());
  pool.Stop();
  EXPECT_EQ(first.load(), SearchPool::kStopping);
  EXPECT_EQ(second.load(), SearchPool::kStopping);
  EXPECT_FALSE(pool.Reserve());
}

TEST(SearchPoolTest, AThreadComesFreeOnceItsJobReturns) {
  SearchPool pool(1);
  absl::Notification done;
  ASSERT_TRUE(pool.Reserve());
  pool.Run([&](const SearchPool::StopFlag&) { done.Notify(); });
  done.WaitForNotification();
  while (!pool.Reserve()) absl::SleepFor(absl::Milliseconds(5));
  std::atomic<bool> ran{false};
  absl::Notification again;
  pool.Run([&](const SearchPool::StopFlag& stop) {
    ran.store(!stop.flag.load());
    again.Notify();
  });
  again.WaitForNotification();
  pool.Stop();
  EXPECT_TRUE(ran.load());
}

TEST(SearchPoolTest, AJobRunAfterStopIsCancelledAtOnce) {
  SearchPool pool(1);
  ASSERT_TRUE(pool.Reserve());
  std::thread stopper([&] { pool.Stop(); });
  stopper.join();
  std::atomic<int> why{-1};
  pool.Run(UntilStopped(&why));
  EXPECT_EQ(why.load(), SearchPool::kStopping);
}

}  // namespace
}  // namespace mnk
