#include "verify/verify.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "base/parallel/parallel.h"
#include "rules/game/policy.h"
#include "rules/index/layer_walker.h"
#include "verify/verify_rules.h"

namespace mnk {
namespace {

using verify_internal::BestChild;
using verify_internal::PackedRemoteness;
using verify_internal::PackedValue;
using verify_internal::StoredProblem;

constexpr uint64_t kChunk = 1 << 16;

// One bit an index: the positions reachable from the empty board by the
// rules, found layer by layer.
std::vector<uint64_t> MarkReachable(const Game& game,
                                    const PositionIndex& index, int threads) {
  std::vector<uint64_t> reached((index.size() + 63) / 64, 0);
  reached[0] = 1;  // the empty board
  for (int stones = 0; stones < game.cells(); ++stones) {
    // Positions in index order, children found in O(1), in chunks of
    // shapes of about kChunk positions.
    const uint64_t chunk =
        std::max<uint64_t>(1, kChunk / index.patterns(stones));
    ParallelChunks(
        index.shapes(stones), chunk, threads,
        [&](uint64_t begin, uint64_t end, int) {
          LayerWalker walker(game, index, stones);
          walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
            // Words at a layer's edge are shared with the layer being marked.
            if ((__atomic_load_n(&reached[i >> 6], __ATOMIC_RELAXED) >>
                     (i & 63) &
                 1) == 0 ||
                game.IsTerminal(p)) {
              return;
            }
            walker.PrepareChildren();
            for (Mask s = walker.legal(); s != 0; s &= s - 1) {
              const uint64_t c = walker.Child(absl::countr_zero(s));
              __atomic_fetch_or(&reached[c >> 6], uint64_t{1} << (c & 63),
                                __ATOMIC_RELAXED);
            }
          });
        });
  }
  return reached;
}

// The record the rules and the children call for, or a description of a
// child the table lacks. From a compact table only the value is derived.
struct Expected {
  Record record;
  std::string problem;
};

// `child(cell)`: the index of p's child after a move to `cell` (a full
// table's records are read by index).
template <typename ChildIndex>
Expected Derive(const Table& table, const Position& p,
                const ChildIndex& child_index) {
  const Game& game = table.game();
  const bool full = table.layout() == Layout::kFull;
  const int none = full ? 0 : kUnknownRemoteness;
  if (const std::optional<Value> end = game.Primitive(p)) {
    return {{*end, none, kNoMove}, ""};
  }
  if (!full) {
    // Values only: the best of the children's derived values.
    Value best = Value::kUnreachable;
    for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
      best = std::max(
          best, Negate(table.ValueOf(Game::Play(p, absl::countr_zero(s)))));
    }
    return {{best, kUnknownRemoteness, kNoMove}, ""};
  }
  const RecordView view = table.view();
  BestMove best;
  for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const Record child = view.Get(child_index(cell));
    if (child.value == Value::kUnreachable) {
      return {{},
              absl::StrCat("its child after ", cell, " is marked unreachable")};
    }
    best.Add(cell, child.value, child.remoteness);
  }
  return {Record{best.value(), best.remoteness(), best.cell()}, ""};
}

// Errors found by one thread in a chunk, merged into the report under a
// lock.
struct Findings {
  VerifyReport report;
  std::vector<std::string> errors;
  // The entries of its layer the chunk covers, [first, first + entries),
  // and a compressed layer's move symbols for them once decoded.
  uint64_t first = 0, entries = 0;
  std::vector<uint8_t> moves;
  void Add(uint64_t i, const Game& game, const Position& p,
           const std::string& problem) {
    ++report.errors;
    if (errors.size() < 10) {
      errors.push_back(
          absl::StrCat("index ", i, " ", game.Format(p), ": ", problem));
    }
  }
  void MergeInto(VerifyReport& total, std::mutex& mu) {
    std::lock_guard<std::mutex> lock(mu);
    total.indices += report.indices;
    total.reachable += report.reachable;
    total.checked += report.checked;
    total.terminal += report.terminal;
    total.errors += report.errors;
    for (std::string& e : errors) {
      if (total.first_errors.size() < 10) {
        total.first_errors.push_back(std::move(e));
      }
    }
  }
};

