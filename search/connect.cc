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
  void Add(uint64_t move, int score) {
    int i = size_++;
    for (; i > 0 && moves_[i - 1].score < score; --i) moves_[i] = moves_[i - 1];
    moves_[i] = {move, score};
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

 private:
  struct Scored {
    uint64_t move;
    int score;
  };
  Scored moves_[64];
  int size_ = 0;
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
  if (!search->table_.ok()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot allocate the search's table of 2^", options.table_bits,
        " entries (", kEntryBytes << options.table_bits, " bytes)"));
  }
  return search;
}

ConnectSearch::ConnectSearch(const Game& game,
                             const ConnectSearchOptions& options)
    : game_(game),
      width_(game.width()),
      height_(game.height()),
      k_(game.spec().k),
      cells_(game.cells()),
      table_(options.table_bits, options.threads > 1),
      threads_(options.threads),
      shared_(options.threads > 1),
      busy_(shared_ ? new std::atomic<uint16_t>[kBusySlots]() : nullptr) {
  const int column = height_ + 1;
  for (int c = 0; c < width_; ++c) {
    bottom_ |= uint64_t{1} << (c * column);
  }
  board_ = bottom_ * ((uint64_t{1} << height_) - 1);
  for (int c = 0; c < width_; ++c) {
    column_[c] = ((uint64_t{1} << height_) - 1) << (c * column);
  }
  for (int r = 1; r < height_; r += 2) odd_rows_ |= bottom_ << r;
  etc_moves_ = cells_ - 20;
  for (int i = 0; i < width_ * column; ++i) {
    mirror_bit_[i] = uint64_t{1}
                     << ((width_ - 1 - i / column) * column + i % column);
  }
  // The directions a line of k fits in: up, right, right and down, right
  // and up. Their shifts times k - 1 stay under 64 (see the header).
  const bool fits[4] = {k_ <= height_, k_ <= width_,
                        k_ <= std::min(width_, height_),
                        k_ <= std::min(width_, height_)};
  const int shifts[4] = {1, column, column - 1, column + 1};
  for (int d = 0; d < 4; ++d) {
    if (fits[d]) shift_[directions_++] = shifts[d];
  }
  for (int i = 0; i < width_; ++i) {
    // Centre first, then outwards, left before right.
    const int step = i % 2 == 0 ? i / 2 : -(i + 1) / 2;
    order_.push_back(width_ / 2 + step);
  }
}

int ConnectSearch::TableBitsFor(uint64_t bytes) {
  int bits = kMinTableBits - 1;
  while (bits < kMaxTableBits && (kEntryBytes << (bits + 1)) <= bytes) ++bits;
  return bits;
}

