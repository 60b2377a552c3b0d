#include "solver/parallel/parallel.h"

#include <atomic>
#include <cstdint>
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
