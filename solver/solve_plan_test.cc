#include "solver/solve_plan.h"

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/parallel/cluster.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"

namespace mnk {
namespace {

// The ranks of a shared solve as threads of this process: what MPI does
// for solve_mpi (base/parallel/mpi_cluster.h), meeting at a barrier.
class ThreadRanks {
 public:
  explicit ThreadRanks(int size) : size_(size), words_(), ranks_() {
    for (int r = 0; r < size; ++r) ranks_.emplace_back(this, r);
  }
  Cluster& rank(int r) { return ranks_[r]; }

 private:
  class Rank : public Cluster {
   public:
    Rank(ThreadRanks* all, int rank) : all_(all), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return all_->size_; }
    bool AllOk(bool ok) override {
      return all_->Meet([&] { all_->ok_ = all_->ok_ && ok; },
                        [&] { return all_->ok_; });
    }
    void OrWords(uint64_t* words, size_t count) override {
      all_->Meet(
          [&] {
            all_->words_.resize(count, 0);
            for (size_t i = 0; i < count; ++i) all_->words_[i] |= words[i];
          },
          [&] {
            for (size_t i = 0; i < count; ++i) words[i] = all_->words_[i];
            return true;
          });
    }

   private:
    ThreadRanks* all_;
    int rank_;
  };

  // Every rank adds its part, waits for all, then reads the whole; the
  // last to read resets it for the next meeting.
  template <typename Add, typename Read>
  bool Meet(Add add, Read read) {
    std::unique_lock<std::mutex> lock(mutex_);
    const uint64_t round = round_;
    add();
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++round_;
      changed_.notify_all();
    } else {
      changed_.wait(lock, [&] { return round_ != round; });
    }
    const bool result = read();
    if (++left_ == size_) {
      left_ = 0;
      ok_ = true;
      words_.clear();
      ++round_;
      changed_.notify_all();
    } else {
      changed_.wait(lock, [&] { return round_ != round + 1; });
    }
    return result;
  }

  const int size_;
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t round_ = 0;
  int arrived_ = 0, left_ = 0;
  bool ok_ = true;
  std::vector<uint64_t> words_;
  std::vector<Rank> ranks_;
};

// A plan's payload bytes are what the solve then writes, reads and joins:
// 5x4 gravity, compressed, tiers of 2^14 indices, three ranks. Rank 0 also
// writes each even layer's sections and reads them back for the table
// (not planned: their size is known only once encoded) and a few bytes a
// layer; the others' figures are exact.
struct Case {
  uint64_t tier_indices;
  uint64_t max_bytes;  // 153 KiB: the forward pass marks layers 14 to 18
                       // in two windows of 516,096 indices (504 tiers), 63
                       // KiB of bits, held twice as they are joined
  uint64_t tiers;      // in all
  uint64_t window;     // ReachWindow: the widest layer's size when whole
};

class SolvePlanTest : public ::testing::TestWithParam<Case> {};

TEST_P(SolvePlanTest, PayloadsAreWhatTheSolveMoves) {
  const Game game = *Game::Create({5, 4, 4, true});
  SolveOptions options;
  options.threads = 1;
  options.layout = TableLayout::Compressed(true);
  options.tier_indices = GetParam().tier_indices;
  options.max_bytes = GetParam().max_bytes;
  options.work_dir = std::string(getenv("TEST_TMPDIR")) + "/plan" +
                     std::to_string(GetParam().tier_indices);
  EXPECT_EQ(ReachWindow(game, options, 3), GetParam().window);
  const SolvePlan plan = PlanSolve(game, options, 3, 125e6);
  ASSERT_EQ(plan.process.size(), 3u);

  ThreadRanks ranks(3);
  std::vector<SolveStats> stats(3);
  std::vector<uint64_t> table(3, 0);
  std::vector<std::thread> threads;
  for (int r = 0; r < 3; ++r) {
    threads.emplace_back([&, r] {
      SolveOptions mine = options;
      mine.cluster = &ranks.rank(r);
      absl::StatusOr<Solution> s = Solve(game, mine);
      ASSERT_TRUE(s.ok()) << s.status();
      stats[r] = s->stats;
      table[r] = s->kept->FileBytes();
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(stats[0].reachable, 3945711u);

  uint64_t tiers = 0;
  for (int r = 0; r < 3; ++r) {
    SCOPED_TRACE(r);
    const ProcessPlan& p = plan.process[r];
    tiers += p.tiers;
    EXPECT_EQ(p.tiers, stats[r].tiers_solved);
    EXPECT_EQ(p.joined, stats[r].joined);
    if (r > 0) {
      EXPECT_EQ(p.written, stats[r].payload_written);
      EXPECT_EQ(p.read, stats[r].payload_read);
    }
  }
  EXPECT_EQ(tiers, GetParam().tiers);
  // Rank 0: the sections (the table's bytes, but its header) both ways,
  // and a count a layer (73 bytes, D<layer>).
  EXPECT_LE(plan.process[0].written, stats[0].payload_written);
  EXPECT_LE(stats[0].payload_written - plan.process[0].written,
            table[0] + 21 * 73);
  EXPECT_LE(plan.process[0].read, stats[0].payload_read);
  EXPECT_LE(stats[0].payload_read - plan.process[0].read, table[0]);
}

INSTANTIATE_TEST_SUITE_P(
    WholeLayersAndWindows, SolvePlanTest,
    ::testing::Values(Case{uint64_t{1} << 14, uint64_t{16} << 30, 356, 900900},
                      Case{1024, 153 << 10, 5502, 516096}));

// docs/big-boards.md's example: 6x5 gravity on two processes.
TEST(SolvePlanReportTest, SixByFiveOnTwoProcesses) {
  const Game game = *Game::Create({6, 5, 4, true});
  SolveOptions options;
  options.threads = 1;
  options.layout = TableLayout::Compressed(true);
  options.work_dir = "DIR";
  const SolvePlan plan = PlanSolve(game, options, 2, 125 << 20);
  const std::string report = PlanReport(game, options, plan);
  for (const char* line :
       {" 6,5,4 gravity, compressed, tiers of 1048576 indices, 2 processes of "
        "1 thread\n",
        "  0              4737  332.57 MiB marking layer 24   107.13 MiB   "
        "12.79 GiB  149.08 GiB    1.15 GiB\n",
        "  1              4741  254.46 MiB marking layer 24   107.13 MiB   "
        "11.62 GiB   88.44 GiB    1.15 GiB\n",
        "  rank 0     332.57 MiB to 412.07 MiB at most: solving, it also holds "
        "up to 74.99 MiB to 304.94 MiB of the largest even layer's sections "
        "and their compressed copy\n"}) {
    EXPECT_NE(report.find(line), std::string::npos) << line << report;
  }
  EXPECT_EQ(plan.process[1].written, uint64_t{12474414966});
}

}  // namespace
}  // namespace mnk
