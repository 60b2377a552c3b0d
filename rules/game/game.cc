#include "rules/game/game.h"

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

// Position strings longer than this are rejected before they are read:
// kMaxCells cells and a '/' between rows.
constexpr size_t kMaxPositionText = 2 * kMaxCells - 1;

std::string Describe(char c) {
  if (c >= 0x21 && c < 0x7f) return absl::StrCat("'", std::string(1, c), "'");
  return absl::StrFormat("byte 0x%02x", static_cast<unsigned char>(c));
}

}  // namespace

absl::string_view ValueName(Value v) {
  switch (v) {
    case Value::kWin:
      return "win";
    case Value::kDraw:
      return "draw";
    case Value::kLoss:
      return "loss";
    case Value::kUnreachable:
      break;
  }
  return "unreachable";
}

std::string GameSpec::Name() const {
  return absl::StrCat(width, ",", height, ",", k, gravity ? " gravity" : "",
                      misere ? " mis\xc3\xa8re" : "");
}

std::string GameSpec::Title() const {
  if (*this == GameSpec{3, 3, 3}) return "Tic-tac-toe";
  if (*this == GameSpec{3, 3, 3, false, true})
    return "Mis\xc3\xa8re tic-tac-toe";
  const std::string board = absl::StrCat(width, "x", height);
  if (gravity && k == 4 && !misere) {
    return width == 7 && height == 6 ? "Connect Four"
                                     : absl::StrCat("Connect-style ", board);
  }
  static constexpr const char* kCount[] = {"one",  "two",  "three",
                                           "four", "five", "six"};
  const std::string count = k <= 6 ? kCount[k - 1] : absl::StrCat(k);
  return absl::StrCat(Name(), ": ", count, " in a row", misere ? " loses," : "",
                      " on ", board);
}

std::string GameSpec::FileStem() const {
  return absl::StrCat(width, "x", height, "k", k, gravity ? "g" : "",
                      misere ? "m" : "");
}

absl::StatusOr<Game> Game::Create(const GameSpec& spec) {
  if (spec.width < 1 || spec.height < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("board ", spec.width, "x", spec.height,
                     ": width and height must be at least 1"));
  }
  if (spec.width > kMaxCells || spec.height > kMaxCells ||
      spec.width * spec.height > kMaxCells) {
    return absl::InvalidArgumentError(
        absl::StrCat("board ", spec.width, "x", spec.height,
                     " has too many cells: at most ", kMaxCells));
  }
  if (spec.k < 1 || spec.k > std::max(spec.width, spec.height)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "k = ", spec.k, " on a ", spec.width, "x", spec.height,
        " board: expected 1 <= k <= ", std::max(spec.width, spec.height)));
  }
  return Game(spec);
}

Game::Game(const GameSpec& spec) : spec_(spec) {
  full_ = ~Mask{0} >> (kMaxCells - cells());  // cells() <= 64
  bottom_row_ = full_ & ~RowUp(full_);
  FindLines();
  FindSymmetries();
}

void Game::FindLines() {
  const int m = spec_.width, n = spec_.height, k = spec_.k;
  // Right, down, down-right, down-left; a line starting at (row, col) must
  // stay on the board.
  const int drow[4] = {0, 1, 1, 1};
  const int dcol[4] = {1, 0, 1, -1};
  for (int d = 0; d < 4; ++d) {
    Mask starts = 0;
    for (int row = 0; row < n; ++row) {
      for (int col = 0; col < m; ++col) {
        const int end_row = row + drow[d] * (k - 1);
        const int end_col = col + dcol[d] * (k - 1);
        if (end_row < n && end_col >= 0 && end_col < m) {
          starts |= Mask{1} << (row * m + col);
        }
      }
    }
    // With k == 1 every direction finds the same single-stone lines. A
    // direction with no line gets shift 0: shifting by (k - 1) * shift could
    // pass the width of the mask.
    starts_[d] = k > 1 || d == 0 ? starts : 0;
    shift_[d] = starts_[d] != 0 ? drow[d] * m + dcol[d] : 0;
  }
  // Runs of 1, 2, 4, ... stones, then one more step to k if k is not a
  // power of two: runs of len at c and at c + (k - len) * shift make k.
  for (int len = 1; len < k;) {
    const int step = std::min(len, k - len);
    assert(line_steps_ < kMaxLineSteps);
    for (int d = 0; d < 4; ++d) {
      step_shift_[line_steps_][d] = step * shift_[d];
      assert(step_shift_[line_steps_][d] < kMaxCells);
    }
    ++line_steps_;
    len += step;
  }
}

