// VerifyInWorkDir (verify.h): a compressed table checked a tier at a time,
// for boards whose layers do not fit in memory.
//
// A tier is `tier_indices` consecutive entries of one layer (the last one
// of a layer shorter). The work dir holds, by name (store/work_dir.h):
//
//   R<L>-T<t>  reachable bits of tier t of layer L (bit j % 64 of word
//              j / 64 for the tier's entry j), from the forward pass
//   F          the forward pass is done
//   O<L>-T<t>  odd layer L's records, derived from their children: a head
//              (reachable, 0, errors: 3 x u64) and a packed value and
//              remoteness a byte an entry (0: not reachable, or over)
//   E<L>-T<t>  even layer L's records, derived from their children the
//              same way, the stored records of canonical positions in play
//              checked against them: the head (reachable, checked, errors)
//              and a byte an entry
//   C<L>       even layer L and odd layer L + 1 done: reachable, checked,
//              errors (3 x u64) and the first errors found, one a line
//
// Even layers from the last: (1) odd layer L + 1 derived from the E tiers
// of layer L + 2 (the full board's positions are all over: the rules
// decide); (2) layer L derived from the O tiers and its stored records
// decoded from the table and checked; (3) C<L> written and the tiers no
// step reads again removed. Every position in play is derived, not only
// the canonical ones the table stores, so that no step reads a symmetric
// image: a tier reads only the tiers holding its children
// (TierStore::ChildTiers; on a free board the images of a shape lie all
// over its layer). A resumed verify takes every tier and layer found whole
// and makes the rest again; a layer's scratch tiers lost after it was done
// are not needed again.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/parallel/parallel.h"
#include "rules/game/printable.h"
#include "rules/index/layer_walker.h"
#include "store/tier_store.h"
#include "store/work_dir.h"
#include "table/file_io.h"
#include "table/sha256.h"
#include "verify/verify.h"
#include "verify/verify_rules.h"

namespace mnk {
namespace {

// A layer whose sections do not decode: an error of the table, reported as
// VerifyRecords reports it (VerifyInWorkDir turns it into the report's
// error), not a failure of the work dir.
constexpr absl::string_view kTableDamaged = "mnk/table-damaged";

absl::Status TableDamage(int stones) {
  absl::Status status = absl::DataLossError(
      absl::StrCat("layer ", stones, ": its sections are damaged"));
  status.SetPayload(kTableDamaged, absl::Cord());
  return status;
}

using verify_internal::BestChild;
using verify_internal::StoredProblem;

constexpr uint64_t kChunk = 1 << 16;
constexpr size_t kHeadBytes = 24;
constexpr size_t kMaxErrors = 10;

// Counts of a tier or layer (the head of O and P tiers, the start of C).
struct Counts {
  uint64_t reachable = 0, checked = 0, errors = 0;
  std::vector<std::string> first_errors;

  void Add(const Counts& c) {
    reachable += c.reachable;
    checked += c.checked;
    errors += c.errors;
    for (const std::string& e : c.first_errors) {
      if (first_errors.size() < kMaxErrors) first_errors.push_back(e);
    }
  }
  std::string Head() const {
    std::string head(kHeadBytes, '\0');
    PutLittleEndian(&head[0], reachable, 8);
    PutLittleEndian(&head[8], checked, 8);
    PutLittleEndian(&head[16], errors, 8);
    return head;
  }
  static Counts FromHead(absl::string_view head) {
    Counts c;
    c.reachable = GetLittleEndian(head.data(), 8);
    c.checked = GetLittleEndian(head.data() + 8, 8);
    c.errors = GetLittleEndian(head.data() + 16, 8);
    return c;
  }
};

// Errors found by one thread in a chunk, merged under a lock.
struct Found {
  Counts counts;
  void Add(uint64_t i, const Game& game, const Position& p,
           const std::string& problem) {
    ++counts.errors;
    if (counts.first_errors.size() < kMaxErrors) {
      counts.first_errors.push_back(
          absl::StrCat("index ", i, " ", game.Format(p), ": ", problem));
    }
  }
};

class TieredVerifier {
 public:
  TieredVerifier(const Table& table, WorkDir dir,
                 const TieredVerifyOptions& options,
                 const std::function<void(uint64_t)>& progress,
                 const std::function<void(uint64_t)>& found_done)
      : game_(table.game()),
        index_(table.index()),
        sections_(*table.compressed()),
        has_remoteness_(table.has_remoteness()),
        store_(game_, index_, options.tier_indices, std::move(dir)),
        threads_(options.threads),
        progress_(progress),
        found_done_(found_done) {}