absl::StatusOr<int> ConnectSearch::TableBitsForFlag(uint64_t bytes, int shares,
                                                    absl::string_view flag) {
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

void ConnectSearch::Clear() { table_.Clear(); }

ConnectSearch::Bits ConnectSearch::ToBits(const Position& p) const {
  Bits b{0, 0, 0, 0, p.stones()};
  const Mask mover = p.mover();
  for (Mask s = p.occupied(); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const int row = cell / width_, col = cell % width_;
    const int i = col * (height_ + 1) + (height_ - 1 - row);
    b.mask |= uint64_t{1} << i;
    b.mirror_mask |= mirror_bit_[i];
    if ((mover >> cell & 1) != 0) {
      b.mover |= uint64_t{1} << i;
      b.mirror_mover |= mirror_bit_[i];
    }
  }
  return b;
}

namespace {

// The cells where a stone completes K in a row along step s: the j cells
// after it and the K - 1 - j cells before it hold stones, for some j.
// after[j] / before[j]: the cells with j stones after / before them.
// K = 4, written out: two stones after and before, each with a third.
uint64_t CompletingFour(uint64_t p, int s) {
  const uint64_t before = (p << s) & (p << 2 * s);
  const uint64_t after = (p >> s) & (p >> 2 * s);
  return (before & ((p << 3 * s) | (p >> s))) |
         (after & ((p >> 3 * s) | (p << s)));
}

template <int K>
uint64_t CompletingCells(uint64_t stones, int s) {
  uint64_t after[K], before[K];
  after[0] = before[0] = ~uint64_t{0};
  for (int j = 1; j < K; ++j) {
    after[j] = after[j - 1] & stones >> (j * s);
    before[j] = before[j - 1] & stones << (j * s);
  }
  uint64_t cells = 0;
  for (int j = 0; j < K; ++j) cells |= after[j] & before[K - 1 - j];
  return cells;
}

// The same for any k (up to 64), less fast.
uint64_t CompletingCellsAny(uint64_t stones, int s, int k) {
  uint64_t after[64], before[64];
  after[0] = before[0] = ~uint64_t{0};
  for (int j = 1; j < k; ++j) {
    after[j] = after[j - 1] & stones >> (j * s);
    before[j] = before[j - 1] & stones << (j * s);
  }
  uint64_t cells = 0;
  for (int j = 0; j < k; ++j) cells |= after[j] & before[k - 1 - j];
  return cells;
}

template <int K>
uint64_t CompletingCells(uint64_t stones, const int* shifts, int directions) {
  uint64_t cells = 0;
  for (int d = 0; d < directions; ++d) {
    cells |= CompletingCells<K>(stones, shifts[d]);
  }
  return cells;
}

}  // namespace

uint64_t ConnectSearch::WinningCells(uint64_t stones, uint64_t mask) const {
  uint64_t cells;
  switch (k_) {
    case 1:
      cells = ~uint64_t{0};
      break;
    case 2:
      cells = CompletingCells<2>(stones, shift_, directions_);
      break;
    case 3:
      cells = CompletingCells<3>(stones, shift_, directions_);
      break;
    case 4:
      if (directions_ == 4) {  // every board of 4 by 4 or more
        cells = ((stones << 1) & (stones << 2) & (stones << 3)) |
                CompletingFour(stones, shift_[1]) |
                CompletingFour(stones, shift_[2]) |
                CompletingFour(stones, shift_[3]);
      } else {
        cells = CompletingCells<4>(stones, shift_, directions_);
      }
      break;
    case 5:
      cells = CompletingCells<5>(stones, shift_, directions_);
      break;
    default:
      cells = 0;
      for (int d = 0; d < directions_; ++d) {
        cells |= CompletingCellsAny(stones, shift_[d], k_);
      }
  }
  return cells & (board_ ^ mask);
}

uint64_t ConnectSearch::SafeMoves(uint64_t mask, uint64_t threats) const {
  uint64_t possible = Playable(mask);
  const uint64_t forced = possible & threats;
  if (forced != 0) {
    if ((forced & (forced - 1)) != 0) return 0;  // two threats: lost
    possible = forced;
  }
  // Not under an opponent's winning cell (the sentinel takes the bottom's).
  return possible & ~(threats >> 1);
}

uint64_t ConnectSearch::Key(const Bits& b) const {
  // mover + mask + bottom: per column, the stones of the side to move below
  // a 1 that marks the column's height. Unique, never 0.
  return std::min(b.mover + b.mask + bottom_,
                  b.mirror_mover + b.mirror_mask + bottom_);
}

int ConnectSearch::Negamax(Worker& w, const Bits& b, int alpha, int beta) {
  assert(alpha < beta);
  assert(!CanWinNext(b));
  if (Stopping(w)) return 0;
  ++w.nodes;
  const uint64_t key = Key(b);
  table_.Prefetch(key);
  const uint64_t safe =
      SafeMoves(b.mask, WinningCells(b.mover ^ b.mask, b.mask));
  if (safe == 0) return -(cells_ - b.moves) / 2;  // lost on the next ply
  if (b.moves >= cells_ - 2) return 0;  // the last two stones make no line
  if ((safe & (safe - 1)) == 0) {
    // One move: nothing to choose, nothing worth a table entry.
    return -Negamax(w, Child(b, safe), -beta, -alpha);
  }
  int lower, upper;  // the table may narrow them further
  StaticBounds(b, &lower, &upper);
  if (const std::optional<int> cut = Narrow(lower, upper, &alpha, &beta)) {
    return *cut;
  }
  MoveList moves;
  if (const std::optional<int> win = ListMoves(b, safe, &moves)) {
    return *win;
  }
  // No move wins that soon: the soonest win is two plies later.
  upper = std::min(upper, (cells_ - 3 - b.moves) / 2);
  // The table's entry, read last (its bucket was prefetched on entry).
  const bool mirrored = key != b.mover + b.mask + bottom_;
  const int first = TableBounds(key, mirrored, &lower, &upper);
  if (first >= 0) moves.Promote(safe & column_[first]);
  if (const std::optional<int> cut = Narrow(lower, upper, &alpha, &beta)) {
    return *cut;
  }
  // The children's entries are on their way (prefetched above).
  if (b.moves < etc_moves_) {
    if (const std::optional<int> cut = TranspositionCutoff(b, safe, beta)) {
      return *cut;
    }
  }
  return SearchMoves(w, b, key, mirrored, moves, alpha, beta, lower, upper);
}

int ConnectSearch::SearchMoves(Worker& w, const Bits& b, uint64_t key,
                               bool mirrored, const MoveList& moves, int alpha,
                               int beta, int lower, int upper) {
  const int work = cells_ - b.moves;
  const int alpha0 = alpha;
  // With helper threads (ABDADA): the node is marked busy while searched
  // here, and a move (but the first) whose position another thread is
  // searching waits for a second pass, by when that thread's entry may
  // settle it.
  const BusyMark mark(shared_ && work >= kDeferEmpty ? &busy_[BusySlot(key)]
                                                     : nullptr);
  uint64_t deferred = 0;  // bit i: moves[i] waits for the second pass
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < moves.size(); ++i) {
      if (pass == 1 && (deferred >> i & 1) == 0) continue;
      const Bits child = Child(b, moves[i]);
      if (pass == 0 && mark.on() && i > 0 && Busy(Key(child))) {
        deferred |= uint64_t{1} << i;
        continue;
      }
      const int score = -Negamax(w, child, -beta, -alpha);
      if (w.stopped) return 0;  // unfinished: nothing to store
      if (score >= beta) {
        const int column = absl::countr_zero(moves[i]) / (height_ + 1);
        table_.Store(key, work, score, upper,
                     1 + (mirrored ? width_ - 1 - column : column));
        return score;
      }
      alpha = std::max(alpha, score);
    }
    if (deferred == 0) break;
  }
  // Every move failed low (alpha is then an upper bound), or one raised
  // alpha inside the window (then it is exact).
  table_.Store(key, work, alpha > alpha0 ? alpha : lower,
               std::min(upper, alpha), 0);
  return alpha;
}