void Game::FindSymmetries() {
  const int m = spec_.width, n = spec_.height;
  // The dihedral group of the rectangle: optionally transpose (square boards
  // only), then mirror rows and/or columns. Gravity keeps only the column
  // mirror: the floor must stay at the bottom.
  for (int transpose = 0; transpose <= (m == n ? 1 : 0); ++transpose) {
    for (int flip_rows = 0; flip_rows <= 1; ++flip_rows) {
      for (int flip_cols = 0; flip_cols <= 1; ++flip_cols) {
        if (spec_.gravity && (transpose || flip_rows)) continue;
        Symmetry s;
        s.fill(-1);
        for (int row = 0; row < n; ++row) {
          for (int col = 0; col < m; ++col) {
            int r = flip_rows ? n - 1 - row : row;
            int c = flip_cols ? m - 1 - col : col;
            if (transpose) std::swap(r, c);
            s[row * m + col] = static_cast<int8_t>(r * m + c);
          }
        }
        if (std::find(symmetries_.begin(), symmetries_.end(), s) ==
            symmetries_.end()) {
          symmetries_.push_back(s);
        }
      }
    }
  }
  // Each symmetry's images of the byte values of a mask.
  auto maps = std::make_shared<std::vector<ByteMaps>>(symmetries_.size());
  for (size_t s = 0; s < symmetries_.size(); ++s) {
    for (int byte = 0; byte < 8; ++byte) {
      auto& map = (*maps)[s][byte];
      map[0] = 0;
      // v's image is its lowest bit's image and the image of the rest, an
      // entry already made: one step an entry (this runs at every start).
      for (Mask v = 1; v < 256; ++v) {
        const int cell = 8 * byte + absl::countr_zero(v);
        map[v] = map[v & (v - 1)] |
                 (cell < cells() ? Mask{1} << symmetries_[s][cell] : 0);
      }
    }
  }
  byte_maps_ = std::move(maps);
}

Position Game::Canonical(const Position& p, int* symmetry) const {
  // (x, o) compared as numbers, x first: one 64-bit key on boards of up to
  // 32 cells, a 128-bit one past that.
  if ((full_ >> 32) == 0) {
    return CanonicalBy(p, symmetry,
                       [](const Position& q) { return q.x << 32 | q.o; });
  }
  return CanonicalBy(p, symmetry, [](const Position& q) {
    return static_cast<unsigned __int128>(q.x) << 64 | q.o;
  });
}