  absl::StatusOr<VerifyReport> Run() {
    if (absl::Status s = Forward(); !s.ok()) return s;
    VerifyReport report;
    report.indices = index_.size();
    Counts total;
    const int top = game_.cells() - game_.cells() % 2;
    for (int stones = top; stones >= 0; stones -= 2) {
      absl::StatusOr<Counts> layer = EvenLayer(stones);
      if (!layer.ok()) return layer.status();
      total.Add(*layer);
    }
    report.reachable = total.reachable;
    report.checked = total.checked;
    report.errors = total.errors;
    report.first_errors = total.first_errors;
    return report;
  }

 private:
  int Tiers(int stones) const { return store_.Tiers(stones); }
  TierRange Tier(int stones, int t) const { return store_.Tier(stones, t); }
  static std::string Name(char kind, int stones, int t) {
    return TierStore::Name(kind, stones, t);
  }
  bool Done(const std::string& name) const {
    return store_.dir().Check(name).ok();
  }

  // Holds the tiers of `kind` and layer stones + 1 that hold the children
  // of tier `r` of layer `stones` in children_.
  absl::Status HoldChildren(char kind, int stones, const TierRange& r) {
    return children_.Hold(
        store_, kind, stones + 1, store_.ChildTiers(stones, r), kHeadBytes,
        [&](int t) { return kHeadBytes + Tier(stones + 1, t).count; },
        "verify");
  }

  // Tier t of layer `stones`' reachable bits into bits_.
  absl::Status LoadBits(int stones, int t) {
    absl::StatusOr<std::vector<uint64_t>> bits =
        store_.GetReach(stones, t, "verify");
    if (!bits.ok()) return bits.status();
    bits_ = *std::move(bits);
    return absl::OkStatus();
  }
  uint64_t Popcount() const {
    uint64_t n = 0;
    for (uint64_t w : bits_) n += absl::popcount(w);
    return n;
  }

  // Tier `r` done, for the progress line: the forward pass and steps 1
  // and 2 count, twice the entries in all.
  void Advance(const TierRange& r) const {
    if (progress_) progress_(r.count);
  }
  // The same for `entries` found done in the work dir (resuming).
  void FoundDone(uint64_t entries) const {
    if (found_done_) found_done_(entries);
  }

  // Calls visit(found, walker, entry, position) for every reachable
  // position of tier `r` of layer `stones` (bits_), in chunks shared out
  // among the threads; returns what they found.
  template <typename Visit>
  Counts ForTier(int stones, const TierRange& r, Visit&& visit) {
    Counts total;
    std::mutex mu;
    const uint64_t offset = index_.layer_offset(stones);
    ParallelChunks(r.count, kChunk, threads_, [&](uint64_t b, uint64_t e, int) {
      Found mine;
      LayerWalker walker(game_, index_, stones);
      walker.WalkReached(r.begin + b, r.begin + e, bits_.data(), r.begin >> 6,
                         [&](uint64_t i, const Position& p) {
                           visit(mine, walker, i - offset, p);
                         });
      std::lock_guard<std::mutex> lock(mu);
      total.Add(mine.counts);
    });
    return total;
  }

  // The forward pass: each layer's reachable bits from the layer before,
  // the next layer held whole (one bit an entry).
  absl::Status Forward() {
    if (Done("F")) {
      for (int stones = 0; stones < game_.cells(); ++stones)
        FoundDone(index_.layer_size(stones));
      return absl::OkStatus();
    }
    std::vector<uint64_t> next;
    for (int stones = 0; stones < game_.cells(); ++stones) {
      const int below = stones + 1;
      bool done = true;
      for (int t = 0; done && t < Tiers(below); ++t) {
        done = Done(Name('R', below, t));
      }
      if (done) {
        FoundDone(index_.layer_size(stones));
        continue;
      }
      next.assign((index_.layer_size(below) + 63) / 64, 0);
      const uint64_t child_offset = index_.layer_offset(below);
      for (int t = 0; t < Tiers(stones); ++t) {
        if (absl::Status s = LoadBits(stones, t); !s.ok()) return s;
        ForTier(stones, Tier(stones, t),
                [&](Found&, LayerWalker& walker, uint64_t, const Position& p) {
                  if (game_.IsTerminal(p)) return;
                  walker.PrepareChildren();
                  for (Mask s = walker.legal(); s != 0; s &= s - 1) {
                    const uint64_t c =
                        walker.Child(absl::countr_zero(s)) - child_offset;
                    __atomic_fetch_or(&next[c >> 6], uint64_t{1} << (c & 63),
                                      __ATOMIC_RELAXED);
                  }
                });
        Advance(Tier(stones, t));
      }
      if (absl::Status s = store_.PutReach(below, next, threads_); !s.ok()) {
        return s;
      }
    }
    std::vector<uint64_t>().swap(next);
    return store_.dir().Put("F", "");
  }

