// Live search, written apart from the solver so that it can check it: it
// shares only the game rules, and keeps no table of solved positions unless
// asked to (AlphaBetaSearch with a transposition table). A yardstick for
// tests and benchmarks (testonly): the player's search is connect.h.
//
//   int v = mnk::Minimax(game, pos);                  // +1, 0 or -1
//   mnk::SearchResult r = mnk::AlphaBeta(game, pos);  // value and remoteness
//
// Minimax is the seed tutorials' algorithm: every move tried, scores +1 (win
// for the side to move), 0 (draw), -1 (loss), no memory, no pruning.
//
// AlphaBeta is negamax with alpha-beta pruning on scores that also carry the
// distance to the end, as in chess engines' mate scores: a position where the
// side to move has lost, found `ply` plies below the root, scores
// -(kMateScore - ply); a draw scores 0. Maximising this prefers the fastest
// win and the slowest loss, so the root score gives both the value and the
// remoteness. A draw always lasts until the board is full.
#ifndef MNK_SEARCH_SEARCH_H_
#define MNK_SEARCH_SEARCH_H_

#include <cstdint>
#include <memory>

#include "rules/game/game.h"
#include "search/result.h"

namespace mnk {

// Plain minimax: +1 when the side to move wins, 0 for a draw, -1 for a loss.
// `p` must be valid. Counts visited nodes in *nodes when given.
int Minimax(const Game& game, const Position& p, uint64_t* nodes = nullptr);

// Exact value and remoteness of a valid position by alpha-beta negamax.
SearchResult AlphaBeta(const Game& game, const Position& p,
                       uint64_t* nodes = nullptr);

// Alpha-beta with a transposition table, for boards too big for plain
// alpha-beta: keeps up to 2^table_bits entries between calls, so checking
// many positions of one game reuses earlier work.
class AlphaBetaSearch {
 public:
  AlphaBetaSearch(const Game& game, int table_bits = 22);
  ~AlphaBetaSearch();
  SearchResult Search(const Position& p);

 private:
  struct Entry;
  int Negamax(const Position& p, int alpha, int beta);

  const Game game_;
  std::unique_ptr<Entry[]> table_;
  int shift_;
};

}  // namespace mnk

#endif  // MNK_SEARCH_SEARCH_H_