inline std::optional<int> ConnectSearch::ListMoves(const Bits& b, uint64_t safe,
                                                   MoveList* moves) const {
  for (int column : order_) {
    const uint64_t move = safe & column_[column];
    if (move == 0) continue;
    const uint64_t mask = b.mask | move;
    const uint64_t threats = WinningCells(b.mover | move, mask);
    // A move that leaves the opponent nothing safe wins on the next stone
    // but one: the best score still possible here.
    if (SafeMoves(mask, threats) == 0) return (cells_ - 1 - b.moves) / 2;
    moves->Add(move, MoveScore(mask, threats));
    // The child will read its entry first thing: start the read now.
    table_.Prefetch(Key(Child(b, move)));
  }
  return std::nullopt;
}

int ConnectSearch::TableBounds(uint64_t key, bool mirrored, int* lower,
                               int* upper) const {
  const std::optional<ConnectTable::Entry> e = table_.Find(key);
  if (!e.has_value()) return -1;
  *lower = std::max(*lower, e->lower);
  *upper = std::min(*upper, e->upper);
  if (e->refutation == 0) return -1;
  return mirrored ? width_ - e->refutation : e->refutation - 1;
}

std::optional<int> ConnectSearch::TranspositionCutoff(const Bits& b,
                                                      uint64_t safe,
                                                      int beta) const {
  for (uint64_t s = safe; s != 0; s &= s - 1) {
    const std::optional<ConnectTable::Entry> e =
        table_.Find(Key(Child(b, s & -s)));
    if (e.has_value() && -e->upper >= beta) return -e->upper;
  }
  return std::nullopt;
}

int ConnectSearch::MoveScore(uint64_t mask, uint64_t threats) const {
  // Threats, ties to those the opponent must not play under at once.
  const uint64_t next = (Playable(mask) << 1) & board_;
  return 2 * absl::popcount(threats) + absl::popcount(threats & next);
}

bool ConnectSearch::HasLine(uint64_t stones) const {
  for (int d = 0; d < directions_; ++d) {
    const int s = shift_[d];
    uint64_t runs = stones;  // cells starting a run of `length` stones
    int length = 1;
    while (2 * length <= k_) {
      runs &= runs >> (length * s);
      length *= 2;
    }
    if (length < k_) runs &= runs >> ((k_ - length) * s);
    if (runs != 0) return true;
  }
  return false;
}

void ConnectSearch::StaticBounds(const Bits& b, int* lower, int* upper) const {
  // The opponent cannot win before its second stone from here, nor the
  // side to move before its second.
  *lower = -(cells_ - 2 - b.moves) / 2;
  *upper = (cells_ - 1 - b.moves) / 2;
  const uint64_t empty = board_ & ~b.mask;
  const uint64_t opponent = b.mover ^ b.mask;
  // A player whose stones and every empty cell hold no line cannot win.
  if (!HasLine(b.mover | empty)) *upper = std::min(*upper, 0);
  if (!HasLine(opponent | empty)) *lower = std::max(*lower, 0);
  // Claimeven: with an even number of stones in every column (and an even
  // height), the opponent can answer every move directly above it, taking
  // every empty cell of the odd rows (counted from 0 at the bottom) and
  // leaving the even rows to the side to move. If that gives the side to
  // move no line, it cannot win; if it also gives the opponent one, it
  // loses.
  if (height_ % 2 == 0 && (Playable(b.mask) & odd_rows_) == 0 &&
      !HasLine(b.mover | (empty & ~odd_rows_))) {
    *upper = std::min(*upper, HasLine(opponent | (empty & odd_rows_)) ? -1 : 0);
  }
}

}  // namespace mnk
