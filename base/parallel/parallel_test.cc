#include "base/parallel/parallel.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace mnk {
namespace {

TEST(ParallelChunksTest, CoversEveryItemOnceOnEveryWorker) {
  for (int threads : {1, 2, 3}) {
    for (uint64_t count : {0, 1, 7, 1000}) {
      std::vector<std::atomic<int>> hits(count);
      std::atomic<int> max_worker{0};
      ParallelChunks(count, 3, threads,
                     [&](uint64_t begin, uint64_t end, int worker) {
                       ASSERT_LE(end - begin, 3u);
                       ASSERT_LT(worker, threads);
                       int seen = max_worker.load();
                       while (worker > seen &&
                              !max_worker.compare_exchange_weak(seen, worker)) {
                       }
                       for (uint64_t i = begin; i < end; ++i) ++hits[i];
                     });
      for (uint64_t i = 0; i < count; ++i) {
        EXPECT_EQ(hits[i].load(), 1) << "item " << i << ", " << threads;
      }
    }
  }
}

// Each worker starts on a stretch of its own: worker 1 of 2 on the second
// half.
TEST(ParallelChunksTest, WorkersStartFarApart) {
  std::atomic<int64_t> first_of_worker1{-1};
  std::atomic<int64_t> first_of_worker0{-1};
  // Each worker waits in its first chunk until the other has taken one: on
  // a busy machine one thread may otherwise start only once the other has
  // taken every chunk (seen under ASan in CI).
  ParallelChunks(1000, 10, 2, [&](uint64_t begin, uint64_t, int worker) {
    std::atomic<int64_t>& mine =
        worker == 0 ? first_of_worker0 : first_of_worker1;
    std::atomic<int64_t>& other =
        worker == 0 ? first_of_worker1 : first_of_worker0;
    int64_t none = -1;
    if (mine.compare_exchange_strong(none, begin)) {
      for (int i = 0; i < 10000 && other.load() < 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
  });
  EXPECT_EQ(first_of_worker0.load(), 0);
  EXPECT_EQ(first_of_worker1.load(), 500);
}

// No worker asked for: the calling thread does it all.
TEST(ParallelChunksTest, ZeroThreadsRunOnTheCallingThread) {
  uint64_t covered = 0;
  ParallelChunks(100, 7, 0, [&](uint64_t begin, uint64_t end, int worker) {
    EXPECT_EQ(worker, 0);
    covered += end - begin;
  });
  EXPECT_EQ(covered, 100u);
}

TEST(ParallelChunksTest, OneChunkRunsOnTheCallingThread) {
  int calls = 0, worker_seen = -1;
  ParallelChunks(5, 10, 4, [&](uint64_t begin, uint64_t end, int worker) {
    ++calls;
    worker_seen = worker;
    EXPECT_EQ(begin, 0u);
    EXPECT_EQ(end, 5u);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(worker_seen, 0);
}

}  // namespace
}  // namespace mnk
