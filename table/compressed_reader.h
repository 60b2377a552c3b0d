// The compressed layout's reader (layout 3, table/compressed.h): the
// stored record of a position's canonical image, with its move mapped back;
// odd layers, which are not stored, as the best of their children by the
// policy (rules/game/policy.h); and the ties among moves that the stored
// move of an image cannot show. Internal to //table: callers use Table.
//
//   absl::StatusOr<CompressedReader> r = CompressedReader::Open(bytes);
//   absl::StatusOr<Record> rec = r->Probe(position);
//
// A probe of an even layer reads one entry of each section (they are
// prefetched together); of an odd layer, the value of each child, then the
// remoteness of the children that share the best value; a tie check reads
// the grandchildren of one child.
#ifndef MNK_TABLE_COMPRESSED_READER_H_
#define MNK_TABLE_COMPRESSED_READER_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "rules/game/game.h"
#include "table/compressed.h"
#include "table/readers.h"
#include "table/record.h"

namespace mnk {

class CompressedReader {
 public:
  // Checks the section directory (table/table.h) and opens the sections.
  // kDataLoss when the directory or a section's header is damaged.
  static absl::StatusOr<CompressedReader> Open(const TableBytes& t);

  const CompressedSections& sections() const { return sections_; }
  bool has_remoteness() const { return sections_.has_remoteness(); }

  // The record of a valid position: the stored record of its canonical
  // image with its move mapped back (and the lowest tying cell), or for O
  // to move the best child; remoteness unknown when not stored, except at
  // the end. kDataLoss for damaged or impossible data.
  absl::StatusOr<Record> Probe(const Position& p) const;
  // The value alone; kUnreachable when the table lacks it.
  Value ValueOf(const Position& p) const;

 private:
  CompressedReader(const TableBytes& t, CompressedSections sections)
      : t_(&t), sections_(std::move(sections)) {}

  // What a stored lookup decodes: the others are left unknown.
  enum class Parts { kValue, kValueAndRemoteness, kAll };
  // Where a position with an even number of stones that is not over is
  // stored: its canonical image's entry in its layer, and the symmetry
  // that maps it there.
  struct StoredAt {
    uint64_t entry;
    int symmetry;
  };
  StoredAt Locate(const Position& p) const;
  absl::StatusOr<Record> Stored(const Position& p, StoredAt at,
                                Parts parts) const;

  // The children of a position that is not over, each with its end by the
  // rules or where it is stored; their value lookups (and remoteness
  // lookups if asked) are started before any is read, so that their cache
  // misses overlap. Returns how many, at most kMaxMoves.
  static constexpr int kMaxMoves = 32;
  struct Child {
    int cell;
    Position position;
    std::optional<Value> end;
    StoredAt at;
  };
  int Children(const Position& p, bool remoteness, Child* out) const;
  // Starts the lookups of entries[0 .. n) of even layer `stones` in the
  // sections `sections` names (bits below), in two steps
  // (RunReader::Prefetch, PrefetchStream).
  enum : int { kValueSection = 1, kMoveSection = 2, kRemotenessSection = 4 };
  void Prefetch(int stones, const uint64_t* entries, int n, int sections) const;

  // Even layers: the stored record, then the lowest cell that ties with it.
  absl::StatusOr<Record> ProbeEven(const Position& p) const;
  // Odd layers: the best child by the policy.
  absl::StatusOr<Record> ProbeOdd(const Position& p) const;
  // A move that may tie with the parent's best move: the position after
  // it, and after the reply on the parent's best move, the lookup that
  // refutes most moves that do not tie (located when neither is over).
  struct TieCandidate {
    int cell;
    Position child;
    std::optional<Value> child_end;
    Position reply;
    std::optional<Value> reply_end;
    StoredAt reply_at;
  };
  TieCandidate Candidate(const Position& parent, int cell, int best) const;
  // Whether moving to the candidate's child is as good, by the policy, as
  // the best move of its parent, whose record is `parent` (value,
  // remoteness or unknown, and its best move).
  absl::StatusOr<bool> MoveTies(const TieCandidate& c,
                                const Record& parent) const;

  const TableBytes* t_;
  CompressedSections sections_;
};

}  // namespace mnk

#endif  // MNK_TABLE_COMPRESSED_READER_H_
