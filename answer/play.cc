#include "answer/play.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "rules/game/moves.h"
#include "rules/game/policy.h"
#include "table/record.h"

namespace mnk {
namespace {

// SplitMix64's finaliser: a well-mixed 64-bit hash, the same everywhere.
uint64_t Mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

// A number in [0, 1): from the seed and the position when there is a seed,
// else afresh.
double Draw(const Level& level, const Position& p) {
  uint64_t bits;
  if (level.seed.has_value()) {
    bits = Mix(Mix(Mix(*level.seed) ^ p.x) ^ p.o);
  } else {
    thread_local std::mt19937_64 fresh{std::random_device{}()};
    bits = fresh();
  }
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

// What a move is worth to the mover, from -1 to +1 (the file comment's
// u_i); a remoteness the table does not keep counts as 0.
double Utility(const MoveEval& m) {
  const int r = m.remoteness == kUnknownRemoteness ? 0 : m.remoteness;
  return PolicyScore(m.value, r) / 1000.0;
}

// The index into `weights` where a draw `u` in [0, 1) lands, each index
// taking its weight's share.
size_t Pick(const std::vector<double>& weights, double u) {
  double total = 0;
  for (double w : weights) total += w;
  double at = u * total;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (at < weights[i]) return i;
    at -= weights[i];
  }
  return weights.size() - 1;  // rounding at the very end
}

// The seeds' scores of a node `ply` plies below the root, whose value is
// `value` (in `remoteness`) for its own side to move: the root mover's
// when `ply` is even; `top` is TreeNode::score's 10 (or cells + 1).
void Score(int top, int ply, Value value, int remoteness, TreeNode* node) {
  const Value for_root = ply % 2 == 0 ? value : Negate(value);
  const int plies = ply + (remoteness == kUnknownRemoteness ? 0 : remoteness);
  node->sign = for_root == Value::kWin ? 1 : for_root == Value::kLoss ? -1 : 0;
  node->score = node->sign * (top - plies);
}

// Fills `node` (its position set) and its children to `depth` more plies;
// `nodes` counts what is built.
absl::Status Grow(const AnswerSource& source, const AnswerLimits& limits,
                  int ply, int depth, int* nodes, TreeNode* node) {
  if (++*nodes > kMaxTreeNodes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the tree has more than ", kMaxTreeNodes,
                     " nodes: ask for less depth"));
  }
  absl::StatusOr<Analysis> a = source.Answer(node->position, limits);
  if (!a.ok()) return a.status();
  node->value = a->record.value;
  node->remoteness = a->record.remoteness;
  const int top = std::max(10, source.game().cells() + 1);
  Score(top, ply, node->value, node->remoteness, node);
  if (depth == 0) return absl::OkStatus();
  for (int cell : BoardOrderMoves(source.game(), node->position)) {
    TreeNode child;
    child.cell = cell;
    child.position = Game::Play(node->position, cell);
    child.best = cell == a->record.best_move;
    if (absl::Status s =
            Grow(source, limits, ply + 1, depth - 1, nodes, &child);
        !s.ok()) {
      return s;
    }
    node->children.push_back(std::move(child));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TreeNode> GameTree(const AnswerSource& source,
                                  absl::string_view position, int depth,
                                  const AnswerLimits& limits) {
  if (depth < 0 || depth > kMaxCells) {
    return absl::InvalidArgumentError(absl::StrCat(
        "depth ", depth, ": expected 0 (the position alone) to ", kMaxCells));
  }
  absl::StatusOr<Position> p = source.Parse(position);
  if (!p.ok()) return p.status();
  TreeNode root;
  root.position = *p;
  int nodes = 0;
  if (absl::Status s = Grow(source, limits, 0, depth, &nodes, &root); !s.ok()) {
    return s;
  }
  return root;
}

absl::Status CheckLevel(int level, absl::string_view name) {
  if (level >= kRandomLevel && level <= kPerfectLevel) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(name, " ", level, ": expected a level from ", kRandomLevel,
                   " (random) to ", kPerfectLevel, " (perfect)"));
}

double Temperature(int level) {
  if (level <= kRandomLevel) return std::numeric_limits<double>::infinity();
  if (level >= kPerfectLevel) return 0;
  return 4 * std::pow(0.625, level - 2);
}

Need NeedOf(const Level& level) {
  return level.level == kPerfectLevel && !level.vary ? Need::kBestMove
                                                     : Need::kEveryMove;
}

int ChooseMove(const Analysis& a, const Level& level) {
  if (NeedOf(level) == Need::kBestMove || a.moves.empty()) {
    return a.record.best_move == kNoMove ? -1 : a.record.best_move;
  }
  double best = -2;
  for (const MoveEval& m : a.moves) best = std::max(best, Utility(m));
  const double t = Temperature(level.level);
  std::vector<double> weights;
  weights.reserve(a.moves.size());
  for (const MoveEval& m : a.moves) {
    const double u = Utility(m);
    weights.push_back(std::isinf(t) ? 1.0
                      : t == 0      ? (u == best ? 1.0 : 0.0)
                                    : std::exp((u - best) / t));
  }
  return a.moves[Pick(weights, Draw(level, a.position))].cell;
}

absl::StatusOr<int> Choose(const AnswerSource& source,
                           absl::string_view position, const Level& level,
                           const AnswerLimits& limits) {
  if (absl::Status s = CheckLevel(level.level, "level"); !s.ok()) return s;
  absl::StatusOr<Analysis> a =
      source.Answer(position, limits, {}, NeedOf(level));
  if (!a.ok()) return a.status();
  if (a->record.best_move == kNoMove) {
    return WithFailure(absl::InvalidArgumentError(absl::StrCat(
                           "position '", source.game().Format(a->position),
                           "': the game is over, so there is no move")),
                       AnswerFailure::kBadPosition);
  }
  return ChooseMove(*a, level);
}

absl::StatusOr<Line> PrincipalVariation(const AnswerSource& source,
                                        absl::string_view position,
                                        const AnswerLimits& limits) {
  const Game& game = source.game();
  absl::StatusOr<Position> p = source.Parse(position);
  if (!p.ok()) return p.status();
  const absl::Time deadline = absl::Now() + limits.max_time;
  Line line;
  while (!game.IsTerminal(*p)) {
    AnswerLimits step = limits;
    step.max_time = deadline - absl::Now();
    absl::StatusOr<Analysis> a = source.Answer(*p, step, {}, Need::kBestMove);
    if (IsSearchStop(a.status())) {
      line.complete = false;
      break;
    }
    if (!a.ok()) return a.status();
    line.cells.push_back(a->record.best_move);
    *p = Game::Play(*p, a->record.best_move);
  }
  return line;
}

}  // namespace mnk