// Runs visit(findings, walker, index, position) over every position of layer
// `stones`, in chunks of shapes shared out among the threads.
template <typename Visit>
void ForLayer(const Table& table, int stones, int threads, VerifyReport& total,
              const std::function<void(uint64_t)>& progress, Visit&& visit) {
  const PositionIndex& index = table.index();
  const uint64_t patterns = index.patterns(stones);
  const uint64_t chunk = std::max<uint64_t>(1, kChunk / patterns);
  std::mutex mu;
  ParallelChunks(index.shapes(stones), chunk, threads,
                 [&](uint64_t begin, uint64_t end, int) {
                   Findings mine;
                   mine.first = begin * patterns;
                   mine.entries = (end - begin) * patterns;
                   LayerWalker walker(table.game(), index, stones);
                   walker.Walk(begin, end, [&](uint64_t i, const Position& p) {
                     visit(mine, walker, i, p);
                   });
                   if (progress) progress((end - begin) * patterns);
                   mine.MergeInto(total, mu);
                 });
}

// 0 when `p` is not the least of its symmetric images (Game::Canonical's
// order: x, then o); else the number of its distinct images, so that the
// canonical positions alone count every position. Most positions are not
// canonical, and most of those show it at the first image that differs.
int OrbitIfCanonical(const Game& game, const Position& p) {
  const int n = static_cast<int>(game.symmetries().size());
  int fixed = 1;  // the symmetries that keep p
  for (int s = 1; s < n; ++s) {
    const Mask x = game.TransformMask(p.x, s);
    if (x > p.x) continue;
    if (x < p.x) return 0;
    const Mask o = game.TransformMask(p.o, s);
    if (o < p.o) return 0;
    fixed += o == p.o;
  }
  return n / fixed;
}

// A compressed table, layer by layer from the last: the value and
// remoteness of every stored-canonical position of odd layer s + 1 derived
// (a byte an entry) from even layer s + 2's stored records (decoded into
// memory, a byte an entry), which are then let go; then layer s's stored
// records decoded and checked against their children, its moves a chunk at
// a time. Memory: a byte an entry of two consecutive layers (6,4,4: 1.8e10
// bytes at layers 16 and 17); work: one pass over each layer, in which only
// canonical positions are looked at closely (the reachable count adds up
// their images). reachable_orbit(i, p): the size of p's symmetry class
// when p is reachable and canonical; -1 when p is not canonical (and may be
// reachable); else 0.
template <typename ReachableOrbit>
class CompressedVerifier {
 public:
  CompressedVerifier(const Table& table, int threads,
                     const ReachableOrbit& reachable_orbit,
                     const std::function<void(uint64_t)>& progress)
      : table_(table),
        game_(table.game()),
        index_(table.index()),
        sections_(*table.compressed()),
        has_remoteness_(table.has_remoteness()),
        threads_(threads),
        reachable_orbit_(reachable_orbit),
        progress_(progress) {}

  VerifyReport Run() {
    const int top = game_.cells() - game_.cells() % 2;
    for (int stones = top; stones >= 0; stones -= 2) {
      if (stones < game_.cells()) DeriveOddLayer(stones + 1);
      above_.reset();
      if (!DecodeLayer(stones) || !CheckLayer(stones)) {
        ++total_.errors;
        total_.first_errors.push_back(absl::StrCat(
            "layer ", stones, ": its sections are damaged",
            table_.CheckAll().ok() ? "" : " (a page fails its checksum)"));
        break;
      }
      above_ = std::move(values_);
    }
    return total_;
  }

 private:
  // The entry of a position's canonical image in its layer.
  uint64_t Entry(const Position& p) const {
    return index_.Index(game_.Canonical(p)) - index_.layer_offset(p.stones());
  }

