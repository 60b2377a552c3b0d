#include "table/readers.h"

#include <algorithm>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/game/policy.h"
#include "table/book_keys.h"
#include "table/file_io.h"

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

BookReader::BookReader(const TableBytes& t) : t_(&t), size_(t.reachable) {
  const TableHeader h = TableHeader::Decode(t.data());
  packed_ = (h.flags & TableHeader::kFlagPackedKeys) != 0;
  keys_ = t.data() + kTableHeaderSize;
  gaps_ = packed_ ? t.data() + h.data.book.gaps_offset : nullptr;
  records_ =
      packed_ ? t.data() + h.data.book.records_offset : keys_ + 8 * size_;
}

uint64_t BookReader::BlockKey(uint64_t b) const {
  return GetLittleEndian(keys_ + kBookDirectoryEntryBytes * b, 8);
}

bool BookReader::BlockGaps(uint64_t b, const uint8_t** begin,
                           const uint8_t** end) const {
  const uint8_t* entry = keys_ + kBookDirectoryEntryBytes * b;
  const uint64_t bytes = records_ - gaps_;
  const uint64_t from = GetLittleEndian(entry + 8, 8);
  const uint64_t to =
      b + 1 < BookBlocks(size_)
          ? GetLittleEndian(entry + kBookDirectoryEntryBytes + 8, 8)
          : bytes;
  if (from > to || to > bytes) return false;
  *begin = gaps_ + from;
  *end = gaps_ + to;
  return true;
}

uint64_t BookReader::Key(uint64_t i) const {
  if (!packed_) return GetLittleEndian(keys_ + 8 * i, 8);
  const uint64_t b = i / kBookBlock;
  uint64_t key = BlockKey(b);
  const uint8_t *p, *end;
  if (!BlockGaps(b, &p, &end)) return key;
  for (uint64_t j = 0; j < i % kBookBlock; ++j) {
    uint64_t gap;
    if (!ReadGap(&p, end, &gap)) break;
    key += gap + 1;
  }
  return key;
}

std::optional<uint64_t> BookReader::FindKey(uint64_t key) const {
  if (packed_) return FindPacked(key);
  uint64_t lo = 0, hi = size_;  // the key, if held, is in [lo, hi)
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (!t_->Readable(keys_ + 8 * mid, 8)) return std::nullopt;
    const uint64_t k = Key(mid);
    if (k == key) return mid;
    if (k < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> BookReader::FindPacked(uint64_t key) const {
  // The last block whose first key is at most `key`: in [lo, hi).
  uint64_t lo = 0, hi = BookBlocks(size_);
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (!t_->Readable(keys_ + kBookDirectoryEntryBytes * mid, 8)) {
      return std::nullopt;
    }
    if (BlockKey(mid) <= key) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  // The block's entry, the next one's (where its gaps end), its gaps.
  const uint64_t entries = lo + 1 < BookBlocks(size_) ? 2 : 1;
  const uint8_t *p, *end;
  if (size_ == 0 ||
      !t_->Readable(keys_ + kBookDirectoryEntryBytes * lo,
                    kBookDirectoryEntryBytes * entries) ||
      !BlockGaps(lo, &p, &end) || !t_->Readable(p, end - p)) {
    return std::nullopt;
  }
  uint64_t k = BlockKey(lo);
  const uint64_t keys = std::min(kBookBlock, size_ - lo * kBookBlock);
  for (uint64_t j = 0;; ++j) {
    if (k == key) return lo * kBookBlock + j;
    uint64_t gap;
    if (k > key || j + 1 == keys || !ReadGap(&p, end, &gap)) {
      return std::nullopt;
    }
    k += gap + 1;
  }
}

std::optional<BookEntry> BookReader::Find(const Position& p) const {
  const std::optional<uint64_t> i =
      FindKey(t_->index.Index(t_->game.Canonical(p)));
  if (!i.has_value() || !t_->Readable(records_ + *i, 1)) return std::nullopt;
  return BookEntry{static_cast<Value>(records_[*i] >> kRemotenessBits),
                   records_[*i] & kMaxRemoteness};
}

absl::StatusOr<Record> BookReader::Probe(const Position& p) const {
  const Game& game = t_->game;
  if (const std::optional<Value> end = game.Primitive(p)) {
    return Record{*end, 0, kNoMove};
  }
  const std::optional<BookEntry> entry = Find(p);
  if (!entry.has_value()) {
    return absl::NotFoundError(
        absl::StrCat("the book does not hold ", game.Format(p)));
  }
  BestMove best;
  for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const Position child = Game::Play(p, cell);
    std::optional<BookEntry> c;
    if (const std::optional<Value> end = game.Primitive(child)) {
      c = BookEntry{*end, 0};
    } else {
      c = Find(child);
    }
    if (!c.has_value()) {
      return absl::NotFoundError(absl::StrCat("the book holds ", game.Format(p),
                                              " but not its move ", cell));
    }
    best.Add(cell, c->value, c->remoteness);
  }
  return Record{entry->value, entry->remoteness, best.cell()};
}

Value BookReader::ValueOf(const Position& p) const {
  if (const std::optional<Value> end = t_->game.Primitive(p)) return *end;
  const std::optional<BookEntry> entry = Find(p);
  return entry.has_value() ? entry->value : Value::kUnreachable;
}

}  // namespace mnk
