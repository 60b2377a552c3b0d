#include "search/search.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/numeric/bits.h"

namespace mnk {
namespace {

constexpr int kMateScore = 1000;
constexpr int kInfinity = 1 << 20;

// A score `ply` plies further from the end: mate scores move towards zero.
int FromTable(int score, int ply) {
  return score > 0 ? score - ply : score < 0 ? score + ply : 0;
}

// The score of a finished game for the side to move, `ply` plies below the
// root: a win or a loss found sooner scores further from zero.
int EndScore(Value end, int ply) {
  switch (end) {
    case Value::kWin:
      return kMateScore - ply;
    case Value::kLoss:
      return -(kMateScore - ply);
    default:
      return 0;
  }
}

SearchResult FromScore(const Game& game, const Position& p, int score) {
  if (score > 0) return {Value::kWin, kMateScore - score};
  if (score < 0) return {Value::kLoss, kMateScore + score};
  return {Value::kDraw, game.cells() - p.stones()};
}

// The seeds' minimax: X maximises, O minimises, +1 / -1 / 0 for an X win, an
// O win, a draw.
int MinimaxX(const Game& game, const Position& p, uint64_t* nodes) {
  if (nodes != nullptr) ++*nodes;
  if (const std::optional<Value> end = game.Primitive(p)) {
    const int for_mover = *end == Value::kWin    ? 1
                          : *end == Value::kLoss ? -1
                                                 : 0;
    return p.side_to_move() == 0 ? for_mover : -for_mover;
  }
  const std::vector<int> moves = game.LegalMoves(p);
  const bool maximizing = p.side_to_move() == 0;
  int best = maximizing ? -kInfinity : kInfinity;
  for (int cell : moves) {
    const int score = MinimaxX(game, Game::Play(p, cell), nodes);
    best = maximizing ? std::max(best, score) : std::min(best, score);
  }
  return best;
}

int PlainNegamax(const Game& game, const Position& p, int ply, int alpha,
                 int beta, uint64_t* nodes) {
  if (nodes != nullptr) ++*nodes;
  if (const std::optional<Value> end = game.Primitive(p)) {
    return EndScore(*end, ply);
  }
  int best = -kInfinity;
  for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int score = -PlainNegamax(game, Game::Play(p, absl::countr_zero(s)),
                                    ply + 1, -beta, -alpha, nodes);
    best = std::max(best, score);
    alpha = std::max(alpha, score);
    if (alpha >= beta) break;
  }
  return best;
}

}  // namespace

int Minimax(const Game& game, const Position& p, uint64_t* nodes) {
  const int score = MinimaxX(game, p, nodes);
  return p.side_to_move() == 0 ? score : -score;
}

SearchResult AlphaBeta(const Game& game, const Position& p, uint64_t* nodes) {
  return FromScore(game, p,
                   PlainNegamax(game, p, 0, -kInfinity, kInfinity, nodes));
}

struct AlphaBetaSearch::Entry {
  // The whole position: boards of up to 64 cells need both masks.
  Position key{~Mask{0}, ~Mask{0}};
  int16_t score = 0;
  uint8_t bound = 0;  // kExact, kLower or kUpper
};

namespace {
enum Bound : uint8_t { kExact, kLower, kUpper };
}  // namespace

AlphaBetaSearch::AlphaBetaSearch(const Game& game, int table_bits)
    : game_(game),
      table_(new Entry[size_t{1} << table_bits]),
      shift_(64 - table_bits) {}

AlphaBetaSearch::~AlphaBetaSearch() = default;

SearchResult AlphaBetaSearch::Search(const Position& p) {
  return FromScore(game_, p, Negamax(p, -kInfinity, kInfinity));
}

int AlphaBetaSearch::Negamax(const Position& p, int alpha, int beta) {
  // Scores here are relative to this node (ply 0): the table and the
  // recursion both use node-relative scores, shifted by one ply per level.
  if (const std::optional<Value> end = game_.Primitive(p)) {
    return EndScore(*end, 0);
  }
  const Mask legal = game_.LegalMask(p);
  // A move that ends the game with the opponent lost is the best there is.
  for (Mask s = legal; s != 0; s &= s - 1) {
    if (game_.Primitive(Game::Play(p, absl::countr_zero(s))) == Value::kLoss) {
      return kMateScore - 1;
    }
  }
  const Position key = p;
  Entry& entry =
      table_[((p.x * 0x9E3779B97F4A7C15ull) ^ (p.o * 0xC2B2AE3D27D4EB4Full)) >>
             shift_];
  const int alpha0 = alpha;
  if (entry.key == key) {
    const int score = entry.score;
    if (entry.bound == kExact) return score;
    if (entry.bound == kLower) alpha = std::max(alpha, score);
    if (entry.bound == kUpper) beta = std::min(beta, score);
    if (alpha >= beta) return score;
  }
  int best = -kInfinity;
  for (Mask s = legal; s != 0; s &= s - 1) {
    // Child scores are one ply further from the end: a child score c
    // becomes -c moved one step towards zero, and the window moves back.
    const int child = Negamax(Game::Play(p, absl::countr_zero(s)),
                              -FromTable(beta, -1), -FromTable(alpha, -1));
    const int score = FromTable(-child, 1);
    best = std::max(best, score);
    alpha = std::max(alpha, score);
    if (alpha >= beta) break;
  }
  entry.key = key;
  entry.score = static_cast<int16_t>(best);
  entry.bound = best <= alpha0 ? kUpper : best >= beta ? kLower : kExact;
  return best;
}

}  // namespace mnk
