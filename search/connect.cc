#include "search/connect.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <optional>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "rules/game/policy.h"

namespace mnk {

// The moves of one node, best first: by score (higher first), ties in the
// order they were added.
class ConnectSearch::MoveList {
 public:
  // `threats`: the winning cells the move leaves its maker.
  void Add(uint64_t move, uint64_t threats, int score) {
    int i = size_++;
    for (; i > 0 && moves_[i - 1].score < score; --i) moves_[i] = moves_[i - 1];
    moves_[i] = {move, threats, score};
  }
  // Moves `move` (if listed) to the front.
  void Promote(uint64_t move) {
    int i = 0;
    while (i < size_ && moves_[i].move != move) ++i;
    if (i == size_) return;
    const Scored promoted = moves_[i];
    for (; i > 0; --i) moves_[i] = moves_[i - 1];
    moves_[0] = promoted;
  }
  int size() const { return size_; }
  uint64_t operator[](int i) const { return moves_[i].move; }
  uint64_t threats(int i) const { return moves_[i].threats; }
  // The moves after which the opponent has more than one safe reply: the
  // children that may have a table entry.
  uint64_t open() const { return open_; }
  void AddOpen(uint64_t move) { open_ |= move; }

 private:
  struct Scored {
    uint64_t move;
    uint64_t threats;
    int score;
  };
  Scored moves_[64];
  int size_ = 0;
  uint64_t open_ = 0;
};

namespace {

// A position's busy_ count, raised while this thread searches it (nothing
// when null).
class BusyMark {
 public:
  explicit BusyMark(std::atomic<uint16_t>* slot) : slot_(slot) {
    if (slot_ != nullptr) slot_->fetch_add(1, std::memory_order_relaxed);
  }
  ~BusyMark() {
    if (slot_ != nullptr) slot_->fetch_sub(1, std::memory_order_relaxed);
  }
  bool on() const { return slot_ != nullptr; }

 private:
  std::atomic<uint16_t>* const slot_;
};

// Narrows the window (*alpha, *beta) to [lower, upper]: the score that
// ends the search when nothing is left of it.
std::optional<int> Narrow(int lower, int upper, int* alpha, int* beta) {
  if (*alpha < lower) {
    *alpha = lower;
    if (*alpha >= *beta) return *alpha;
  }
  if (*beta > upper) {
    *beta = upper;
    if (*alpha >= *beta) return *beta;
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ConnectSearch>> ConnectSearch::Create(
    const Game& game, const ConnectSearchOptions& options) {
  const GameSpec& spec = game.spec();
  if (!spec.gravity) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the exact search plays Connect-style games (with gravity); ",
        spec.Name(), " has none"));
  }
  if (spec.misere) {
    return absl::InvalidArgumentError(
        absl::StrCat("the exact search plays the normal game, not misère (",
                     spec.Name(), ")"));
  }
  if (spec.width * (spec.height + 1) > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("the exact search needs width x (height + 1) <= 64 bits; ",
                     spec.Name(), " needs ", spec.width * (spec.height + 1)));
  }
  if (options.threads < 1 || options.threads > kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "threads is ", options.threads, ": expected 1 to ", kMaxThreads));
  }
  if (options.table_bits < kMinTableBits ||
      options.table_bits > kMaxTableBits) {
    return absl::InvalidArgumentError(
        absl::StrCat("table_bits is ", options.table_bits, ": expected ",
                     kMinTableBits, " to ", kMaxTableBits));
  }
  std::unique_ptr<ConnectSearch> search(new ConnectSearch(game, options));
  if (!search->table_.ok() || !search->near_.ok()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot allocate the search's table of 2^", options.table_bits,
        " entries (", kEntryBytes << options.table_bits, " bytes)"));
  }
  return search;
}

ConnectSearch::ConnectSearch(const Game& game,
                             const ConnectSearchOptions& options)
    : game_(game),
      board_(game),
      cells_(game.cells()),
      tabled_moves_(cells_ - kUntabledEmpty),
      near_moves_(cells_ - kNearEmpty),
      table_(options.table_bits, options.threads > 1),
      near_(std::min(options.table_bits, kNearTableBits), options.threads > 1),
      threads_(options.threads) {
  etc_moves_ = cells_ - 15;
}

void ConnectSearch::MakeBusySlots() {
  if (busy_ == nullptr) busy_.reset(new std::atomic<uint16_t>[kBusySlots]());
}