std::vector<int> Game::LegalMoves(const Position& p) const {
  std::vector<int> moves;
  for (Mask mask = LegalMask(p); mask != 0; mask &= mask - 1) {
    moves.push_back(absl::countr_zero(mask));
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
  const Mask cell = Playable(p.occupied()) & ColumnMask(column);
  if (cell == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("column ", column, " is full"));
  }
  return absl::countr_zero(cell);
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
    if (c == 'X' || c == 'x') p.x |= Mask{1} << cell;
    if (c == 'O' || c == 'o') p.o |= Mask{1} << cell;
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

Mask Game::ColumnMask(int column) const {
  Mask mask = 0;
  for (int row = 0; row < spec_.height; ++row) {
    mask |= Mask{1} << (row * spec_.width + column);
  }
  return mask;
}

bool Game::IsReachable(const Position& p) const {
  return IsLegal(p) && (!spec_.gravity || MoveOrder(p).has_value());
}

absl::Status Game::Validate(const Position& p) const {
  Illegal problem = Check(p);
  if (problem == Illegal::kLegal && spec_.gravity && !MoveOrder(p)) {
    problem = Illegal::kNoOrder;
  }
  const std::string last(1, p.side_to_move() == 0 ? 'O' : 'X');
  const std::string next(1, p.side_to_move() == 0 ? 'X' : 'O');
  switch (problem) {
    case Illegal::kLegal:
      return absl::OkStatus();
    case Illegal::kOffBoard:
      return absl::InvalidArgumentError("stones overlap or lie off the board");
    case Illegal::kCounts:
      return absl::InvalidArgumentError(absl::StrCat(
          "impossible piece counts: X has ", absl::popcount(p.x), " and O has ",
          absl::popcount(p.o),
          "; X moves first, so X has as many stones as O or one more"));
    case Illegal::kBothLines:
      return absl::InvalidArgumentError(
          absl::StrCat("both players have ", spec_.k,
                       " in a row: the game ends at the first line"));
    case Illegal::kMoverLine:
      return absl::InvalidArgumentError(
          absl::StrCat(next, " has ", spec_.k, " in a row but ", last,
                       " moved after it: the game ended at that line"));
    case Illegal::kUnexplainedLines:
      return absl::InvalidArgumentError(
          absl::StrCat(last,
                       " has lines that no single last move made: the game "
                       "ended at the first line"));
    case Illegal::kFloating:
      return absl::InvalidArgumentError(absl::StrCat(
          "stone at cell ",
          absl::countr_zero(p.occupied() & ~bottom_row_ & ~RowUp(p.occupied())),
          " is floating: with gravity every stone rests on the bottom row or "
          "on another stone"));
    case Illegal::kNoOrder:
      return absl::InvalidArgumentError(
          "no order of moves reaches this position: stones can only be "
          "dropped in turn, X first, and play stops at the first line");
  }
  return absl::InternalError("unknown legality check");
}

std::optional<std::vector<int>> Game::MoveOrder(const Position& start) const {
  // Takes stones off the board (with gravity, off the tops of columns),
  // last mover's first, alternating, with no line before the last move:
  // `start` is reachable when this can empty the board, and the stones
  // taken, last first, are the order. Dead ends are memoised.
  if (Check(start) != Illegal::kLegal) return std::nullopt;
  absl::flat_hash_set<Position> dead;
  std::vector<int> taken;
  std::function<bool(const Position&)> peel = [&](const Position& p) {
    if (p.occupied() == 0) return true;
    if (dead.contains(p)) return false;
    // Highest cell first, so that each player's moves come out ascending.
    for (Mask s = LastMoveCells(p); s != 0;) {
      const int cell = 63 - absl::countl_zero(s);
      s &= ~(Mask{1} << cell);
      const Position before = Take(p, cell);
      if (!HasLine(before.x) && !HasLine(before.o)) {
        taken.push_back(cell);
        if (peel(before)) return true;
        taken.pop_back();
      }
    }
    dead.insert(p);
    return false;
  };
  if (!peel(start)) return std::nullopt;
  std::reverse(taken.begin(), taken.end());
  return taken;
}

std::string Game::Format(const Position& p) const {
  std::string text;
  for (int cell = 0; cell < cells(); ++cell) {
    if (cell > 0 && cell % spec_.width == 0) text += '/';
    text += (p.x >> cell & 1) ? 'X' : (p.o >> cell & 1) ? 'O' : '.';
  }
  return text;
}

Position Game::Transform(const Position& p, const Symmetry& s) const {
  Position out;
  for (Mask b = p.x; b != 0; b &= b - 1) {
    out.x |= Mask{1} << s[absl::countr_zero(b)];
  }
  for (Mask b = p.o; b != 0; b &= b - 1) {
    out.o |= Mask{1} << s[absl::countr_zero(b)];
  }
  return out;
}

}  // namespace mnk
