// The game seam: every rule of the m,n,k family, written once. The solver,
// the live search, the table reader, verify and the player all ask this
// class, and nothing else, what the rules say.
//
// An m-wide, n-high board; two players place stones in turn, X first; the
// first k in a row (horizontally, vertically or diagonally) ends the game: in
// the normal game its maker wins, in misère its maker loses. A full board
// without a line is a draw. With gravity (Connect-style) a move names a
// column and the stone drops to the lowest empty cell of that column.
//
//   absl::StatusOr<mnk::Game> game =
//       mnk::Game::Create({.width = 3, .height = 3, .k = 3});
//   absl::StatusOr<mnk::Position> pos = game->Parse("X.O/X.X/OO.");
//   for (int cell : game->LegalMoves(*pos)) {
//     mnk::Position next = mnk::Game::Play(*pos, cell);
//     if (std::optional<mnk::Value> end = game->Primitive(next)) ...
//   }
//
// The seam, in the words of OpenSpiel and GamesmanOne:
//   legal moves        LegalMask / LegalMoves (GenerateMoves)
//   doing a move       Play (DoMove / ApplyAction)
//   primitive outcome  Primitive: win, loss or draw for the side to move
//                      once the game is over, nullopt while it goes on
//   side to move       Position::side_to_move
//   legality           IsLegal (local test), IsReachable (exact), Validate
//                      and Parse (with a message naming the broken rule)
//   symmetries         symmetries() and Transform
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
//                           one.
//
// A move is always a cell index, with or without gravity (with gravity the
// column is cell % width). Position strings list the cells in the same order,
// `X`, `O` or `.` each, with an optional `/` between rows: "X.O/X.X/OO.".
#ifndef MNK_RULES_GAME_GAME_H_
#define MNK_RULES_GAME_GAME_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mnk {

// A set of cells: bit i for cell i (Position, legal moves, lines).
using Mask = uint64_t;

// Boards have at most this many cells, one bit each of a Mask. The rules,
// position strings and the live search take any such board; what a solve
// can take depends on its index and memory (solver/retrograde/solver.h).
inline constexpr int kMaxCells = 64;

// The game-theoretic value of a position for the side to move.
// kUnreachable marks positions no game reaches (in tables and searches).
enum class Value : uint8_t { kUnreachable = 0, kLoss = 1, kDraw = 2, kWin = 3 };

// "win", "draw", "loss" or "unreachable".
absl::string_view ValueName(Value v);

// The value of a position for the player who just moved into it, seen from
// the player to move in its parent: win <-> loss.
inline Value Negate(Value v) {
  switch (v) {
    case Value::kWin:
      return Value::kLoss;
    case Value::kLoss:
      return Value::kWin;
    default:
      return v;
  }
}

// A board: bit i of `x` / `o` is set when cell i holds that player's stone.
struct Position {
  Mask x = 0;
  Mask o = 0;

  Mask occupied() const { return x | o; }
  int stones() const { return absl::popcount(x | o); }
  // 0 when X is to move (equal counts), 1 when O is to move.
  int side_to_move() const { return stones() & 1; }
  // The stones of the player to move, and of the player who moved last.
  Mask mover() const { return side_to_move() == 0 ? x : o; }
  Mask last_mover() const { return side_to_move() == 0 ? o : x; }
  friend bool operator==(const Position& a, const Position& b) {
    return a.x == b.x && a.o == b.o;
  }
  friend bool operator!=(const Position& a, const Position& b) {
    return !(a == b);
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
  bool misere = false;  // whoever completes k in a row loses

  int cells() const { return width * height; }
  // "3,3,3", "7,6,4 gravity" or "3,3,3 misère": how people and error
  // messages name a game.
  std::string Name() const;
  // What a player calls the game: "Tic-tac-toe", "Misère tic-tac-toe",
  // "Connect Four" (7,6,4 gravity), "Connect-style 6x6" (four in a row with
  // gravity), else the name and the rule: "5,5,4: four in a row on 5x5",
  // "4,4,3 misère: three in a row loses, on 4x4".
  std::string Title() const;
  // "3x3k3", "7x6k4g" or "3x3k3m": a short name for file names.
  std::string FileStem() const;
  friend bool operator==(const GameSpec& a, const GameSpec& b) {
    return a.width == b.width && a.height == b.height && a.k == b.k &&
           a.gravity == b.gravity && a.misere == b.misere;
  }
  friend bool operator!=(const GameSpec& a, const GameSpec& b) {
    return !(a == b);
  }
};

// A symmetry of the board: stone on cell c goes to cell map[c].
using Symmetry = std::array<int8_t, kMaxCells>;

// Why a position is not legal (Game::Check); kLegal when it is.
enum class Illegal {
  kLegal,
  kOffBoard,          // overlapping stones or stones off the board
  kCounts,            // X has neither as many stones as O nor one more
  kBothLines,         // both players have k in a row
  kMoverLine,         // the side to move has a line: play went on after it
  kUnexplainedLines,  // no single last stone made every line of the winner
  kFloating,          // gravity: a stone with an empty cell below it
  kNoOrder,           // gravity: no order of moves builds the position
};

class Game {
 public:
  // Checks the parameters: width, height >= 1; 1 <= k <= max(width, height);
  // at most kMaxCells cells. Returns kInvalidArgument naming the parameter
  // otherwise.
  static absl::StatusOr<Game> Create(const GameSpec& spec);

