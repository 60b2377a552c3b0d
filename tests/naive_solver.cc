#include "tests/naive_solver.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "absl/container/flat_hash_set.h"

namespace mnk::naive {
namespace {

char SideToMove(const std::string& board) {
  int x = 0, o = 0;
  for (char c : board) {
    x += c == 'X';
    o += c == 'O';
  }
  return x == o ? 'X' : 'O';
}

int Rank(Value v) { return v == Value::kWin ? 2 : v == Value::kDraw ? 1 : 0; }

}  // namespace

bool NaiveHasLine(const GameSpec& spec, const std::string& board, char mark) {
  const int m = spec.width, n = spec.height;
  const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (int row = 0; row < n; ++row) {
    for (int col = 0; col < m; ++col) {
      for (const auto& d : directions) {
        int run = 0;
        for (int r = row, c = col;
             r >= 0 && r < n && c >= 0 && c < m && board[r * m + c] == mark;
             r += d[0], c += d[1]) {
          ++run;
        }
        if (run >= spec.k) return true;
      }
    }
  }
  return false;
}

std::vector<int> NaiveMoves(const GameSpec& spec, const std::string& board) {
  std::vector<int> moves;
  for (int cell = 0; cell < spec.cells(); ++cell) {
    if (board[cell] != '.') continue;
    const int below = cell + spec.width;
    if (spec.gravity && below < spec.cells() && board[below] == '.') continue;
    moves.push_back(cell);
  }
  return moves;
}

bool BetterMove(Value a_value, int a_plies, Value b_value, int b_plies) {
  if (Rank(a_value) != Rank(b_value)) return Rank(a_value) > Rank(b_value);
  if (a_value == Value::kWin) return a_plies < b_plies;
  if (a_value == Value::kLoss) return a_plies > b_plies;
  return false;
}

Solved SolveNaively(const GameSpec& spec) {
  Solved solved;
  std::function<Result(const std::string&)> solve =
      [&](const std::string& board) -> Result {
    if (auto it = solved.find(board); it != solved.end()) return it->second;
    const char mover = SideToMove(board);
    const char last = mover == 'X' ? 'O' : 'X';
    Result result{Value::kDraw, 0, kNoBestMove};
    if (NaiveHasLine(spec, board, last)) {
      result.value = spec.misere ? Value::kWin : Value::kLoss;
    } else if (board.find('.') != std::string::npos) {
      bool any = false;
      for (int cell : NaiveMoves(spec, board)) {
        std::string child = board;
        child[cell] = mover;
        const Result c = solve(child);
        const Value v = c.value == Value::kWin    ? Value::kLoss
                        : c.value == Value::kLoss ? Value::kWin
                                                  : Value::kDraw;
        if (!any ||
            BetterMove(v, c.remoteness + 1, result.value, result.remoteness)) {
          result = {v, c.remoteness + 1, cell};
          any = true;
        }
      }
    }
    solved[board] = result;
    return result;
  };
  solve(std::string(spec.cells(), '.'));
  return solved;
}

std::vector<std::string> NaiveImages(const GameSpec& spec,
                                     const std::string& board) {
  const int m = spec.width, n = spec.height;
  // (row, col) of the image of cell (r, c), for each symmetry.
  std::vector<std::function<std::pair<int, int>(int, int)>> maps = {
      [](int r, int c) { return std::make_pair(r, c); },
      [m](int r, int c) { return std::make_pair(r, m - 1 - c); }};
  if (!spec.gravity) {
    maps.push_back([n](int r, int c) { return std::make_pair(n - 1 - r, c); });
    maps.push_back(
        [m, n](int r, int c) { return std::make_pair(n - 1 - r, m - 1 - c); });
    if (m == n) {
      for (int i = 0; i < 4; ++i) {
        auto f = maps[i];
        maps.push_back([f](int r, int c) { return f(c, r); });
      }
    }
  }
  std::vector<std::string> images;
  for (const auto& f : maps) {
    std::string image(board.size(), '.');
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < m; ++c) {
        const auto [r2, c2] = f(r, c);
        image[r2 * m + c2] = board[r * m + c];
      }
    }
    images.push_back(image);
  }
  return images;
}

uint64_t CountClasses(const GameSpec& spec, const Solved& solved) {
  absl::flat_hash_set<std::string> classes;
  for (const auto& [board, result] : solved) {
    const std::vector<std::string> images = NaiveImages(spec, board);
    classes.insert(*std::min_element(images.begin(), images.end()));
  }
  return classes.size();
}

}  // namespace mnk::naive