  // Even layer `stones` and the odd layer after it, checked (steps 1-3 of
  // the file comment), or their counts from C<stones>.
  absl::StatusOr<Counts> EvenLayer(int stones) {
    const std::string done = TierStore::LayerName('C', stones);
    absl::StatusOr<std::string> c = store_.dir().Get(done);
    if (!c.ok()) {
      if (stones < game_.cells()) {
        if (absl::Status s = DeriveOdd(stones + 1); !s.ok()) return s;
      }
      // Each step's tiers are let go of before the next step loads its
      // own (near 6x6's full board, 13.6 GB of child tiers).
      children_.Clear();
      if (absl::Status s = CheckEven(stones); !s.ok()) return s;
      children_.Clear();
      absl::StatusOr<Counts> counts = LayerCounts(stones);
      if (!counts.ok()) return counts.status();
      std::string bytes = counts->Head();
      for (const std::string& e : counts->first_errors) {
        absl::StrAppend(&bytes, e, "\n");
      }
      if (absl::Status s = store_.dir().Put(done, bytes); !s.ok()) return s;
      c = std::move(bytes);
    } else if (c->size() < kHeadBytes) {
      return absl::DataLossError(
          absl::StrCat(done, " in ", store_.dir().path(), " is too short"));
    } else {
      FoundDone(index_.layer_size(stones));
      if (stones < game_.cells()) FoundDone(index_.layer_size(stones + 1));
    }
    if (absl::Status s = RemoveUsed(stones); !s.ok()) return s;
    Counts counts = Counts::FromHead(*c);
    for (absl::string_view line :
         absl::StrSplit(absl::string_view(*c).substr(kHeadBytes), '\n',
                        absl::SkipEmpty())) {
      counts.first_errors.emplace_back(line);
    }
    return counts;
  }

  // Step 1: odd layer `stones`' records from their children.
  absl::Status DeriveOdd(int stones) {
    const int below = stones + 1;
    const bool stored = below < game_.cells();  // else every child is over
    const uint64_t child_offset =
        below <= game_.cells() ? index_.layer_offset(below) : 0;
    for (int t = 0; t < Tiers(stones); ++t) {
      const std::string name = Name('O', stones, t);
      const TierRange r = Tier(stones, t);
      if (Done(name)) {
        FoundDone(r.count);
        continue;
      }
      if (absl::Status s = LoadBits(stones, t); !s.ok()) return s;
      if (stored) {
        if (absl::Status s = HoldChildren('E', stones, r); !s.ok()) {
          return s;
        }
      }
      std::string out(kHeadBytes + r.count, '\0');
      uint8_t* records = reinterpret_cast<uint8_t*>(&out[kHeadBytes]);
      Counts counts = ForTier(
          stones, r,
          [&](Found& mine, LayerWalker& walker, uint64_t e, const Position& p) {
            if (game_.IsTerminal(p)) return;
            walker.PrepareChildren();
            int move = kNoMove;
            const uint8_t best = BestChild(
                game_, has_remoteness_, p,
                [&](int cell, const Position&) -> uint8_t {
                  return stored
                             ? children_.At(walker.Child(cell) - child_offset)
                             : 0;
                },
                &move);
            if (best == 0) {
              mine.Add(e + index_.layer_offset(stones), game_, p,
                       "a child has no derived record");
            }
            records[e - r.begin] = best;
          });
      counts.reachable = Popcount();
      out.replace(0, kHeadBytes, counts.Head());
      if (absl::Status s = store_.dir().Put(name, out); !s.ok()) return s;
      Keep(counts.first_errors);
      Advance(r);
    }
    return absl::OkStatus();
  }

