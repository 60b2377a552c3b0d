// The play binary answering one position, from process start to exit.
//
//   bazel run //player:play_benchmark -- --benchmark_repetitions=9
//   (add --benchmark_report_aggregates_only for the medians alone)
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "tools/cpp/runfiles/runfiles.h"

extern char** environ;

namespace {

const char* argv0 = "";

void BM_PlayPosition(benchmark::State& state) {
  std::string error;
  std::unique_ptr<bazel::tools::cpp::runfiles::Runfiles> runfiles(
      bazel::tools::cpp::runfiles::Runfiles::Create(argv0, &error));
  if (runfiles == nullptr) {
    state.SkipWithError(error.c_str());
    return;
  }
  const std::string play = runfiles->Rlocation("mnk/player/play");
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

}  // namespace

int main(int argc, char** argv) {
  argv0 = argv[0];
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
