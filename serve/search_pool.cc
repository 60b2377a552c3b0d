#include "serve/search_pool.h"

#include <cassert>
#include <utility>

namespace mnk {

SearchPool::SearchPool(int threads) : slots_(threads) {
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([this, i] {
      Slot* slot;
      {
        absl::MutexLock lock(&mu_);
        slot = &slots_[i];
      }
      Work(*slot);
    });
  }
}

SearchPool::~SearchPool() { Stop(); }

bool SearchPool::Reserve() {
  absl::MutexLock lock(&mu_);
  assert(reserved_ < 0 && "Run the job Reserve made room for first");
  if (stopping_) return false;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].busy) {
      slots_[i].busy = true;
      reserved_ = static_cast<int>(i);
      return true;
    }
  }
  return false;
}

void SearchPool::Run(Job job) {
  {
    absl::MutexLock lock(&mu_);
    Slot& slot = slots_[reserved_];
    reserved_ = -1;
    if (!stopping_) {
      slot.stop.flag.store(false);
      slot.stop.reason.store(kRunning);
      slot.job = std::move(job);
      return;
    }
    slot.busy = false;
  }
  // The pool stopped since Reserve: the job runs here, cancelled at once.
  StopFlag stopped;
  stopped.reason.store(kStopping);
  stopped.flag.store(true);
  job(stopped);
}

void SearchPool::Work(Slot& slot) {
  while (true) {
    Job job;
    {
      absl::MutexLock lock(&mu_);
      std::pair<Slot*, bool*> state(&slot, &stopping_);
      mu_.Await(absl::Condition(
          +[](std::pair<Slot*, bool*>* s) {
            return s->first->job != nullptr || *s->second;
          },
          &state));
      if (slot.job == nullptr) return;  // stopping, nothing to run
      job = std::move(slot.job);
      slot.job = nullptr;
    }
    job(slot.stop);
    absl::MutexLock lock(&mu_);
    slot.busy = false;
  }
}

void SearchPool::Stop() {
  {
    absl::MutexLock lock(&mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    for (Slot& slot : slots_) {
      if (slot.busy) {
        slot.stop.reason.store(kStopping);
        slot.stop.flag.store(true);
      }
    }
  }
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

}  // namespace mnk
