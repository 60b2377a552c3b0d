#include "base/parallel/parallel.h"

#include <unistd.h>

#include <cstdio>

namespace mnk {

Progress::Progress(bool enabled, std::string label, uint64_t total,
                   std::string unit, ProgressCallback callback)
    : enabled_(enabled),
      callback_(std::move(callback)),
      label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)) {
  if (enabled_ || callback_) thread_ = std::thread([this] { Run(); });
}

Progress::~Progress() {
  if (!enabled_ && !callback_) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  Draw();
  if (enabled_) std::fputc('\n', stderr);
}

void Progress::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, std::chrono::milliseconds(250),
                       [this] { return stop_; })) {
    Draw();
  }
}

void Progress::Draw() {
  if (callback_) {
    const uint64_t total = total_.load();
    callback_(phase_.load(), layer_.load(), std::min(done_.load(), total),
              total);
  }
  if (!enabled_) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
          .count();
  const uint64_t resumed = resumed_.load();  // before done_: not above it
  const uint64_t done = done_.load();
  const double rate = seconds > 0 ? (done - resumed) / seconds : 0;
  const uint64_t total = total_.load();
  const double left = rate > 0 ? (total - std::min(done, total)) / rate : 0;
  const int layer = layer_.load();
  char where[32] = "", memory[64] = "";
  if (layer >= 0) std::snprintf(where, sizeof(where), " layer %2d", layer);
  const int tiers = tiers_.load();
  const uint64_t disk = disk_.load();
  char tier[96] = "";
  if (tiers > 1 || disk > 0) {
    // Resident memory from /proc (pages), disk as told.
    long pages = 0, resident = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
      std::fclose(f);
    }
    std::snprintf(tier, sizeof(tier), " tier %d/%d", tier_.load(), tiers);
    std::snprintf(memory, sizeof(memory), "  mem %.2f GB  disk %.2f GB",
                  resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1e9,
                  disk / 1e9);
  }
  std::fprintf(
      stderr, "\r%s: %s%s%s  %.3g of %.3g %s  %.3g/s%s  %.0f s left   ",
      label_.c_str(), phase_.load(), where, tier, static_cast<double>(done),
      static_cast<double>(total), unit_.c_str(), rate, memory, left);
}

}  // namespace mnk