  // Layer `stones`' stored values and remoteness into values_ (packed), in
  // chunks of whole blocks. False when a section is damaged.
  bool DecodeLayer(int stones) {
    const uint64_t size = index_.layer_size(stones);
    // Not zeroed: Decode sets every entry.
    values_.reset(new uint8_t[size]);
    std::atomic<bool> decoded{true};
    ParallelChunks(size, kChunk, threads_, [&](uint64_t b, uint64_t e, int) {
      std::vector<uint8_t> remoteness(has_remoteness_ ? e - b : 0);
      if (!sections_.value_reader(stones).Decode(b, e, &values_[b]) ||
          (has_remoteness_ && !sections_.remoteness_reader(stones).Decode(
                                  b, e, remoteness.data()))) {
        decoded = false;
      }
      for (uint64_t j = b; j < e; ++j) {
        values_[j] =
            RecordArrays::Details(static_cast<Value>(values_[j] + 1),
                                  has_remoteness_ ? remoteness[j - b] : 0);
      }
    });
    return decoded;
  }

  // Odd layer `stones` from the layer above (above_), into odd_.
  void DeriveOddLayer(int stones) {
    const uint64_t offset = index_.layer_offset(stones);
    std::vector<uint8_t>().swap(odd_);  // layer s + 3's: let go first
    odd_.assign(index_.layer_size(stones), 0);
    const uint64_t above_offset =
        stones + 1 <= game_.cells() ? index_.layer_offset(stones + 1) : 0;
    ForLayer(table_, stones, threads_, total_, progress_,
             [&](Findings& mine, LayerWalker& walker, uint64_t i,
                 const Position& p) {
               ++mine.report.indices;
               const int orbit = reachable_orbit_(i, p);
               if (orbit <= 0) return;
               mine.report.reachable += orbit;
               if (game_.IsTerminal(p)) return;
               // above_ holds every position of its layer (the canonical
               // ones' records copied to the others): children are found
               // in O(1).
               walker.PrepareChildren();
               int move = kNoMove;
               odd_[i - offset] = BestChild(
                   game_, has_remoteness_, p,
                   [&](int cell, const Position&) {
                     return above_[walker.Child(cell) - above_offset];
                   },
                   &move);
               if (odd_[i - offset] == 0) {
                 mine.Add(i, game_, p, "a child has no stored record");
               }
             });
  }

  // Every stored record of even layer `stones` against its children in
  // odd_, each chunk's move symbols decoded as it starts. False when the
  // move section is damaged.
  bool CheckLayer(int stones) {
    const uint64_t offset = index_.layer_offset(stones);
    std::atomic<bool> decoded{true};
    ForLayer(
        table_, stones, threads_, total_, progress_,
        [&](Findings& mine, LayerWalker&, uint64_t i, const Position& p) {
          ++mine.report.indices;
          const uint64_t e = i - offset;
          const int orbit = reachable_orbit_(i, p);
          if (orbit < 0) {
            // Not canonical: its image's record, for the odd layer
            // below (the image's entry is never written here).
            values_[e] = values_[Entry(p)];
            return;
          }
          if (orbit == 0) return;
          mine.report.reachable += orbit;
          if (game_.IsTerminal(p)) return;
          ++mine.report.checked;
          if (mine.moves.empty()) {
            mine.moves.resize(mine.entries);
            if (!sections_.move_reader(stones).Decode(
                    mine.first, mine.first + mine.entries, mine.moves.data())) {
              decoded = false;
            }
          }
          const std::string problem = StoredProblem(
              game_, has_remoteness_, p, values_[e], mine.moves[e - mine.first],
              [&](int, const Position& c) { return odd_[Entry(c)]; });
          if (!problem.empty()) mine.Add(i, game_, p, problem);
        });
    return decoded;
  }

