#include "solver/game.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mnk {
namespace {

// Position strings longer than this are rejected before they are read: the
// largest board has 30 cells and 29 '/' separators.
constexpr size_t kMaxPositionText = 64;

std::string Describe(char c) {
  if (c >= 0x21 && c < 0x7f) return absl::StrCat("'", std::string(1, c), "'");
  return absl::StrFormat("byte 0x%02x", static_cast<unsigned char>(c));
}

}  // namespace

std::string GameSpec::Name() const {
  return absl::StrCat(width, ",", height, ",", k, gravity ? " gravity" : "");
}

std::string GameSpec::FileStem() const {
  return absl::StrCat(width, "x", height, "k", k, gravity ? "g" : "");
}

absl::StatusOr<Game> Game::Create(const GameSpec& spec) {
  if (spec.width < 1 || spec.height < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("board ", spec.width, "x", spec.height,
                     ": width and height must be at least 1"));
  }
  const int limit = spec.gravity ? kMaxGravityCells : kMaxCells;
  if (spec.width > limit || spec.height > limit ||
      spec.width * spec.height > limit) {
    return absl::InvalidArgumentError(absl::StrCat(
        "board ", spec.width, "x", spec.height, " has too many cells: at most ",
        limit, spec.gravity ? " with gravity" : " without gravity"));
  }
  if (spec.k < 1 || spec.k > std::max(spec.width, spec.height)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "k = ", spec.k, " on a ", spec.width, "x", spec.height,
        " board: expected 1 <= k <= ", std::max(spec.width, spec.height)));
  }
  return Game(spec);
}

Game::Game(const GameSpec& spec) : spec_(spec) {
  const int m = spec.width, n = spec.height, k = spec.k;
  full_ = cells() == 32 ? ~uint32_t{0} : (uint32_t{1} << cells()) - 1;
  // Right, down, down-right, down-left; a line starting at (row, col) must
  // stay on the board.
  const int drow[4] = {0, 1, 1, 1};
  const int dcol[4] = {1, 0, 1, -1};
  for (int d = 0; d < 4; ++d) {
    uint32_t starts = 0;
    for (int row = 0; row < n; ++row) {
      for (int col = 0; col < m; ++col) {
        const int end_row = row + drow[d] * (k - 1);
        const int end_col = col + dcol[d] * (k - 1);
        if (end_row < n && end_col >= 0 && end_col < m) {
          starts |= uint32_t{1} << (row * m + col);
        }
      }
    }
    // With k == 1 every direction finds the same single-stone lines. A
    // direction with no line gets shift 0: shifting by (k - 1) * shift could
    // pass the width of the mask.
    starts_[d] = k > 1 || d == 0 ? starts : 0;
    shift_[d] = starts_[d] != 0 ? drow[d] * m + dcol[d] : 0;
  }
}

uint32_t Game::LegalMask(const Position& p) const {
  if (IsTerminal(p)) return 0;
  const uint32_t empty = full_ & ~p.occupied();
  if (!spec_.gravity) return empty;
  // An empty cell is playable when it is on the bottom row or the cell below
  // it is occupied.
  const int m = spec_.width;
  const uint32_t bottom_row = full_ & ~(full_ >> m);
  return empty & (bottom_row | (p.occupied() >> m));
}

std::vector<int> Game::LegalMoves(const Position& p) const {
  std::vector<int> moves;
  for (uint32_t mask = LegalMask(p); mask != 0; mask &= mask - 1) {
    moves.push_back(__builtin_ctz(mask));
  }
  return moves;
}

absl::StatusOr<int> Game::DropCell(const Position& p, int column) const {
  assert(spec_.gravity);
  if (column < 0 || column >= spec_.width) {
    return absl::InvalidArgumentError(
        absl::StrCat("column ", column, " is off the board: expected 0 to ",
                     spec_.width - 1));
  }
  for (int row = spec_.height - 1; row >= 0; --row) {
    const int cell = row * spec_.width + column;
    if ((p.occupied() >> cell & 1) == 0) return cell;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("column ", column, " is full"));
}