  // Step 2: even layer `stones`' records derived from their children, and
  // its stored records checked against them.
  absl::Status CheckEven(int stones) {
    const int below = stones + 1;
    const bool has_children = below <= game_.cells();
    const uint64_t child_offset = has_children ? index_.layer_offset(below) : 0;
    for (int t = 0; t < Tiers(stones); ++t) {
      const std::string name = Name('E', stones, t);
      const TierRange r = Tier(stones, t);
      if (Done(name)) {
        FoundDone(r.count);
        continue;
      }
      if (absl::Status s = LoadBits(stones, t); !s.ok()) return s;
      if (has_children) {
        if (absl::Status s = HoldChildren('O', stones, r); !s.ok()) {
          return s;
        }
      }
      if (absl::Status s = DecodeStored(stones, r); !s.ok()) return s;
      std::string out(kHeadBytes + r.count, '\0');
      uint8_t* records = reinterpret_cast<uint8_t*>(&out[kHeadBytes]);
      std::atomic<uint64_t> checked{0};
      Counts counts = ForTier(
          stones, r,
          [&](Found& mine, LayerWalker& walker, uint64_t e, const Position& p) {
            if (game_.IsTerminal(p)) return;
            walker.PrepareChildren();
            const auto child = [&](int cell, const Position&) {
              return children_.At(walker.Child(cell) - child_offset);
            };
            int move = kNoMove;
            const uint64_t j = e - r.begin;
            records[j] = BestChild(game_, has_remoteness_, p, child, &move);
            if (!game_.IsCanonical(p)) {
              if (records[j] == 0) {
                mine.Add(e + index_.layer_offset(stones), game_, p,
                         "a child has no derived record");
              }
              return;
            }
            checked.fetch_add(1, std::memory_order_relaxed);
            const uint8_t stored = RecordArrays::Details(
                static_cast<Value>(values_[j] + 1), remoteness_[j]);
            const std::string problem =
                StoredProblem(game_, has_remoteness_, p, stored, moves_[j],
                              records[j], move, child);
            if (!problem.empty()) {
              mine.Add(e + index_.layer_offset(stones), game_, p, problem);
            }
          });
      counts.reachable = Popcount();
      counts.checked = checked;
      out.replace(0, kHeadBytes, counts.Head());
      if (absl::Status s = store_.dir().Put(name, out); !s.ok()) return s;
      Keep(counts.first_errors);
      Advance(r);
    }
    return absl::OkStatus();
  }

  // The table's records of tier `r` of even layer `stones` into values_,
  // moves_ and remoteness_ (0s without remoteness).
  absl::Status DecodeStored(int stones, const TierRange& r) {
    values_.resize(r.count);
    remoteness_.assign(r.count, 0);
    moves_.resize(r.count);
    const uint64_t end = r.begin + r.count;
    if (!sections_.value_reader(stones).Decode(r.begin, end, values_.data()) ||
        !sections_.move_reader(stones).Decode(r.begin, end, moves_.data()) ||
        (has_remoteness_ && !sections_.remoteness_reader(stones).Decode(
                                r.begin, end, remoteness_.data()))) {
      return TableDamage(stones);
    }
    return absl::OkStatus();
  }

  // Even layer `stones` and odd layer `stones` + 1: the counts in the
  // heads of their E and O tiers, and the errors this run found.
  absl::StatusOr<Counts> LayerCounts(int stones) {
    Counts total;
    std::string head;
    for (int layer : {stones, stones + 1}) {
      if (layer > game_.cells()) continue;
      const char kind = layer % 2 == 0 ? 'E' : 'O';
      for (int t = 0; t < Tiers(layer); ++t) {
        absl::StatusOr<uint64_t> size =
            store_.dir().GetHead(Name(kind, layer, t), kHeadBytes, head);
        if (!size.ok()) return size.status();
        if (head.size() < kHeadBytes) {
          return absl::DataLossError(absl::StrCat(Name(kind, layer, t), " in ",
                                                  store_.dir().path(),
                                                  " is too short"));
        }
        total.Add(Counts::FromHead(head));
      }
    }
    total.first_errors = std::move(found_);
    found_.clear();
    return total;
  }