  const GameSpec& spec() const { return spec_; }
  int width() const { return spec_.width; }
  int height() const { return spec_.height; }
  int cells() const { return spec_.width * spec_.height; }
  Mask full_mask() const { return full_; }

  // True when `stones` contain k in a row in any direction: the hot test of
  // the solver. Runs double: after a step of s, bit c of run[d] says that
  // the cells c, c + shift, ..., c + (len - 1) * shift all hold a stone,
  // for len 1, 2, 4, ... and a last step tops len up to k (k = 4: two steps,
  // not three), the four directions side by side (r0 .. r3).
  bool HasLine(Mask stones) const {
    Mask r0 = stones, r1 = stones, r2 = stones, r3 = stones;
    for (int i = 0; i < line_steps_; ++i) {
      const int* shift = step_shift_[i];
      r0 &= r0 >> shift[0];
      r1 &= r1 >> shift[1];
      r2 &= r2 >> shift[2];
      r3 &= r3 >> shift[3];
    }
    return ((r0 & starts_[0]) | (r1 & starts_[1]) | (r2 & starts_[2]) |
            (r3 & starts_[3])) != 0;
  }

  // The outcome by the rules alone, for the side to move: once the last
  // mover has made a line, a loss (normal) or a win (misère); a full board
  // without a line, a draw; nullopt while the game goes on. `p` must be
  // legal.
  std::optional<Value> Primitive(const Position& p) const {
    return PrimitiveGivenLine(p, HasLine(p.last_mover()));
  }
  bool IsTerminal(const Position& p) const {
    return p.occupied() == full_ || HasLine(p.last_mover());
  }

  // Whether a game still in play with `empty` empty cells can end `value`
  // for the side to move in `remoteness` plies. A draw fills the board. The
  // game ends on the move that makes a line: normally the winner's own, on
  // an odd ply (a win in 1, 3, ...; a loss in 2, 4, ...); in misère the
  // loser's, so the parities swap (a win in 2, 4, ...; a loss in 1, 3, ...).
  bool PossibleOutcome(Value value, int remoteness, int empty) const {
    if (value == Value::kDraw) return remoteness == empty;
    if (value != Value::kWin && value != Value::kLoss) return false;
    const bool mover_ends = (value == Value::kWin) != spec_.misere;
    return remoteness >= 1 && remoteness <= empty &&
           remoteness % 2 == (mover_ends ? 1 : 0);
  }

  // The cells a stone may go to on a board whose occupied cells are
  // `occupied`, whether or not the game is over there. Without gravity:
  // every empty cell; with gravity: the lowest empty cell of each column.
  Mask Playable(Mask occupied) const {
    const Mask empty = full_ & ~occupied;
    if (!spec_.gravity) return empty;
    return empty & (bottom_row_ | RowUp(occupied));
  }
  // Bit mask of the cells the side to move may play: Playable, or nothing
  // once the game is over.
  Mask LegalMask(const Position& p) const {
    return IsTerminal(p) ? 0 : Playable(p.occupied());
  }
  // The same cells in ascending order.
  std::vector<int> LegalMoves(const Position& p) const;

