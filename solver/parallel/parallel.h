// Work split into chunks over a few threads, and a progress line on standard
// error: the two helpers shared by the solver and verify.
//
//   mnk::Progress progress(/*enabled=*/true, "verify 4,4,4", total, "entries");
//   mnk::ParallelChunks(total, /*chunk=*/1 << 16, /*threads=*/2,
//                       [&](uint64_t begin, uint64_t end, int worker) {
//                         ...;  // [begin, end) on worker 0 or 1
//                         progress.Add(end - begin);
//                       });
#ifndef MNK_SOLVER_PARALLEL_PARALLEL_H_
#define MNK_SOLVER_PARALLEL_PARALLEL_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mnk {

// Runs work(begin, end, worker) over [0, count) in chunks of at most `chunk`
// items handed out in order to `threads` workers; worker 0 is the calling
// thread, and no other thread starts for a single chunk. Chunks are claimed
// from a shared counter, so uneven chunks balance themselves.
template <typename Work>
void ParallelChunks(uint64_t count, uint64_t chunk, int threads, Work&& work) {
  chunk = std::max<uint64_t>(chunk, 1);
  if (count <= chunk) threads = 1;
  std::atomic<uint64_t> next{0};
  auto run = [&](int worker) {
    for (;;) {
      const uint64_t begin = next.fetch_add(chunk);
      if (begin >= count) break;
      work(begin, std::min(count, begin + chunk), worker);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run, t);
  run(0);
  for (std::thread& thread : pool) thread.join();
}

// While alive and enabled, redraws one line on standard error four times a
// second:
//   "solve 4,4,4: solving layer 9  1.2e+06 of 1e+07 positions  3.1e+06/s
//    2 s left"
// and for a solve in tiers with a work dir
//   "solve 5,4,4: solving layer 9 tier 3/40  ...  3.1e+06/s  mem 1.2 GB
//    disk 0.31 GB  20 s left"
// and ends it with a newline when destroyed. Add() is thread-safe.
class Progress {
 public:
  Progress(bool enabled, std::string label, uint64_t total,
           std::string unit = "positions");
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `phase` must outlive the Progress (a string literal); layer < 0 shows
  // none.
  void SetPhase(const char* phase, int layer = -1) {
    phase_.store(phase);
    layer_.store(layer);
  }
  void Add(uint64_t n) { done_.fetch_add(n, std::memory_order_relaxed); }
  // Tier `tier` (from 1) of `tiers` in the current layer: shown with the
  // memory in use, when tiers > 1 or something went to disk.
  void SetTier(int tier, int tiers) {
    tier_.store(tier);
    tiers_.store(tiers);
  }
  // Bytes written to disk so far (a work dir), shown when not 0.
  void SetDisk(uint64_t bytes) { disk_.store(bytes); }

 private:
  void Run();
  void Draw();

  const bool enabled_;
  const std::string label_;
  const uint64_t total_;
  const std::string unit_;
  const std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
  std::atomic<const char*> phase_{""};
  std::atomic<int> layer_{-1};
  std::atomic<uint64_t> done_{0};
  std::atomic<int> tier_{0}, tiers_{0};
  std::atomic<uint64_t> disk_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace mnk

#endif  // MNK_SOLVER_PARALLEL_PARALLEL_H_
