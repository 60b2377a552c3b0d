#include "solver/solve_job.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "table/table.h"

namespace mnk {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

// Auto on tic-tac-toe: a full table, its bytes counted once, solved and
// written, and the file reads back with its 5,478 reachable positions.
TEST(SolveJobTest, SolvesAndWritesTicTacToe) {
  SolveRequest request;
  request.game = {3, 3, 3};
  request.threads = 1;
  request.out = TempPath("ttt.mnk");
  absl::StatusOr<SolveJob> job = PlanSolveJob(request);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->options.layout, TableLayout::Full());
  EXPECT_EQ(job->options.threads, 1);
  EXPECT_EQ(job->bytes, SolveBytes(job->game, job->options));
  EXPECT_EQ(job->estimate.indices, 6046u);
  EXPECT_TRUE(job->refusal.empty());
  EXPECT_TRUE(job->layout_note.empty());
  absl::StatusOr<Solved> solved = RunSolveJob(*job);
  ASSERT_TRUE(solved.ok()) << solved.status();
  EXPECT_EQ(solved->solution.stats.reachable, 5478u);
  EXPECT_EQ(solved->table_bytes, 13688u);
  absl::StatusOr<Table> table = Table::Load(request.out, request.game);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->reachable(), 5478u);
  EXPECT_EQ(table->file_bytes(), 13688u);
}

// A compressed table without remoteness, in tiers: what the bindings could
// not write before the one call.
TEST(SolveJobTest, WritesACompressedTableInTiers) {
  SolveRequest request;
  request.game = {4, 4, 4, /*gravity=*/true};
  request.layout = Layout::kCompressed;
  request.remoteness = false;
  request.work_dir = TempPath("tiers-work");
  request.tier_indices = 1 << 12;
  request.out = TempPath("4x4.mnk");
  absl::StatusOr<SolveJob> job = PlanSolveJob(request);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->options.layout, TableLayout::Compressed(false));
  absl::StatusOr<Solved> solved = RunSolveJob(*job);
  ASSERT_TRUE(solved.ok()) << solved.status();
  EXPECT_GT(solved->solution.stats.tiers_solved, 1u);
  EXPECT_GT(solved->value_bytes, 0u);
  EXPECT_EQ(solved->remoteness_bytes, 0u);
  absl::StatusOr<Table> table = Table::Load(request.out, request.game);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_STREQ(table->layout_name(), "compressed");
  EXPECT_EQ(table->file_bytes(), solved->table_bytes);
}

// Auto steps down to the compressed layout when the full one does not fit,
// and says so; below that it is refused, with what needs less.
TEST(SolveJobTest, AutoFitsTheMemoryOrRefuses) {
  SolveRequest request;
  request.game = {4, 4, 4};
  request.memory = 20 << 20;
  absl::StatusOr<SolveJob> job = PlanSolveJob(request);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->options.layout, TableLayout::Compressed(true));
  EXPECT_EQ(job->layout_note,
            "--layout=auto: a full table needs 25.66 MiB to solve, more than "
            "--memory=20.00 MiB; writing a compressed table instead");
  request.memory = 1 << 20;
  job = PlanSolveJob(request);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_TRUE(absl::StrContains(
      job->refusal, "needs 4.84 MiB; the limit is 1.00 MiB (--memory)"))
      << job->refusal;
  const absl::StatusOr<Solved> solved = RunSolveJob(*job);
  EXPECT_TRUE(absl::IsResourceExhausted(solved.status()));
  EXPECT_EQ(solved.status().message(), job->refusal);
  EXPECT_EQ(SolveFailureOf(solved.status()), SolveFailure::kMemory);
}

TEST(SolveJobTest, RefusesBadRequests) {
  const auto message = [](const SolveRequest& r) {
    const absl::StatusOr<SolveJob> job = PlanSolveJob(r);
    EXPECT_TRUE(absl::IsInvalidArgument(job.status())) << job.status();
    return std::string(job.status().message());
  };
  SolveRequest r;
  r.layout = Layout::kFull;
  r.remoteness = false;
  EXPECT_TRUE(absl::StrContains(message(r), "full tables always keep"));
  r = {};
  r.layout = Layout::kCompact;
  r.remoteness = true;
  EXPECT_TRUE(absl::StrContains(message(r), "compact tables never keep"));
  r = {};
  r.threads = 257;
  EXPECT_EQ(message(r), "threads 257: expected 0 (one per core) to 256");
  r = {};
  r.tier_indices = 1000;
  EXPECT_EQ(message(r),
            "tier_indices 1000: expected a power of two from 64 to "
            "4294967296, e.g. 1048576");
  r = {};
  r.resume = true;
  EXPECT_EQ(message(r), "resume needs the work dir of the run");
  r = {};
  r.layout = Layout::kBook;
  r.work_dir = TempPath("book-work");
  EXPECT_TRUE(absl::StrContains(message(r), "solved in memory by one"));
  r = {};
  r.plan_processes = 2;
  EXPECT_TRUE(absl::StrContains(message(r), "it needs --work-dir=DIR"));
  r = {};
  r.game = {8, 8, 5};
  EXPECT_EQ(message(r),
            "8,8,5 has 64 cells: tables hold boards of at most 63 (a "
            "remoteness takes 6 bits)");
}

// A table that cannot be written is found out before the solve; a cancel
// stops the solve and writes nothing.
TEST(SolveJobTest, SaysWhichStepFailed) {
  SolveRequest request;
  request.out = TempPath("no-such-dir/ttt.mnk");
  absl::StatusOr<SolveJob> job = PlanSolveJob(request);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<Solved> solved = RunSolveJob(*job);
  EXPECT_FALSE(solved.ok());
  EXPECT_EQ(SolveFailureOf(solved.status()), SolveFailure::kTable);

  const std::atomic<bool> set{true};
  request.game = {5, 4, 4, /*gravity=*/true};
  request.out = TempPath("cancelled.mnk");
  request.cancel = &set;
  job = PlanSolveJob(request);
  ASSERT_TRUE(job.ok()) << job.status();
  solved = RunSolveJob(*job);
  EXPECT_TRUE(absl::IsCancelled(solved.status())) << solved.status();
  EXPECT_EQ(SolveFailureOf(solved.status()), SolveFailure::kSolve);
  EXPECT_FALSE(std::ifstream(request.out).good());
  EXPECT_EQ(SolveFailureOf(absl::OkStatus()), SolveFailure::kNone);
  EXPECT_EQ(SolveFailureOf(absl::CancelledError("x")), SolveFailure::kNone);
}

}  // namespace
}  // namespace mnk