  // The position after the side to move plays `cell`, which must be legal.
  static Position Play(const Position& p, int cell) {
    Position next = p;
    (p.side_to_move() == 0 ? next.x : next.o) |= Mask{1} << cell;
    return next;
  }

  // The cells the last move may have gone to: the last mover's stones, with
  // gravity only those on top of their columns. Taking one off (Take) gives
  // a position the game may have come from, when that holds no line.
  Mask LastMoveCells(const Position& p) const {
    const Mask tops =
        spec_.gravity ? p.occupied() & ~RowDown(p.occupied()) : p.occupied();
    return tops & p.last_mover();
  }
  // Play's inverse: p with the stone on `cell` taken off.
  static Position Take(const Position& p, int cell) {
    Position before = p;
    before.x &= ~(Mask{1} << cell);
    before.o &= ~(Mask{1} << cell);
    return before;
  }

  // The cell a move in `column` lands on, or kInvalidArgument (column out of
  // range) / kFailedPrecondition (column full). Gravity games only.
  absl::StatusOr<int> DropCell(const Position& p, int column) const;

  // The local legality test, cheap enough for the solver's inner loop:
  // stones on the board, legal counts, no line for the side to move, at
  // most one player with lines, and either no floating stone (gravity) or
  // one last stone that made every line of the winner (no gravity). Without
  // gravity a position is reachable exactly when it passes; with gravity
  // reachability also needs an order of moves (IsReachable).
  //
  // With `primitive` given, a legal position's Primitive() is stored there
  // too, so that the solver's inner loop tests each player's lines once.
  Illegal Check(const Position& p,
                std::optional<Value>* primitive = nullptr) const {
    if ((p.x & p.o) != 0 || (p.occupied() & ~full_) != 0) {
      return Illegal::kOffBoard;
    }
    const int nx = absl::popcount(p.x), no = absl::popcount(p.o);
    if (nx != no && nx != no + 1) return Illegal::kCounts;
    return CheckLines(p, primitive);
  }
  // The rest of Check, for positions whose stones are known to be on the
  // board with legal counts (every position a PositionIndex builds): the
  // lines and, with gravity, the floating stones.
  Illegal CheckLines(const Position& p,
                     std::optional<Value>* primitive = nullptr) const {
    const bool mover_line = HasLine(p.mover());
    const bool last_line = HasLine(p.last_mover());
    if (mover_line) {
      return last_line ? Illegal::kBothLines : Illegal::kMoverLine;
    }
    if (spec_.gravity) {
      const Mask floating = p.occupied() & ~bottom_row_ & ~RowUp(p.occupied());
      if (floating != 0) return Illegal::kFloating;
    } else if (last_line && !OneStoneMadeEveryLine(p.last_mover())) {
      return Illegal::kUnexplainedLines;
    }
    if (primitive != nullptr) *primitive = PrimitiveGivenLine(p, last_line);
    return Illegal::kLegal;
  }
  bool IsLegal(const Position& p) const { return Check(p) == Illegal::kLegal; }
  // True when the local test decides reachability (no gravity).
  bool reachability_is_local() const { return !spec_.gravity; }
  // Exact: some game from the empty board reaches `p`.
  bool IsReachable(const Position& p) const;
  // An order of moves (cells, X's first) that builds `p` from the empty
  // board, nullopt when none does (`p` is not reachable).
  std::optional<std::vector<int>> MoveOrder(const Position& p) const;

  // Parses a position string (see the file comment) and checks that a game
  // reaches it (IsReachable). kInvalidArgument names what is wrong.
  absl::StatusOr<Position> Parse(absl::string_view text) const;
  // The same checks for a position given as bit masks.
  absl::Status Validate(const Position& p) const;

  // "X.O/X.X/OO.": rows separated by '/'. Parse(Format(p)) == p.
  std::string Format(const Position& p) const;