  const Table& table_;
  const Game& game_;
  const PositionIndex& index_;
  const CompressedSections& sections_;
  const bool has_remoteness_;
  const int threads_;
  const ReachableOrbit& reachable_orbit_;
  const std::function<void(uint64_t)>& progress_;
  VerifyReport total_;
  // Layer s + 2's stored value and remoteness, packed (empty past the end,
  // and once odd layer s + 1's records are derived from it); layer s's.
  std::unique_ptr<uint8_t[]> above_, values_;
  std::vector<uint8_t> odd_;
};

std::string Describe(const Record& r) {
  std::string text(ValueName(r.value));
  if (r.remoteness != kUnknownRemoteness) {
    absl::StrAppend(&text, " in ", r.remoteness, ", move ",
                    r.best_move == kNoMove ? std::string("none")
                                           : absl::StrCat(r.best_move));
  }
  return text;
}

// What is wrong with the stored record of index `i` (position `p`, `live`
// when reachable) of a full or compact table, "" if nothing; a checked
// record is counted in `report`. `child_index(cell)`: the index of p's
// child after a move to `cell`.
template <typename ChildIndex>
std::string IndexedProblem(const Table& table, uint64_t i, const Position& p,
                           bool live, VerifyReport& report,
                           const ChildIndex& child_index) {
  const bool full = table.layout() == Layout::kFull;
  const Record stored = full ? table.view().Get(i)
                             : Record{table.CompactValue(i, p.stones()),
                                      kUnknownRemoteness, kNoMove};
  // A full table holds each value twice: the 2-bit section that value-only
  // probes read must agree with the record.
  const Value section = full ? table.view().GetValue(i) : stored.value;
  if (section != stored.value) {
    return absl::StrCat("the value section says ", ValueName(section),
                        ", the record ", ValueName(stored.value));
  }
  if (!live) {
    // Unreachable: a full table marks it so; a compact one holds 0 (loss)
    // there.
    return stored.value == (full ? Value::kUnreachable : Value::kLoss)
               ? ""
               : "an unreachable position has a record";
  }
  if (full && stored.value == Value::kUnreachable) {
    return "a reachable position is marked unreachable";
  }
  ++report.checked;
  report.terminal += table.game().IsTerminal(p);
  const Expected expected = Derive(table, p, child_index);
  if (!expected.problem.empty()) return expected.problem;
  if (!(expected.record == stored)) {
    return absl::StrCat("stored ", Describe(stored), ", its children give ",
                        Describe(expected.record));
  }
  return "";
}

// What is wrong with a book's entry i (a position and its record byte),
// "" if nothing. Entries whose moves the book holds too are checked
// against them (counted in `report`).
std::string BookProblem(const Table& table, const BookReader& book, uint64_t i,
                        const Position& p, VerifyReport& report) {
  const Game& game = table.game();
  if (game.Canonical(p) != p) return "the key is not of a canonical image";
  if (!game.IsLegal(p) || !game.IsReachable(p)) {
    return "no game reaches the position";
  }
  if (game.IsTerminal(p)) return "the game is over there";
  const uint8_t byte = book.RecordByte(i);
  const Value value = static_cast<Value>(byte >> kRemotenessBits);
  const int remoteness = byte & kMaxRemoteness;
  const int left = game.cells() - p.stones();
  const bool plausible = game.PossibleOutcome(value, remoteness, left);
  if (!plausible) {
    return absl::StrCat("impossible record: ", ValueName(value), " in ",
                        remoteness, " with ", left, " empty cells");
  }
  // With every move's outcome at hand, the record must be the best of them.
  absl::StatusOr<Record> derived = book.Probe(p);
  if (!derived.ok() && table.complete()) {
    return "a complete table lacks one of its moves";
  }
  if (!derived.ok()) return "";  // a leaf: its moves are not in the book
  ++report.checked;
  BestMove moves;
  for (int cell : game.LegalMoves(p)) {
    const Position child = Game::Play(p, cell);
    const std::optional<Value> end = game.Primitive(child);
    const std::optional<BookEntry> c =
        end ? BookEntry{*end, 0} : book.Find(child);
    moves.Add(cell, c->value, c->remoteness);
  }
  const Record best{moves.value(), moves.remoteness(), moves.cell()};
  if (best.value != value || best.remoteness != remoteness) {
    return absl::StrCat("stored ", ValueName(value), " in ", remoteness,
                        ", its moves give ", Describe(best));
  }
  return "";
}