int ConnectSearch::TableBitsFor(uint64_t bytes) {
  int bits = kMinTableBits - 1;
  while (bits < kMaxTableBits && (kEntryBytes << (bits + 1)) <= bytes) ++bits;
  return bits;
}

absl::StatusOr<int> ConnectSearch::TableBitsForFlag(uint64_t bytes, int shares,
                                                    absl::string_view flag) {
  const uint64_t most = kEntryBytes << kMaxTableBits;
  if (bytes / shares > most) {
    return absl::InvalidArgumentError(absl::StrCat(
        flag, " is more than a search's table takes: expected at most ",
        most >> 30, " GiB", shares > 1 ? " a search" : ""));
  }
  const int bits = TableBitsFor(bytes / shares);
  if (bits >= kMinTableBits) return bits;
  const uint64_t least = (kEntryBytes << kMinTableBits) * shares;
  return absl::InvalidArgumentError(absl::StrCat(
      flag, " is too little: expected at least ", least >> 10, " KiB",
      shares > 1 ? absl::StrCat(" (", shares, " searches of ",
                                (kEntryBytes << kMinTableBits) >> 10, " KiB)")
                 : ""));
}

ConnectSearch::~ConnectSearch() = default;

void ConnectSearch::Clear() {
  table_.Clear();
  near_.Clear();
}

int ConnectSearch::Negamax(Worker& w, const Bits& b, int alpha, int beta) {
  return Negamax(w, b, board_.WinningCells(b.mover ^ b.mask, b.mask), alpha,
                 beta);
}

int ConnectSearch::Negamax(Worker& w, const Bits& b, uint64_t opponent_threats,
                           int alpha, int beta) {
  assert(alpha < beta);
  assert(!board_.CanWinNext(b));
  if (Stopping(w)) return 0;
  ++w.nodes;
  const uint64_t safe = board_.SafeMoves(b.mask, opponent_threats);
  if (safe == 0) return -(cells_ - b.moves) / 2;  // lost on the next ply
  if (b.moves >= cells_ - 2) return 0;  // the last two stones make no line
  if ((safe & (safe - 1)) == 0) {
    // One move: nothing to choose, nothing worth a table entry.
    return -Negamax(w, board_.Child(b, safe), -beta, -alpha);
  }
  // The entry's bucket is on its way (ListMoves prefetched it, and here
  // again for a node reached otherwise).
  const uint64_t key = board_.Key(b);
  const bool tabled = b.moves < tabled_moves_;
  if (tabled) TableAt(b.moves).Prefetch(key);
  int lower, upper;  // the table may narrow them further
  board_.StaticBounds(b, alpha, beta, &lower, &upper);
  if (const std::optional<int> cut = Narrow(lower, upper, &alpha, &beta)) {
    return *cut;
  }
  // The table's entry, before the moves are listed: an entry that
  // settles the node saves listing them.
  const bool mirrored = board_.Mirrored(b, key);
  const int first =
      tabled ? TableBounds(b.moves, key, mirrored, &lower, &upper) : -1;
  if (const std::optional<int> cut = Narrow(lower, upper, &alpha, &beta)) {
    return *cut;
  }
  MoveList moves;
  if (const std::optional<int> win =
          ListMoves(b, safe, opponent_threats, &moves)) {
    return *win;
  }
  // The second player's moves after which claimeven holds the first to a
  // draw or a loss (c4's static pass over the children, in part): a floor
  // that may end the node before any child is searched, or narrow the
  // window of every child.
  if (alpha < 1 && b.moves % 2 == 1 && board_.HasClaimeven()) {
    lower = std::max(lower, ClaimevenFloor(b, moves));
  }
  // No move wins that soon: the soonest win is two plies later.
  upper = std::min(upper, (cells_ - 3 - b.moves) / 2);
  if (first >= 0) moves.Promote(safe & board_.column(first));
  if (const std::optional<int> cut = Narrow(lower, upper, &alpha, &beta)) {
    return *cut;
  }
  // The children's entries are on their way (prefetched above).
  if (b.moves < etc_moves_) {
    if (const std::optional<int> cut =
            TranspositionCutoff(b, moves.open(), beta)) {
      return *cut;
    }
  }
  return SearchMoves(w, b, key, mirrored, moves, alpha, beta, lower, upper);
}