  // The board's symmetries, identity first, without repeats: up to 8 on a
  // square board, 4 on a rectangle, 2 (the mirror) with gravity. Each maps
  // lines to lines, so symmetric positions have the same value.
  const std::vector<Symmetry>& symmetries() const { return symmetries_; }
  Position Transform(const Position& p, const Symmetry& s) const;
  // Bit mask `bits` under symmetries()[s]: a table lookup a byte, four on
  // boards of up to 32 cells, eight past that.
  Mask TransformMask(Mask bits, int s) const {
    const ByteMaps& t = (*byte_maps_)[s];
    const Mask low = t[0][bits & 0xff] | t[1][bits >> 8 & 0xff] |
                     t[2][bits >> 16 & 0xff] | t[3][bits >> 24 & 0xff];
    if ((full_ >> 32) == 0) return low;  // at most 32 cells
    return low | t[4][bits >> 32 & 0xff] | t[5][bits >> 40 & 0xff] |
           t[6][bits >> 48 & 0xff] | t[7][bits >> 56];
  }
  Position Transform(const Position& p, int s) const {
    return {TransformMask(p.x, s), TransformMask(p.o, s)};
  }
  // The least of p's images, (x, o) compared as numbers: the same position
  // for every member of a symmetry class. `symmetry`, when given, receives
  // the s with Transform(p, s) == the result.
  Position Canonical(const Position& p, int* symmetry = nullptr) const;
  // Canonical(p) == p, stopping at the first smaller image.
  bool IsCanonical(const Position& p) const {
    for (size_t s = 1; s < symmetries_.size(); ++s) {
      const Mask x = TransformMask(p.x, static_cast<int>(s));
      if (x < p.x ||
          (x == p.x && TransformMask(p.o, static_cast<int>(s)) < p.o)) {
        return false;
      }
    }
    return true;
  }

 private:
  explicit Game(const GameSpec& spec);
  // The constructor's steps: the lines of k cells (starts_, shift_,
  // step_shift_), and the board's symmetries with their byte maps.
  void FindLines();
  void FindSymmetries();
  std::optional<Value> PrimitiveGivenLine(const Position& p,
                                          bool last_line) const {
    if (last_line) return spec_.misere ? Value::kWin : Value::kLoss;
    if (p.occupied() == full_) return Value::kDraw;
    return std::nullopt;
  }
  // True when removing one of `stones` leaves no line: a single last move
  // made every line.
  bool OneStoneMadeEveryLine(Mask stones) const {
    for (Mask s = stones; s != 0; s &= s - 1) {
      if (!HasLine(stones & ~(s & -s))) return true;
    }
    return false;
  }
  // `cells` one row up (cell c to c - width) or down: in two shifts, so
  // that a one-row board of 64 cells shifts everything out, as a shift by
  // 64 would not.
  Mask RowUp(Mask cells) const {
    return cells >> (spec_.width / 2) >> (spec_.width - spec_.width / 2);
  }
  Mask RowDown(Mask cells) const {
    return cells << (spec_.width / 2) << (spec_.width - spec_.width / 2);
  }
  // Canonical() with images ordered by key(image).
  template <typename Key>
  Position CanonicalBy(const Position& p, int* symmetry, Key key) const {
    Position best = p;
    int best_s = 0;
    for (size_t s = 1; s < symmetries_.size(); ++s) {
      const Position image = Transform(p, static_cast<int>(s));
      if (key(image) < key(best)) {
        best = image;
        best_s = static_cast<int>(s);
      }
    }
    if (symmetry != nullptr) *symmetry = best_s;
    return best;
  }
  Mask ColumnMask(int column) const;

  GameSpec spec_;
  Mask full_ = 0;
  Mask bottom_row_ = 0;
  // Cells (p, p + shift, ..., p + (k-1) * shift) form a line in direction d
  // (right, down, down-right, down-left) for every start p in starts_[d].
  int shift_[4] = {};
  Mask starts_[4] = {};
  // HasLine's steps: step i shifts direction d's runs by step_shift_[i][d].
  static constexpr int kMaxLineSteps = 8;
  int line_steps_ = 0;
  int step_shift_[kMaxLineSteps][4] = {};
  std::vector<Symmetry> symmetries_;
  // byte_maps_[s][b][v]: the image under symmetries_[s] of byte value v in
  // byte b of a mask. Shared: games are copied by value.
  using ByteMaps = std::array<std::array<Mask, 256>, 8>;
  std::shared_ptr<const std::vector<ByteMaps>> byte_maps_;
};

}  // namespace mnk

#endif  // MNK_RULES_GAME_GAME_H_
