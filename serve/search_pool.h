// The threads that run the server's searches, off the thread that accepts
// and answers connections: at most `threads` jobs at once and none waiting
// (a request that finds every thread busy is answered at once, 503), and
// every job cancelled when the pool stops. A job is told to stop through
// its cancel flag, which the searches poll. (A search's time limit is its
// own: AnswerLimits, checked inside the search.)
//
//   mnk::SearchPool pool(/*threads=*/2);
//   if (pool.Reserve()) {
//     // ... whatever must happen before the job may run ...
//     pool.Run([](const mnk::SearchPool::StopFlag& stop) {
//       Reply r = games.PositionReply(id, position, &stop.flag);
//       if (stop.why() == mnk::SearchPool::kStopping) ...
//     });
//   } else {
//     // every thread busy: answer 503 with Retry-After
//   }
//   pool.Stop();  // cancels what runs, waits for it to end
#ifndef MNK_SERVE_SEARCH_POOL_H_
#define MNK_SERVE_SEARCH_POOL_H_

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"

namespace mnk {

class SearchPool {
 public:
  // Why a job was told to stop.
  enum Why { kRunning = 0, kStopping = 1 };
  // A job's cancel flag, and why it was set.
  struct StopFlag {
    std::atomic<bool> flag{false};
    std::atomic<int> reason{kRunning};
    Why why() const { return static_cast<Why>(reason.load()); }
  };
  using Job = std::function<void(const StopFlag& stop)>;

  // `threads` >= 1.
  explicit SearchPool(int threads);
  ~SearchPool();  // Stop()
  SearchPool(const SearchPool&) = delete;
  SearchPool& operator=(const SearchPool&) = delete;

  // Takes a thread for the next Run: false when every thread is busy or
  // reserved, or the pool is stopping. Reserve and Run are called from one
  // thread, each Reserve that returned true followed by its Run.
  bool Reserve();
  // Runs `job` on the thread Reserve took.
  void Run(Job job);
  // Cancels every job running (kStopping), waits for each to return, and
  // ends the threads. Reserve is refused from then on. Idempotent.
  void Stop();

 private:
  struct Slot {
    Job job;
    StopFlag stop;
    bool busy = false;  // reserved or running
  };
  void Work(Slot& slot);

  absl::Mutex mu_;
  std::vector<Slot> slots_ ABSL_GUARDED_BY(mu_);
  int reserved_ ABSL_GUARDED_BY(mu_) = -1;  // the slot Reserve took
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace mnk

#endif  // MNK_SERVE_SEARCH_POOL_H_