absl::StatusOr<Position> Game::Parse(absl::string_view text) const {
  const int m = spec_.width, n = spec_.height;
  if (text.size() > kMaxPositionText) {
    return absl::InvalidArgumentError(
        absl::StrCat("position is ", text.size(), " characters long: expected ",
                     cells(), " cells (", m, " per row, ", n, " rows)"));
  }
  Position p;
  int cell = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '/') {
      if (cell == 0 || cell % m != 0 || cell == cells() ||
          (i > 0 && text[i - 1] == '/')) {
        return absl::InvalidArgumentError(absl::StrCat(
            "'/' at character ", i + 1, " is not between two rows: rows are ",
            m, " cells wide"));
      }
      continue;
    }
    if (c != 'X' && c != 'x' && c != 'O' && c != 'o' && c != '.') {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown character ", Describe(c), " at character ",
                       i + 1, ": expected 'X', 'O', '.' or '/'"));
    }
    if (cell == cells()) {
      return absl::InvalidArgumentError(
          absl::StrCat("position has more than ", cells(), " cells: a ", m, "x",
                       n, " board has ", cells()));
    }
    if (c == 'X' || c == 'x') p.x |= uint32_t{1} << cell;
    if (c == 'O' || c == 'o') p.o |= uint32_t{1} << cell;
    ++cell;
  }
  if (cell != cells()) {
    return absl::InvalidArgumentError(absl::StrCat("position has ", cell,
                                                   " cells: a ", m, "x", n,
                                                   " board has ", cells()));
  }
  if (absl::Status status = Validate(p); !status.ok()) return status;
  return p;
}

absl::Status Game::Validate(const Position& p) const {
  if ((p.x & p.o) != 0 || (p.occupied() & ~full_) != 0) {
    return absl::InvalidArgumentError("stones overlap or lie off the board");
  }
  const int nx = __builtin_popcount(p.x), no = __builtin_popcount(p.o);
  if (nx != no && nx != no + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "impossible piece counts: X has ", nx, " and O has ", no,
        "; X moves first, so X has as many stones as O or one more"));
  }
  const bool x_line = HasLine(p.x), o_line = HasLine(p.o);
  if (x_line && o_line) {
    return absl::InvalidArgumentError(
        absl::StrCat("both players have ", spec_.k,
                     " in a row: the game ends at the "
                     "first line"));
  }
  const char last = p.side_to_move() == 0 ? 'O' : 'X';
  const char next = p.side_to_move() == 0 ? 'X' : 'O';
  if (HasLine(p.mover())) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(1, next), " has ", spec_.k, " in a row but ",
        std::string(1, last), " moved after it: the game ended at that line"));
  }
  if (spec_.gravity) {
    const int m = spec_.width;
    const uint32_t bottom_row = full_ & ~(full_ >> m);
    const uint32_t floating = p.occupied() & ~bottom_row & ~(p.occupied() >> m);
    if (floating != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "stone at cell ", __builtin_ctz(floating),
          " is floating: with gravity every stone rests on the bottom row or "
          "on another stone"));
    }
    if (!GravityReachable(p)) {
      return absl::InvalidArgumentError(
          "no order of moves reaches this position: stones can only be "
          "dropped in turn, X first, and play stops at the first line");
    }
    return absl::OkStatus();
  }
  if (HasLine(p.last_mover())) {
    // The last move must have completed every line the winner has.
    bool found = false;
    for (uint32_t s = p.last_mover(); s != 0 && !found; s &= s - 1) {
      found = !HasLine(p.last_mover() & ~(s & -s));
    }
    if (!found) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(1, last),
                       " has lines that no single last move made: "
                       "the game ended at the first line"));
    }
  }
  return absl::OkStatus();
}

bool Game::GravityReachable(const Position& start) const {
  // Takes stones off the tops of columns, last mover's first, alternating,
  // with no line before the last move: `start` is reachable when this can
  // empty the board. Dead ends are memoised.
  const int m = spec_.width;
  absl::flat_hash_set<Position> dead;
  std::function<bool(const Position&)> peel = [&](const Position& p) {
    if (p.occupied() == 0) return true;
    if (dead.contains(p)) return false;
    const uint32_t tops = p.occupied() & ~(p.occupied() << m);
    for (uint32_t s = tops & p.last_mover(); s != 0; s &= s - 1) {
      Position before = p;
      const uint32_t bit = s & -s;
      before.x &= ~bit;
      before.o &= ~bit;
      if (!HasLine(before.x) && !HasLine(before.o) && peel(before)) {
        return true;
      }
    }
    dead.insert(p);
    return false;
  };
  return peel(start);
}

std::string Game::Format(const Position& p) const {
  std::string text;
  for (int cell = 0; cell < cells(); ++cell) {
    if (cell > 0 && cell % spec_.width == 0) text += '/';
    text += (p.x >> cell & 1) ? 'X' : (p.o >> cell & 1) ? 'O' : '.';
  }
  return text;
}

}  // namespace mnk
