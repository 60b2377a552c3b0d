#include "tests/oracle.h"

#include <functional>

namespace mnk::oracle {
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

}  // namespace mnk::oracle
