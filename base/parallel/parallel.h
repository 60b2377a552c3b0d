// Work split into chunks over a few threads and a progress line on
// standard error: the helpers shared by the solver and verify.
//
//   mnk::Progress progress(/*enabled=*/true, "verify 4,4,4", total, "entries");
//   mnk::ParallelChunks(total, /*chunk=*/1 << 16, /*threads=*/2,
//                       [&](uint64_t begin, uint64_t end, int worker) {
//                         ...;  // [begin, end) on worker 0 or 1
//                         progress.Add(end - begin);
//                       });
#ifndef MNK_BASE_PARALLEL_PARALLEL_H_
#define MNK_BASE_PARALLEL_PARALLEL_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mnk {

// The threads a tool or a call works on when its caller says 0: one per
// core.
inline int DefaultThreads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Runs work(begin, end, worker) over [0, count) in chunks of at most `chunk`
// items on `threads` workers; worker 0 is the calling thread, and no other
// thread starts for a single chunk. [0, count) is cut into one stretch a
// worker: each worker claims the chunks of its own stretch in order, then
// helps the next stretches, claiming from their shared counters, so uneven
// chunks balance themselves. The workers start far apart, so the memory
// they write (a solve's children) is seldom on the same cache lines.
template <typename Work>
void ParallelChunks(uint64_t count, uint64_t chunk, int threads, Work&& work) {
  chunk = std::max<uint64_t>(chunk, 1);
  const uint64_t chunks = (count + chunk - 1) / chunk;
  threads = static_cast<int>(std::clamp<uint64_t>(
      chunks, 1, static_cast<uint64_t>(std::max(threads, 1))));
  struct alignas(64) Stretch {
    std::atomic<uint64_t> next;  // the stretch's next chunk
    uint64_t end;                // its end (a chunk number)
  };
  std::vector<Stretch> stretches(threads);
  for (int t = 0; t < threads; ++t) {
    stretches[t].next = chunks * t / threads;
    stretches[t].end = chunks * (t + 1) / threads;
  }
  auto run = [&](int worker) {
    for (int k = 0; k < threads; ++k) {
      Stretch& s = stretches[(worker + k) % threads];
      for (;;) {
        const uint64_t c = s.next.fetch_add(1);
        if (c >= s.end) break;
        work(c * chunk, std::min(count, (c + 1) * chunk), worker);
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run, t);
  run(0);
  for (std::thread& thread : pool) thread.join();
}

// What a progress callback is told, now and then from a thread of its
// own, and once at the end: the phase ("marking", "solving"), the layer
// (-1: none), and the work done of `total`.
using ProgressCallback = std::function<void(const char* phase, int layer,
                                            uint64_t done, uint64_t total)>;

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
  // `enabled`: the line on standard error; `callback`, when set, is called
  // every quarter second and once at the end.
  Progress(bool enabled, std::string label, uint64_t total,
           std::string unit = "positions", ProgressCallback callback = {});
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
  // Work found to do besides the total given (a layer walked again).
  void AddTotal(uint64_t n) { total_.fetch_add(n); }
  // Work found done in a work dir when resuming: counted as done, and left
  // out of the rate (so that "s left" is not drawn from it).
  void AddResumed(uint64_t n) {
    done_.fetch_add(n);  // first, so that resumed_ <= done_ when read
    resumed_.fetch_add(n);
  }
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
  const ProgressCallback callback_;
  const std::string label_;
  std::atomic<uint64_t> total_;
  const std::string unit_;
  const std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
  std::atomic<const char*> phase_{""};
  std::atomic<int> layer_{-1};
  std::atomic<uint64_t> done_{0};
  std::atomic<uint64_t> resumed_{0};  // of done_
  std::atomic<int> tier_{0}, tiers_{0};
  std::atomic<uint64_t> disk_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace mnk

#endif  // MNK_BASE_PARALLEL_PARALLEL_H_
