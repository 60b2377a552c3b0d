#include "table/compressed_reader.h"

#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "rules/game/policy.h"
#include "table/file_io.h"

namespace mnk {

absl::StatusOr<CompressedReader> CompressedReader::Open(const TableBytes& t) {
  const uint8_t* data = t.data();
  const TableHeader header = TableHeader::Decode(data);
  const uint64_t size = header.data.compressed.sections_end;
  const uint64_t count = header.data.compressed.section_count;
  const uint8_t* directory = data + header.data.compressed.directory_offset;
  if (!t.Readable(directory, 16 * count)) {
    return absl::DataLossError(absl::StrCat(
        t.source, " is corrupt: its section directory fails its checksum"));
  }
  std::vector<absl::string_view> sections;
  uint64_t expected = kTableHeaderSize + 16 * count;
  for (uint64_t s = 0; s < count; ++s) {
    const uint64_t offset = GetLittleEndian(directory + 16 * s, 8);
    const uint64_t bytes = GetLittleEndian(directory + 16 * s + 8, 8);
    if (offset != expected || bytes > size - offset) {
      return absl::DataLossError(absl::StrCat(
          t.source, " has a corrupt section directory: section ", s, " at ",
          offset, " with ", bytes, " bytes, expected it at ", expected,
          " and within the file's ", size, " bytes"));
    }
    sections.emplace_back(reinterpret_cast<const char*>(data + offset), bytes);
    expected += bytes;
  }
  // Each section's header is read next: ask for them all at once, so that
  // a table not yet in the page cache costs one wait, not one a section.
  for (const absl::string_view section : sections) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(section.data());
    const uintptr_t page = at & ~uintptr_t{kPageBytes - 1};
    madvise(reinterpret_cast<void*>(page),
            std::min<uint64_t>(at - page + section.size(), 2 * kPageBytes),
            MADV_WILLNEED);  // advice only
  }
  if (expected != size) {
    return absl::DataLossError(absl::StrCat(
        t.source, " has a corrupt section directory: the sections end at ",
        expected, ", expected ", size));
  }
  absl::StatusOr<CompressedSections> c = CompressedSections::Open(
      t.game, t.index, t.layout.has_remoteness(), sections, &t.checks);
  if (!c.ok()) {
    return absl::DataLossError(
        absl::StrCat(t.source, " is corrupt: ", c.status().message()));
  }
  return CompressedReader(t, *std::move(c));
}

CompressedReader::StoredAt CompressedReader::Locate(const Position& p) const {
  assert(p.stones() % 2 == 0 && !t_->game.IsTerminal(p));
  StoredAt at;
  const Position c = t_->game.Canonical(p, &at.symmetry);
  at.entry = t_->index.Index(c) - t_->index.layer_offset(p.stones());
  return at;
}

int CompressedReader::Children(const Position& p, bool remoteness,
                               Child* out) const {
  int n = 0, stored = 0;
  uint64_t entries[kMaxMoves] = {};
  for (Mask s = t_->game.LegalMask(p); s != 0; s &= s - 1) {
    assert(n < kMaxMoves);
    Child& c = out[n++];
    c.cell = absl::countr_zero(s);
    c.position = Game::Play(p, c.cell);
    c.end = t_->game.Primitive(c.position);
    if (!c.end.has_value()) {
      c.at = Locate(c.position);
      entries[stored++] = c.at.entry;
    }
  }
  Prefetch(p.stones() + 1, entries, stored,
           kValueSection | (remoteness ? kRemotenessSection : 0));
  return n;
}

void CompressedReader::Prefetch(int stones, const uint64_t* entries, int n,
                                int sections) const {
  if (!has_remoteness()) sections &= ~kRemotenessSection;
  const RunReader* readers[3];
  int count = 0;
  if (sections & kValueSection) {
    readers[count++] = &sections_.value_reader(stones);
  }
  if (sections & kMoveSection) {
    readers[count++] = &sections_.move_reader(stones);
  }
  if (sections & kRemotenessSection) {
    readers[count++] = &sections_.remoteness_reader(stones);
  }
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < n; ++i) readers[k]->Prefetch(entries[i]);
  }
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < n; ++i) readers[k]->PrefetchStream(entries[i]);
  }
}

