// The play binary, whole process from start to exit: answering one
// position, and answering the 4,520 tic-tac-toe positions that are not over
// through a pipe (--batch), output read back through a pipe.
//
//   bazel run //player:play_benchmark -- --benchmark_repetitions=9
//   MNK_PLAY=/tmp/old/play bazel-bin/player/play_benchmark  # another build
//   (add --benchmark_report_aggregates_only for the medians alone)
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "benchmark/benchmark.h"
#include "rules/game/game.h"
#include "tools/cpp/runfiles/runfiles.h"

extern char** environ;

namespace {

const char* argv0 = "";

// This build's play, or another build's from $MNK_PLAY.
std::string PlayBinary(const bazel::tools::cpp::runfiles::Runfiles& runfiles) {
  const char* other = std::getenv("MNK_PLAY");
  return other != nullptr && *other != '\0'
             ? other
             : runfiles.Rlocation("mnk/player/play");
}

void BM_PlayPosition(benchmark::State& state) {
  std::string error;
  std::unique_ptr<bazel::tools::cpp::runfiles::Runfiles> runfiles(
      bazel::tools::cpp::runfiles::Runfiles::Create(argv0, &error));
  if (runfiles == nullptr) {
    state.SkipWithError(error.c_str());
    return;
  }
  const std::string play = PlayBinary(*runfiles);
  const std::string table = runfiles->Rlocation("mnk/data/3x3k3.mnk");
  const std::string table_flag = "--table=" + table;
  char* args[] = {const_cast<char*>(play.c_str()),
                  const_cast<char*>(table_flag.c_str()),
                  const_cast<char*>("--position=XO......."),
                  const_cast<char*>("--json"), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  for (auto _ : state) {
    pid_t pid;
    if (posix_spawn(&pid, play.c_str(), &actions, nullptr, args, environ) !=
        0) {
      state.SkipWithError("cannot start play");
      break;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("play failed");
      break;
    }
  }
  posix_spawn_file_actions_destroy(&actions);
}
BENCHMARK(BM_PlayPosition)->Unit(benchmark::kMillisecond)->UseRealTime();

// Every reachable tic-tac-toe position that is not over, a line each.
std::string OpenPositions() {
  const mnk::Game game = *mnk::Game::Create(mnk::GameSpec());
  std::string lines;
  int count = 0;
  for (int code = 0; code < 19683; ++code) {  // 3^9 boards
    mnk::Position p;
    for (int cell = 0, c = code; cell < 9; ++cell, c /= 3) {
      if (c % 3 == 1) p.x |= mnk::Mask{1} << cell;
      if (c % 3 == 2) p.o |= mnk::Mask{1} << cell;
    }
    if (!game.IsLegal(p) || !game.IsReachable(p) || game.IsTerminal(p)) {
      continue;
    }
    lines += game.Format(p) + "\n";
    ++count;
  }
  return count == 4520 ? lines : "";
}

void BM_PlayBatch(benchmark::State& state) {
  std::string error;
  std::unique_ptr<bazel::tools::cpp::runfiles::Runfiles> runfiles(
      bazel::tools::cpp::runfiles::Runfiles::Create(argv0, &error));
  const std::string input = OpenPositions();
  if (runfiles == nullptr || input.empty()) {
    state.SkipWithError("no runfiles, or not 4,520 positions");
    return;
  }
  const std::string play = PlayBinary(*runfiles);
  char* args[] = {const_cast<char*>(play.c_str()), const_cast<char*>("--batch"),
                  nullptr};
  uint64_t bytes = 0;
  for (auto _ : state) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) {
      state.SkipWithError("pipe failed");
      break;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    for (int fd : {in[0], in[1], out[0], out[1]}) {
      posix_spawn_file_actions_addclose(&actions, fd);
    }
    pid_t pid;
    const int spawned =
        posix_spawn(&pid, play.c_str(), &actions, nullptr, args, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    if (spawned != 0) {
      state.SkipWithError("cannot start play");
      break;
    }
    std::thread writer([&] {
      for (size_t done = 0; done < input.size();) {
        const ssize_t n =
            write(in[1], input.data() + done, input.size() - done);
        if (n <= 0) break;
        done += n;
      }
      close(in[1]);
    });
    char buffer[1 << 16];
    bytes = 0;
    for (ssize_t n; (n = read(out[0], buffer, sizeof(buffer))) > 0;) bytes += n;
    close(out[0]);
    writer.join();
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || bytes == 0) {
      state.SkipWithError("play failed");
      break;
    }
  }
  state.counters["output_bytes"] = bytes;
}
BENCHMARK(BM_PlayBatch)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  argv0 = argv[0];
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
