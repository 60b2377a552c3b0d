#include "tests/small_boards.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/synchronization/mutex.h"

namespace mnk {

std::vector<GameSpec> SmallBoards(const SmallBoardFilter& filter) {
  std::vector<GameSpec> boards;
  for (int m = 1; m <= 12; ++m) {
    for (int n = 1; m * n <= 12; ++n) {
      const int top = std::min(filter.max_k, std::max(m, n));
      for (int k = filter.min_k; k <= top; ++k) {
        for (bool gravity : {false, true}) {
          if (gravity ? !filter.gravity : !filter.free) continue;
          for (bool misere : {false, true}) {
            if (misere ? !filter.misere : !filter.normal) continue;
            boards.push_back({m, n, k, gravity, misere});
          }
        }
      }
    }
  }
  return boards;
}

const Solution& SolvedSmallBoard(const GameSpec& spec) {
  using Key = std::tuple<int, int, int, bool, bool>;
  static absl::Mutex mutex;
  static auto* solved = new std::map<Key, std::unique_ptr<Solution>>();
  absl::MutexLock lock(&mutex);
  std::unique_ptr<Solution>& s =
      (*solved)[{spec.width, spec.height, spec.k, spec.gravity, spec.misere}];
  if (s == nullptr) {
    absl::StatusOr<Solution> result = Solve(*Game::Create(spec), {2});
    s = std::make_unique<Solution>(*std::move(result));
  }
  return *s;
}

}  // namespace mnk