  // The first errors this run found in the layers being checked.
  void Keep(const std::vector<std::string>& errors) {
    for (const std::string& e : errors) {
      if (found_.size() < kMaxErrors) found_.push_back(e);
    }
  }

  // Step 3: the tiers no later step reads (layer `stones`' E tiers are
  // read by the next odd layer's, if there is one).
  absl::Status RemoveUsed(int stones) {
    for (const auto& [kind, layer] :
         std::vector<std::pair<char, int>>{{'O', stones + 1},
                                           {'E', stones + 2},
                                           {'E', stones == 0 ? 0 : -1},
                                           {'R', stones},
                                           {'R', stones + 1}}) {
      if (layer < 0 || layer > game_.cells()) continue;
      for (int t = 0; t < Tiers(layer); ++t) {
        if (absl::Status s = store_.dir().Remove(Name(kind, layer, t));
            !s.ok()) {
          return s;
        }
      }
    }
    return absl::OkStatus();
  }

  const Game& game_;
  const PositionIndex& index_;
  const CompressedSections& sections_;
  const bool has_remoteness_;
  const TierStore store_;
  const int threads_;
  const std::function<void(uint64_t)>& progress_;
  const std::function<void(uint64_t)>& found_done_;
  std::string buffer_;
  std::vector<uint64_t> bits_;
  std::vector<uint8_t> values_, moves_, remoteness_;  // DecodeStored
  TierCache children_;  // the tiers of the layer below being read
  // The first errors this run found in the even layer being checked and
  // the odd one after it.
  std::vector<std::string> found_;
};

constexpr absl::string_view kContentLine = "content sha256 ";

// kFailedPrecondition when a verify to be resumed in options.work_dir was
// of a table whose content (SHA-256) is not `sha256`.
absl::Status SameContent(const TieredVerifyOptions& options,
                         absl::string_view sha256) {
  if (!options.resume) return absl::OkStatus();
  absl::StatusOr<std::string> manifest =
      ReadWholeFile(absl::StrCat(options.work_dir, "/manifest"));
  if (!manifest.ok()) return absl::OkStatus();  // WorkDir::Open says why
  for (absl::string_view line : absl::StrSplit(*manifest, '\n')) {
    if (absl::ConsumePrefix(&line, kContentLine) && line != sha256) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the work dir ", options.work_dir,
          " holds a verify of another table: its content had SHA-256 ",
          Printable(line), ", this table's is ", sha256,
          "; the tiers checked there prove nothing of this table: verify it "
          "in an empty directory"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<VerifyReport> VerifyInWorkDir(
    const Table& table, const TieredVerifyOptions& options,
    const std::function<void(uint64_t)>& progress,
    const std::function<void(uint64_t)>& found_done) {
  if (table.layout() != Layout::kCompressed) {
    return absl::InvalidArgumentError(
        "a work dir verifies compressed tables only; verify this table "
        "without one");
  }
  const uint64_t tier = options.tier_indices;
  if (absl::Status s = CheckTierIndices(tier); !s.ok()) return s;
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads ", options.threads, ": expected at least 1"));
  }
  // The table's content is named by its SHA-256: tiers checked of another
  // table's content (another build's, or one whose checksums were written
  // anew over damage) prove nothing of this one.
  const std::string sha256 = Sha256(table);
  if (absl::Status s = SameContent(options, sha256); !s.ok()) return s;
  const std::string manifest = absl::StrCat(
      "verify tiers 4\ngame ", table.game().spec().Name(), "\ntable bytes ",
      table.file_bytes(), "\nreachable ", table.reachable(), "\nremoteness ",
      table.has_remoteness() ? 1 : 0, "\ntier indices ", tier, "\n",
      kContentLine, sha256, "\n");
  absl::StatusOr<WorkDir> dir =
      WorkDir::Open(options.work_dir, manifest, options.resume, "verify");
  if (!dir.ok()) return dir.status();
  absl::StatusOr<VerifyReport> report =
      TieredVerifier(table, *std::move(dir), options, progress, found_done)
          .Run();
  if (report.ok() || !report.status().GetPayload(kTableDamaged)) {
    return report;
  }
  VerifyReport damaged;
  damaged.errors = 1;
  damaged.first_errors.push_back(absl::StrCat(
      report.status().message(),
      table.CheckAll().ok() ? "" : " (a page fails its checksum)"));
  return damaged;
}

}  // namespace mnk
