#include "store/work_dir.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace mnk {
namespace {

std::string FreshDir(const std::string& name) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/" + name;
  EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  return dir;
}

std::string Slurp(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Spit(const std::string& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(WorkDirTest, PartsAreKeptJoined) {
  const std::string path = FreshDir("parts");
  absl::StatusOr<WorkDir> dir = WorkDir::Open(path, "game 3,3,3\n", false);
  ASSERT_TRUE(dir.ok()) << dir.status();
  const std::string big(3000000, 'b');
  ASSERT_TRUE(dir->PutParts("S02", {"abc", "", big, "xyz"}).ok());
  EXPECT_EQ(*dir->Get("S02"), "abc" + big + "xyz");
  EXPECT_EQ(*dir->Check("S02"), big.size() + 6);
  ASSERT_TRUE(dir->PutParts("S04", {}).ok());
  EXPECT_EQ(*dir->Get("S04"), "");
  EXPECT_EQ(dir->PutParts("S/04", {"a"}).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(WorkDirTest, OneProcessHoldsTheDirAndOthersOfItsJobJoin) {
  const std::string path = FreshDir("lock");
  absl::StatusOr<WorkDir> first = WorkDir::Open(path, "game 3,3,3\n", false);
  ASSERT_TRUE(first.ok()) << first.status();
  // A second solve (its own open file, as another process's) is refused,
  // even to resume; a rank of the same solve joins.
  absl::StatusOr<WorkDir> second = WorkDir::Open(path, "game 3,3,3\n", true);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(second.status().message(),
            "another process is running a solve in the work dir " + path +
                " (it holds " + path +
                "/lock); wait for it to end or stop it, then run again");
  absl::StatusOr<WorkDir> rank =
      WorkDir::Open(path, "game 3,3,3\n", true, "solve", /*join=*/true);
  EXPECT_TRUE(rank.ok()) << rank.status();
  // Held while a copy lives; free once the last is gone.
  std::optional<WorkDir> copy = *first;
  first = absl::CancelledError("dropped");
  EXPECT_FALSE(WorkDir::Open(path, "game 3,3,3\n", true).ok());
  copy.reset();
  EXPECT_TRUE(WorkDir::Open(path, "game 3,3,3\n", true).ok());
}

TEST(WorkDirTest, GetGrowsABufferToThePayloadAlone) {
  // std::string would grow 600,000 bytes to 1,200,000 (twice its capacity)
  // and hold both while copying: for a layer's sections read back, about
  // 2.2 times their size.
  const std::string path = FreshDir("grow");
  absl::StatusOr<WorkDir> dir = WorkDir::Open(path, "game 3,3,3\n", false);
  ASSERT_TRUE(dir.ok()) << dir.status();
  ASSERT_TRUE(dir->Put("S02", std::string(1000000, 's')).ok());
  std::string payload(600000, 'p');
  ASSERT_TRUE(dir->Get("S02", payload).ok());
  EXPECT_EQ(payload, std::string(1000000, 's'));
  EXPECT_EQ(payload.capacity(), 1000000u);
  // Large enough: the memory is kept.
  ASSERT_TRUE(dir->Put("S04", "four").ok());
  ASSERT_TRUE(dir->Get("S04", payload).ok());
  EXPECT_EQ(payload, "four");
  EXPECT_EQ(payload.capacity(), 1000000u);
}

TEST(WorkDirTest, KeepsWhatItIsGiven) {
  const std::string path = FreshDir("roundtrip");
  absl::StatusOr<WorkDir> dir = WorkDir::Open(path, "game 3,3,3\n", false);
  ASSERT_TRUE(dir.ok()) << dir.status();
  std::string payload(100000, 'x');
  payload[12345] = '\0';
  ASSERT_TRUE(dir->Put("L03-T000001", payload).ok());
  EXPECT_TRUE(dir->Has("L03-T000001"));
  EXPECT_FALSE(dir->Has("L03-T000002"));
  absl::StatusOr<std::string> back = dir->Get("L03-T000001");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, payload);
  EXPECT_GT(dir->bytes_written(), 36u);
  EXPECT_LT(dir->bytes_written(), 1000u);  // 100,000 x's compress well
  EXPECT_EQ(dir->Get("L03-T000002").status().code(),
            absl::StatusCode::kNotFound);
  // Into a buffer: a larger one is cut to the payload, a smaller one grows.
  for (size_t held : {size_t{0}, size_t{7}, size_t{300000}}) {
    std::string buffer(held, 'z');
    ASSERT_TRUE(dir->Get("L03-T000001", buffer).ok());
    EXPECT_EQ(buffer, payload) << "buffer of " << held;
  }
  EXPECT_EQ(*dir->Check("L03-T000001"), 100000u);
  std::string head;
  EXPECT_EQ(*dir->GetHead("L03-T000001", 12346, head), 100000u);
  EXPECT_EQ(head, payload.substr(0, 12346));
  EXPECT_EQ(*dir->GetHead("L03-T000001", 200000, head), 100000u);
  EXPECT_EQ(head, payload);
  EXPECT_EQ(dir->Check("L03-T000002").status().code(),
            absl::StatusCode::kNotFound);
  // An empty payload is a tier too (a layer with nothing reachable).
  ASSERT_TRUE(dir->Put("empty", "").ok());
  EXPECT_EQ(*dir->Get("empty"), "");
  // Removed, it is gone; removing it again (or one never written) is fine.
  ASSERT_TRUE(dir->Remove("L03-T000001").ok());
  EXPECT_FALSE(dir->Has("L03-T000001"));
  EXPECT_EQ(dir->Get("L03-T000001").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_TRUE(dir->Remove("L03-T000001").ok());
  EXPECT_TRUE(dir->Has("empty"));
  // What cannot be removed (a folder under a tier's name) is an error.
  ASSERT_EQ(mkdir((path + "/folder.tier").c_str(), 0755), 0);
  EXPECT_EQ(dir->Remove("folder").code(), absl::StatusCode::kInternal);
}

TEST(WorkDirTest, RefusesAnotherSolveAndAnUnaskedResume) {
  const std::string path = FreshDir("manifest");
  ASSERT_TRUE(WorkDir::Open(path, "game 3,3,3\n", false).ok());
  EXPECT_EQ(WorkDir::Open(path, "game 3,3,3\n", false).status().code(),
            absl::StatusCode::kAlreadyExists);
  const absl::Status other = WorkDir::Open(path, "game 4,4,4\n", true).status();
  EXPECT_EQ(other.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(other.message().find("game 3,3,3"), std::string::npos) << other;
  EXPECT_TRUE(WorkDir::Open(path, "game 3,3,3\n", true).ok());
  const std::string file = FreshDir("a-file");
  Spit(file, "x");
  EXPECT_EQ(WorkDir::Open(file, "m\n", false).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(WorkDirTest, NeverTrustsADamagedTier) {
  const std::string path = FreshDir("damaged");
  WorkDir dir = *WorkDir::Open(path, "game 3,3,3\n", false);
  ASSERT_TRUE(dir.Put("t", std::string(5000, 'y') + "end").ok());
  const std::string file = path + "/t.tier";
  const std::string good = Slurp(file);
  for (size_t at :
       {size_t{3}, size_t{10}, size_t{20}, size_t{33}, good.size() - 1}) {
    std::string bad = good;
    bad[at] ^= 0x10;
    Spit(file, bad);
    EXPECT_EQ(dir.Get("t").status().code(), absl::StatusCode::kDataLoss)
        << "byte " << at;
    EXPECT_EQ(dir.Check("t").status().code(), absl::StatusCode::kDataLoss)
        << "byte " << at;
    std::string head;
    EXPECT_EQ(dir.GetHead("t", 10, head).status().code(),
              absl::StatusCode::kDataLoss)
        << "byte " << at;
  }
  Spit(file, good.substr(0, good.size() - 2));
  EXPECT_EQ(dir.Get("t").status().code(), absl::StatusCode::kDataLoss);
  Spit(file, good.substr(0, 20));
  EXPECT_EQ(dir.Get("t").status().code(), absl::StatusCode::kDataLoss);
  // A tier of another solve, copied in, is not this solve's.
  const std::string other_path = FreshDir("other");
  WorkDir other = *WorkDir::Open(other_path, "game 4,4,4\n", false);
  ASSERT_TRUE(other.Put("t", "something").ok());
  Spit(file, Slurp(other_path + "/t.tier"));
  const absl::Status s = dir.Get("t").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("another solve"), std::string::npos) << s;
  Spit(file, good);
  EXPECT_TRUE(dir.Get("t").ok());
}

TEST(WorkDirTest, ATierUnderAnotherNameIsRefused) {
  const std::string path = FreshDir("renamed");
  WorkDir dir = *WorkDir::Open(path, "game 3,3,3\n", false);
  ASSERT_TRUE(dir.Put("L04-T000001", "layer 4, tier 1").ok());
  ASSERT_TRUE(dir.Put("L04-T000002", "layer 4, tier 2").ok());
  // Copied over another tier of the same solve: whole, checksummed, and
  // still refused.
  Spit(path + "/L04-T000002.tier", Slurp(path + "/L04-T000001.tier"));
  const absl::Status s = dir.Get("L04-T000002").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_NE(s.message().find("holds tier L04-T000001, not L04-T000002"),
            std::string::npos)
      << s;
  // Linked: a symbolic link is never followed.
  ASSERT_EQ(std::remove((path + "/L04-T000002.tier").c_str()), 0);
  ASSERT_EQ(symlink((path + "/L04-T000001.tier").c_str(),
                    (path + "/L04-T000002.tier").c_str()),
            0);
  EXPECT_EQ(dir.Get("L04-T000002").status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_TRUE(dir.Get("L04-T000001").ok());
}

TEST(WorkDirTest, ASpecialFileInsideIsRefusedAtOnce) {
  for (const char* name : {"manifest", "L00-T000000.tier"}) {
    const std::string path = FreshDir("fifo");
    ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
    ASSERT_EQ(mkfifo((path + "/" + name).c_str(), 0644), 0);
    for (bool resume : {false, true}) {
      // Returns (no reader waits for a writer), naming the file.
      const absl::Status s =
          WorkDir::Open(path, "game 3,3,3\n", resume).status();
      EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
      EXPECT_NE(s.message().find(std::string(name) + ", which is a FIFO"),
                std::string::npos)
          << s;
    }
  }
  // A FIFO that appears later is not read either.
  const std::string path = FreshDir("late-fifo");
  WorkDir dir = *WorkDir::Open(path, "game 3,3,3\n", false);
  ASSERT_EQ(mkfifo((path + "/t.tier").c_str(), 0644), 0);
  EXPECT_EQ(dir.Get("t").status().code(), absl::StatusCode::kDataLoss);
}

TEST(WorkDirTest, AFullDiskIsResourceExhaustedAndLeavesNoFile) {
  const std::string path = FreshDir("full");
  WorkDir dir = *WorkDir::Open(path, "game 3,3,3\n", false);
  // A file-size limit stands in for a full disk (EFBIG, as ENOSPC).
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit old;
  getrlimit(RLIMIT_FSIZE, &old);
  rlimit small = old;
  small.rlim_cur = 100;
  setrlimit(RLIMIT_FSIZE, &small);
  std::string incompressible;
  for (int i = 0; i < 5000; ++i)
    incompressible += static_cast<char>(i * 7919 % 251);
  const absl::Status s = dir.Put("big", incompressible);
  setrlimit(RLIMIT_FSIZE, &old);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_FALSE(dir.Has("big"));
  EXPECT_NE(std::system(("ls '" + path + "' | grep -q tmp").c_str()), 0);
}

}  // namespace
}  // namespace mnk
