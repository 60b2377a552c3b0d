#include "table/readers.h"

#include <algorithm>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mnk {

absl::Status TableBytes::DamagedError(int64_t page) const {
  if (page < 0) page = checks.damaged_page();
  return absl::DataLossError(absl::StrFormat(
      "%s is corrupt: page %d (bytes %d to %d) fails its checksum; verify "
      "checks the whole file",
      source, page, page * kPageBytes,
      std::min<uint64_t>((page + 1) * kPageBytes, size) - 1));
}

FullReader::FullReader(const TableBytes& t)
    : t_(&t),
      view_{t.index.size(), t.data() + kTableHeaderSize,
            t.data() + kTableHeaderSize +
                RecordView::ValueBytes(t.index.size())} {}

bool FullReader::Readable(uint64_t i) const {
  if (t_->checks.all_checked()) return true;
  return t_->Readable(view_.values + (i >> 2), 1) &&
         t_->Readable(view_.details + 2 * i, 2);
}

absl::StatusOr<Record> FullReader::Probe(const Position& p) const {
  const Game& game = t_->game;
  const uint64_t i = t_->index.Index(p);
  if (!Readable(i)) return t_->DamagedError();
  const Record r = view_.Get(i);
  if (r.value == Value::kUnreachable) {
    return absl::NotFoundError(
        absl::StrCat("the table marks ", game.Format(p), " as unreachable"));
  }
  const bool terminal = game.IsTerminal(p);
  const bool move_ok = terminal ? r.best_move == kNoMove
                                : r.best_move < game.cells() &&
                                      (game.LegalMask(p) >> r.best_move & 1);
  if (!move_ok || r.remoteness > game.cells() - p.stones() ||
      (terminal != (r.remoteness == 0))) {
    return absl::DataLossError(absl::StrCat(
        "the table's record for ", game.Format(p), " is impossible: ",
        ValueName(r.value), " in ", r.remoteness, ", best move ", r.best_move));
  }
  return r;
}

Value FullReader::ValueOf(const Position& p) const {
  if (const std::optional<Value> end = t_->game.Primitive(p)) return *end;
  const uint64_t i = t_->index.Index(p);
  return Readable(i) ? view_.GetValue(i) : Value::kUnreachable;
}

absl::StatusOr<Record> CompactReader::Probe(const Position& p) const {
  const Game& game = t_->game;
  Record r{ValueOf(p), kUnknownRemoteness, kNoMove};
  for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    if (Negate(ValueOf(Game::Play(p, cell))) == r.value) {
      r.best_move = cell;
      break;
    }
  }
  if (r.value == Value::kUnreachable ||
      (r.best_move == kNoMove) != game.IsTerminal(p)) {
    return absl::DataLossError(absl::StrCat(
        "the table's values around ", game.Format(p),
        " are impossible: no move keeps its value, ", ValueName(r.value)));
  }
  return r;
}

Value CompactReader::ValueOf(const Position& p) const {
  const Game& game = t_->game;
  if (const std::optional<Value> end = game.Primitive(p)) return *end;
  if (p.stones() % 2 == 0) return Stored(t_->index.Index(p), p.stones());
  // Odd layers are not stored: the best of the children, which are.
  Value best = Value::kUnreachable;
  for (Mask s = game.LegalMask(p); s != 0 && best != Value::kWin; s &= s - 1) {
    best = std::max(best, Negate(ValueOf(Game::Play(p, absl::countr_zero(s)))));
  }
  return best;
}

}  // namespace mnk