absl::StatusOr<Record> CompressedReader::Stored(const Position& p, StoredAt at,
                                                Parts parts) const {
  const Game& game = t_->game;
  const uint64_t entry = at.entry;
  const int stones = p.stones();
  const bool want_move = parts == Parts::kAll;
  if (want_move) {  // one record: overlap its sections' misses
    Prefetch(stones, &entry, 1,
             kValueSection | kMoveSection | kRemotenessSection);
  }
  const int value = sections_.value(stones, entry);
  const int move = want_move ? sections_.move(stones, entry) : 0;
  const int remoteness = parts != Parts::kValue && has_remoteness()
                             ? sections_.remoteness(stones, entry)
                             : kUnknownRemoteness;
  Record r{static_cast<Value>(value + 1), remoteness, kNoMove};
  // The stored move is the canonical image's: map it back to p (with
  // gravity the only other symmetry is the mirror).
  if (want_move && game.spec().gravity) {
    if (move >= 0 && move < game.width()) {
      const int column = at.symmetry == 0 ? move : game.width() - 1 - move;
      absl::StatusOr<int> cell = game.DropCell(p, column);
      if (cell.ok()) r.best_move = *cell;
    }
  } else if (want_move && move >= 0) {
    const Symmetry& s = game.symmetries()[at.symmetry];
    for (int cell = 0; cell < game.cells(); ++cell) {
      if (s[cell] == move) r.best_move = cell;
    }
  }
  if (value < 0 || value > 2 ||
      (want_move &&
       (r.best_move == kNoMove || !(game.LegalMask(p) >> r.best_move & 1))) ||
      (remoteness != kUnknownRemoteness &&
       (remoteness < 1 || remoteness > game.cells() - stones))) {
    return absl::DataLossError(
        absl::StrCat("the table's record for ", game.Format(p),
                     " is damaged or impossible: value ", value, ", move ",
                     move, ", remoteness ", remoteness));
  }
  return r;
}

CompressedReader::TieCandidate CompressedReader::Candidate(
    const Position& parent, int cell, int best) const {
  TieCandidate c;
  c.cell = cell;
  c.child = Game::Play(parent, cell);
  c.child_end = t_->game.Primitive(c.child);
  if (c.child_end.has_value()) return c;
  // The parent's best move is still legal: the child played another cell,
  // with gravity in another column.
  c.reply = Game::Play(c.child, best);
  c.reply_end = t_->game.Primitive(c.reply);
  if (!c.reply_end.has_value()) c.reply_at = Locate(c.reply);
  return c;
}

absl::StatusOr<bool> CompressedReader::MoveTies(const TieCandidate& c,
                                                const Record& parent) const {
  // The child (O to move, or over) and its own children: most moves that
  // do not tie are found out after a lookup or two.
  if (c.child_end.has_value()) {
    return Negate(*c.child_end) == parent.value &&
           (parent.remoteness == kUnknownRemoteness || parent.remoteness == 1);
  }
  const bool with_remoteness = parent.remoteness != kUnknownRemoteness;
  const Parts parts =
      with_remoteness ? Parts::kValueAndRemoteness : Parts::kValue;
  // The child's value is the best of Negate(grandchild) over its moves; it
  // must be Negate(parent.value), and the parent's remoteness one more
  // than the child's: among equal values the child's policy takes the
  // fastest win or the slowest loss (a draw's remoteness does not count).
  const Value want = Negate(parent.value);
  const auto refutes = [&](const Record& grandchild) {
    const Value v = Negate(grandchild.value);  // for the child's side
    if (v != want) return v > want;            // better than that for the child
    if (!with_remoteness || want == Value::kDraw) return false;
    const int plies = grandchild.remoteness + 2;  // from the parent
    return want == Value::kWin ? plies < parent.remoteness
                               : plies > parent.remoteness;
  };
  const auto record = [&](const Position& g, const std::optional<Value>& end,
                          StoredAt at) -> absl::StatusOr<Record> {
    if (end.has_value()) return Record{*end, 0, kNoMove};
    return Stored(g, at, parts);
  };
  // The reply on the parent's best move first: it refutes most moves that
  // do not tie, before the other replies are located.
  absl::StatusOr<Record> first = record(c.reply, c.reply_end, c.reply_at);
  if (!first.ok()) return first.status();
  if (refutes(*first)) return false;
  bool any_equal = false;
  int best_remoteness = want == Value::kLoss ? 0 : 1 << 20;
  Child grandchildren[kMaxMoves];
  const int n = Children(c.child, with_remoteness, grandchildren);
  for (int i = 0; i < n; ++i) {
    const Child& g = grandchildren[i];
    absl::StatusOr<Record> gr = g.cell == parent.best_move
                                    ? first  // looked up above
                                    : record(g.position, g.end, g.at);
    if (!gr.ok()) return gr.status();
    if (refutes(*gr)) return false;
    if (Negate(gr->value) != want) continue;
    any_equal = true;
    if (want == Value::kWin) {
      best_remoteness = std::min(best_remoteness, gr->remoteness + 1);
    }
    if (want == Value::kLoss) {
      best_remoteness = std::max(best_remoteness, gr->remoteness + 1);
    }
  }
  if (!any_equal) return false;
  return !with_remoteness || want == Value::kDraw ||
         best_remoteness + 1 == parent.remoteness;
}

absl::StatusOr<Record> CompressedReader::Probe(const Position& p) const {
  if (const std::optional<Value> end = t_->game.Primitive(p)) {
    return Record{*end, 0, kNoMove};
  }
  return p.stones() % 2 == 0 ? ProbeEven(p) : ProbeOdd(p);
}

