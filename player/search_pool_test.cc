#include "player/search_pool.h"

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
  SearchPool pool(2, absl::Seconds(60));
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

TEST(SearchPoolTest, CancelsAJobPastItsDeadlineAndFreesItsThread) {
  SearchPool pool(1, absl::Milliseconds(100));
  std::atomic<int> why{-1};
  absl::Notification started;
  const absl::Time start = absl::Now();
  ASSERT_TRUE(pool.Reserve());
  pool.Run(UntilStopped(&why, &started));
  started.WaitForNotification();
  while (why.load() < 0) absl::SleepFor(absl::Milliseconds(5));
  EXPECT_EQ(why.load(), SearchPool::kDeadline);
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(100));
  // The thread comes free once the job has returned.
  while (!pool.Reserve()) absl::SleepFor(absl::Milliseconds(5));
  std::atomic<bool> ran{false};
  absl::Notification done;
  pool.Run([&](const SearchPool::StopFlag& stop) {
    ran.store(!stop.flag.load());
    done.Notify();
  });
  done.WaitForNotification();
  pool.Stop();
  EXPECT_TRUE(ran.load());
}

TEST(SearchPoolTest, AJobRunAfterStopIsCancelledAtOnce) {
  SearchPool pool(1, absl::Seconds(60));
  ASSERT_TRUE(pool.Reserve());
  std::thread stopper([&] { pool.Stop(); });
  stopper.join();
  std::atomic<int> why{-1};
  pool.Run(UntilStopped(&why));
  EXPECT_EQ(why.load(), SearchPool::kStopping);
}

}  // namespace
}  // namespace mnk