int ConnectSearch::SearchMoves(Worker& w, const Bits& b, uint64_t key,
                               bool mirrored, const MoveList& moves, int alpha,
                               int beta, int lower, int upper) {
  const int work = cells_ - b.moves;
  const bool tabled = b.moves < tabled_moves_;
  const int alpha0 = alpha;
  int best = lower;  // the best score found, or the node's floor
  // With helper threads (ABDADA): the node is marked busy while searched
  // here, and a move (but the first) whose position another thread is
  // searching waits for a second pass, by when that thread's entry may
  // settle it.
  const BusyMark mark(MarksBusy(w, work) ? &busy_[BusySlot(key)] : nullptr);
  uint64_t deferred = 0;  // bit i: moves[i] waits for the second pass
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < moves.size(); ++i) {
      if (pass == 1 && (deferred >> i & 1) == 0) continue;
      const Bits child = board_.Child(b, moves[i]);
      if (pass == 0 && mark.on() && i > 0 && Busy(board_.Key(child))) {
        deferred |= uint64_t{1} << i;
        continue;
      }
      const int score = -Negamax(w, child, moves.threats(i), -beta, -alpha);
      if (w.stopped) return 0;  // unfinished: nothing to store
      if (score >= beta) {
        const int column = board_.ColumnOf(moves[i]);
        if (tabled) {
          TableAt(b.moves).Store(
              key, work, score, upper,
              1 + (mirrored ? board_.width() - 1 - column : column));
        }
        return score;
      }
      alpha = std::max(alpha, score);
      best = std::max(best, score);
    }
    if (deferred == 0) break;
  }
  // Every move failed low (the best of their bounds is then the node's
  // upper bound: fail-soft), or one raised alpha inside the window (then
  // it is exact).
  if (tabled) {
    TableAt(b.moves).Store(key, work, best > alpha0 ? best : lower,
                           std::min(upper, best), 0);
  }
  return best;
}

inline std::optional<int> ConnectSearch::ListMoves(const Bits& b, uint64_t safe,
                                                   uint64_t opponent_threats,
                                                   MoveList* moves) const {
  // The safe moves, centre first (a move a column), and the threats each
  // leaves its maker, computed together.
  uint64_t listed[64], threats[64];
  int n = 0;
  for (int column : board_.order()) {
    listed[n] = safe & board_.column(column);
    n += listed[n] != 0;  // no branch to mispredict
  }
  board_.WinningCellsAfter(b.mover, b.mask, listed, n, threats);
  const bool children_tabled = b.moves + 1 < tabled_moves_;
  for (int i = 0; i < n; ++i) {
    const uint64_t mask = b.mask | listed[i];
    // A move that leaves the opponent nothing safe wins on the next stone
    // but one: the best score still possible here.
    const uint64_t replies = board_.SafeMoves(mask, threats[i]);
    if (replies == 0) return (cells_ - 1 - b.moves) / 2;
    const bool forced = (replies & (replies - 1)) == 0;
    moves->Add(listed[i], threats[i],
               board_.MoveScore(mask, threats[i], opponent_threats));
    // The child will read its entry: start the read now (but for a child
    // with one safe move, which reads none).
    if (!forced) {
      moves->AddOpen(listed[i]);
      if (children_tabled) {
        TableAt(b.moves + 1).Prefetch(board_.Key(board_.Child(b, listed[i])));
      }
    }
  }
  return std::nullopt;
}

int ConnectSearch::ClaimevenFloor(const Bits& b, const MoveList& moves) const {
  const uint64_t opponent = b.mover ^ b.mask;
  int floor = -ConnectBoard::kNoBound;
  for (int i = 0; i < moves.size() && floor < 1; ++i) {  // 1: the most
    floor = std::max(floor, -board_.ClaimevenUpper(opponent, b.mover | moves[i],
                                                   b.mask | moves[i]));
  }
  return floor;
}

int ConnectSearch::TableBounds(int moves, uint64_t key, bool mirrored,
                               int* lower, int* upper) const {
  const std::optional<ConnectTable::Entry> e = TableAt(moves).Find(key);
  if (!e.has_value()) return -1;
  *lower = std::max(*lower, e->lower);
  *upper = std::min(*upper, e->upper);
  if (e->refutation == 0) return -1;
  return mirrored ? board_.width() - e->refutation : e->refutation - 1;
}

std::optional<int> ConnectSearch::TranspositionCutoff(const Bits& b,
                                                      uint64_t moves,
                                                      int beta) const {
  for (uint64_t s = moves; s != 0; s &= s - 1) {
    const std::optional<ConnectTable::Entry> e =
        TableAt(b.moves + 1).Find(board_.Key(board_.Child(b, s & -s)));
    if (e.has_value() && -e->upper >= beta) return -e->upper;
  }
  return std::nullopt;
}

}  // namespace mnk