absl::StatusOr<Record> CompressedReader::ProbeEven(const Position& p) const {
  const StoredAt at = Locate(p);
  absl::StatusOr<Record> r = Stored(p, at, Parts::kAll);
  if (!r.ok()) return r;
  // The stored move is the canonical image's, mapped back; among equally
  // good moves the policy takes the lowest cell of the position as given,
  // so a lower cell may tie with it here. Only a cell whose image lies
  // past the stored move can: the stored move is the lowest tie of the
  // image (so none when the position is its own canonical image).
  // The first lookup of each candidate is started before any is read, so
  // that their cache misses overlap.
  const Symmetry& image = t_->game.symmetries()[at.symmetry];
  const int stored = image[r->best_move];
  TieCandidate candidates[kMaxMoves];
  uint64_t entries[kMaxMoves];
  int n = 0, located = 0;
  for (Mask s = t_->game.LegalMask(p) & ((Mask{1} << r->best_move) - 1); s != 0;
       s &= s - 1) {
    const int cell = absl::countr_zero(s);
    if (image[cell] < stored) continue;
    candidates[n] = Candidate(p, cell, r->best_move);
    const TieCandidate& c = candidates[n++];
    if (!c.child_end.has_value() && !c.reply_end.has_value()) {
      entries[located++] = c.reply_at.entry;
    }
  }
  Prefetch(p.stones() + 2, entries, located,
           kValueSection | kRemotenessSection);
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<bool> ties = MoveTies(candidates[i], *r);
    if (!ties.ok()) return ties.status();
    if (*ties) {
      r->best_move = candidates[i].cell;
      break;
    }
  }
  return r;
}

absl::StatusOr<Record> CompressedReader::ProbeOdd(const Position& p) const {
  // Values first, one lookup a child; remoteness only for the children
  // with the best value, and not for a draw, which lasts until the board
  // is full.
  Child children[kMaxMoves];
  const int n = Children(p, /*remoteness=*/false, children);
  Value best = Value::kUnreachable;
  Mask best_children = 0;  // bit i: children[i]
  for (int i = 0; i < n; ++i) {
    const Child& c = children[i];
    Value v;
    if (c.end.has_value()) {
      v = Negate(*c.end);
    } else {
      absl::StatusOr<Record> stored = Stored(c.position, c.at, Parts::kValue);
      if (!stored.ok()) return stored.status();
      v = Negate(stored->value);
    }
    if (v > best) {
      best = v;
      best_children = 0;
    }
    if (v == best) best_children |= Mask{1} << i;
  }
  const int lowest = children[absl::countr_zero(best_children)].cell;
  if (!has_remoteness()) return Record{best, kUnknownRemoteness, lowest};
  if (best == Value::kDraw) {
    return Record{best, t_->game.cells() - p.stones(), lowest};
  }
  uint64_t entries[kMaxMoves] = {};  // of the best children not over
  int stored = 0;
  for (Mask s = best_children; s != 0; s &= s - 1) {
    const Child& c = children[absl::countr_zero(s)];
    if (!c.end.has_value()) entries[stored++] = c.at.entry;
  }
  Prefetch(p.stones() + 1, entries, stored, kRemotenessSection);
  Record r{best, 0, kNoMove};
  int best_score = -(1 << 20);
  for (Mask s = best_children; s != 0; s &= s - 1) {
    const Child& c = children[absl::countr_zero(s)];
    int after = 0;  // a finished game
    if (!c.end.has_value()) {
      absl::StatusOr<Record> stored =
          Stored(c.position, c.at, Parts::kValueAndRemoteness);
      if (!stored.ok()) return stored.status();
      after = stored->remoteness;
    }
    const int score = PolicyScore(best, after + 1);
    if (score > best_score) {
      best_score = score;
      r.remoteness = after + 1;
      r.best_move = c.cell;
    }
  }
  return r;
}

Value CompressedReader::ValueOf(const Position& p) const {
  if (const std::optional<Value> end = t_->game.Primitive(p)) return *end;
  if (p.stones() % 2 == 0) {
    absl::StatusOr<Record> r = Stored(p, Locate(p), Parts::kValue);
    return r.ok() ? r->value : Value::kUnreachable;
  }
  // Odd layers are not stored: the best of the children, which are.
  Value best = Value::kUnreachable;
  Child children[kMaxMoves];
  const int n = Children(p, /*remoteness=*/false, children);
  for (int i = 0; i < n && best != Value::kWin; ++i) {
    const Child& c = children[i];
    Value v = Value::kUnreachable;
    if (c.end.has_value()) {
      v = *c.end;
    } else if (absl::StatusOr<Record> r =
                   Stored(c.position, c.at, Parts::kValue);
               r.ok()) {
      v = r->value;
    }
    best = std::max(best, Negate(v));
  }
  return best;
}

}  // namespace mnk
