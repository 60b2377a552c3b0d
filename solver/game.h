// Game rules of the m,n,k family: an m-wide, n-high board, two players
// placing stones in turn, the first to get k in a row (horizontally,
// vertically or diagonally) wins, a full board without a line is a draw.
// X always moves first. With gravity (Connect-style) a move names a column and
// the stone drops to the lowest empty cell of that column.
//
//   absl::StatusOr<mnk::Game> game = mnk::Game::Create({.width = 3,
//                                                       .height = 3, .k = 3});
//   absl::StatusOr<mnk::Position> pos = game->Parse("X.O/X.X/OO.");
//   for (int cell : game->LegalMoves(*pos)) { ... game->Play(*pos, cell) ... }
//
// Cells are numbered row-major from the top-left; row 0 is the top row and,
// with gravity, stones fall towards the highest row index. Tic-tac-toe:
//
//      col 0   1   2
//   row 0  0 | 1 | 2        bit i of Position::x (or ::o) is set when cell i
//         ---+---+---       holds an X (or an O).
//   row 1  3 | 4 | 5
//         ---+---+---       4 wide, 3 high with gravity: stones land on row 2
//   row 2  6 | 7 | 8        first; column c's next cell is the lowest empty
//   one.
//
// A move is always a cell index, with or without gravity (with gravity the
// column is cell % width). Position strings list the cells in the same order,
// `X`, `O` or `.` each, with an optional `/` between rows: "X.O/X.X/OO.".
#ifndef MNK_SOLVER_GAME_H_
#define MNK_SOLVER_GAME_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mnk {

// Boards without gravity have at most this many cells; with gravity, far
// fewer positions are legal and boards may have up to kMaxGravityCells.
inline constexpr int kMaxCells = 20;
inline constexpr int kMaxGravityCells = 30;

// A board: bit i of `x` / `o` is set when cell i holds that player's stone.
struct Position {
  uint32_t x = 0;
  uint32_t o = 0;

  uint32_t occupied() const { return x | o; }
  int stones() const { return __builtin_popcount(x | o); }
  // 0 when X is to move (equal counts), 1 when O is to move.
  int side_to_move() const { return stones() & 1; }
  // The stones of the player to move, and of the player who moved last.
  uint32_t mover() const { return side_to_move() == 0 ? x : o; }
  uint32_t last_mover() const { return side_to_move() == 0 ? o : x; }
  friend bool operator==(const Position& a, const Position& b) {
    return a.x == b.x && a.o == b.o;
  }
  template <typename H>
  friend H AbslHashValue(H h, const Position& p) {
    return H::combine(std::move(h), p.x, p.o);
  }
};

// The parameters of one game of the family. The default is tic-tac-toe.
struct GameSpec {
  int width = 3;
  int height = 3;
  int k = 3;
  bool gravity = false;

  int cells() const { return width * height; }
  // "3,3,3" or "7,6,4 gravity": how people and error messages name a game.
  std::string Name() const;
  // "3x3k3" or "7x6k4g": a short name for file names.
  std::string FileStem() const;
  friend bool operator==(const GameSpec& a, const GameSpec& b) {
    return a.width == b.width && a.height == b.height && a.k == b.k &&
           a.gravity == b.gravity;
  }
  friend bool operator!=(const GameSpec& a, const GameSpec& b) {
    return !(a == b);
  }
};

class Game {
 public:
  // Checks the parameters: width, height >= 1; 1 <= k <= max(width, height);
  // at most kMaxCells cells (kMaxGravityCells with gravity). Returns
  // kInvalidArgument naming the parameter otherwise.
  static absl::StatusOr<Game> Create(const GameSpec& spec);

  const GameSpec& spec() const { return spec_; }
  int width() const { return spec_.width; }
  int height() const { return spec_.height; }
  int cells() const { return spec_.width * spec_.height; }
  uint32_t full_mask() const { return full_; }

  // True when `stones` contain k in a row in any direction. Branch-free but
  // for the loop over k: the hot test of the solver.
  bool HasLine(uint32_t stones) const {
    uint32_t any = 0;
    for (int d = 0; d < 4; ++d) {
      uint32_t run = stones & starts_[d];
      for (int i = 1; i < spec_.k; ++i) run &= stones >> (i * shift_[d]);
      any |= run;
    }
    return any != 0;
  }

  // The game is over: the player who just moved has a line, or the board is
  // full. (Only the last mover can have a line in a reachable position.)
  bool IsTerminal(const Position& p) const {
    return p.occupied() == full_ || HasLine(p.last_mover());
  }

  // Bit mask of the cells the side to move may play. Without gravity: every
  // empty cell; with gravity: the lowest empty cell of each column that is not
  // full. Empty for terminal positions.
  uint32_t LegalMask(const Position& p) const;
  // The same cells in ascending order.
  std::vector<int> LegalMoves(const Position& p) const;

  // The position after the side to move plays `cell`, which must be legal.
  static Position Play(const Position& p, int cell) {
    Position next = p;
    (p.side_to_move() == 0 ? next.x : next.o) |= uint32_t{1} << cell;
    return next;
  }

  // The cell a move in `column` lands on, or kInvalidArgument (column out of
  // range) / kFailedPrecondition (column full). Gravity games only.
  absl::StatusOr<int> DropCell(const Position& p, int column) const;

  // Parses a position string (see the file comment) and checks that the
  // position can arise in a game: piece counts (X == O or X == O + 1), at
  // most one player with a line and only the one who moved last, a last move
  // that made every line the winner has, no floating stone with gravity, and
  // for gravity an order of moves that builds it. kInvalidArgument names
  // what is wrong.
  absl::StatusOr<Position> Parse(absl::string_view text) const;

  // Same checks for a position given as bit masks.
  absl::Status Validate(const Position& p) const;

  // "X.O/X.X/OO.": rows separated by '/'. Parse(Format(p)) == p.
  std::string Format(const Position& p) const;

 private:
  explicit Game(const GameSpec& spec);
  bool GravityReachable(const Position& p) const;

  GameSpec spec_;
  uint32_t full_ = 0;
  // Cells (p, p + shift, ..., p + (k-1) * shift) form a line in direction d
  // (right, down, down-right, down-left) for every start p in starts_[d].
  int shift_[4] = {};
  uint32_t starts_[4] = {};
};

}  // namespace mnk

#endif  // MNK_SOLVER_GAME_H_