// Every entry of a book: keys ascending and of canonical images of
// reachable positions in play, records possible, and each entry whose
// moves are held the best of them.
VerifyReport VerifyBook(const Table& table,
                        const std::function<void(uint64_t)>& progress) {
  const BookReader& book = *table.book();
  Findings mine;
  uint64_t previous = 0;
  for (uint64_t i = 0; i < book.size(); ++i) {
    if (progress && i % (1 << 16) == 0 && i > 0) progress(1 << 16);
    ++mine.report.indices;
    const uint64_t key = book.Key(i);
    if (key >= table.index().size() || (i > 0 && key <= previous)) {
      ++mine.report.errors;
      if (mine.errors.size() < 10) {
        mine.errors.push_back(absl::StrCat(
            "entry ", i, ": key ", key, " is not above the one before (",
            previous, ") and below ", table.index().size()));
      }
      previous = key;
      continue;
    }
    previous = key;
    ++mine.report.reachable;
    const Position p = table.index().At(key);
    const std::string problem = BookProblem(table, book, i, p, mine.report);
    if (!problem.empty()) mine.Add(key, table.game(), p, problem);
  }
  VerifyReport total;
  std::mutex mu;
  mine.MergeInto(total, mu);
  return total;
}

}  // namespace

VerifyReport VerifyRecords(const Table& table, int threads,
                           const std::function<void(uint64_t)>& progress) {
  const Game& game = table.game();
  const PositionIndex& index = table.index();
  if (table.layout() == Layout::kBook) return VerifyBook(table, progress);
  const bool full = table.layout() == Layout::kFull;
  // Without gravity the rules decide reachability locally; with gravity it
  // takes a forward pass.
  const std::vector<uint64_t> reached =
      game.reachability_is_local() ? std::vector<uint64_t>()
                                   : MarkReachable(game, index, threads);
  auto marked = [&](uint64_t i) {
    return (reached[i >> 6] >> (i & 63) & 1) != 0;
  };
  auto reachable = [&](uint64_t i, const Position& p) {
    return reached.empty() ? game.IsLegal(p) : marked(i);
  };
  if (table.layout() == Layout::kCompressed) {
    // The size of a reachable canonical position's symmetry class, else 0:
    // the cheaper test first.
    const auto reachable_orbit = [&](uint64_t i, const Position& p) {
      if (!reached.empty() && !marked(i)) return 0;
      const int orbit = OrbitIfCanonical(game, p);
      if (orbit == 0) return -1;
      return !reached.empty() || game.IsLegal(p) ? orbit : 0;
    };
    return CompressedVerifier<decltype(reachable_orbit)>(
               table, threads, reachable_orbit, progress)
        .Run();
  }
  VerifyReport total;
  for (int stones = 0; stones <= game.cells(); ++stones) {
    ForLayer(table, stones, threads, total, progress,
             [&](Findings& mine, LayerWalker& walker, uint64_t i,
                 const Position& p) {
               ++mine.report.indices;
               const bool live = reachable(i, p);
               mine.report.reachable += live;
               // A compact table stores even layers only.
               if (!full && stones % 2 == 1) return;
               bool prepared = false;  // children found in O(1)
               const std::string problem =
                   IndexedProblem(table, i, p, live, mine.report, [&](int c) {
                     if (!prepared) walker.PrepareChildren();
                     prepared = true;
                     return walker.Child(c);
                   });
               if (!problem.empty()) mine.Add(i, game, p, problem);
             });
  }
  return total;
}

}  // namespace mnk
