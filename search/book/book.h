// The opening book of a Connect-style game too big to tabulate (Connect
// Four 7x6): every position that can arise up to ply P while the perfect
// player follows its own policy, as either side, with the outcome of every
// move it compares there. Solved by the exact search (search/
// connect.h) and written as a table in the book layout (table/table.h,
// layout 4), which `play` and the player's Oracle read before searching.
//
//   mnk::BookOptions options;
//   options.plies = 8;
//   options.work_dir = "/tmp/book-7x6";  // resumable: solved positions kept
//   absl::StatusOr<mnk::BookEntries> book =
//       mnk::BuildBook({search.get()}, options);  // a search a thread
//   mnk::WriteBookTable("7x6k4g-book.mnk", game.spec(), *book);
//
// The positions: from the empty board, for each side s, at every ply up to
// P, a position where s moves is analysed (each move's outcome solved, the
// policy's move followed), and at a position where the other side moves
// every move is followed. The book holds each analysed position and each
// of its moves' positions: about 2 * 8 * 7^(P/2) positions on 7x6. Both
// sides go ply by ply together: the moves to solve at a ply (both sides')
// are listed first and solved by every search at once, each search on a
// stretch of the list of its own (neighbours share subtrees, so each
// search's table serves the next), then the analysed positions follow the
// policy. A run stopped at ply p has a complete book of p - 1 plies in its
// log.
//
// Shared among processes (options.cluster, //search/book:book_mpi): rank r
// of N solves the r-th N-th of each ply's list and logs it; at the end of
// the ply the ranks meet, and each reads the others' logs from the work dir
// (which they must all reach) before going on; all return the same book.
//
// Work dir: one log a process, book-<stem>.log for rank 0 (and a process
// alone), book-<stem>-rank<r>.log for rank r (stem as GameSpec::FileStem),
// of 16-byte records, one a solved position, appended as they are solved
// and synced once a second and at the end of each ply:
//   bytes 0-7    the key: PositionIndex::Index of the canonical image,
//                little-endian
//   byte 8       value (bits 7-6) and remoteness (bits 5-0), as a book's
//   bytes 9-11   0
//   bytes 12-15  CRC-32 of bytes 0-11, little-endian
// A run that is stopped keeps what it logged; the next run reads every log
// of the game there (each up to its first torn or damaged record; its own
// is cut off there), whatever number of processes wrote them, and solves
// only the rest.
//
// Every position instead (options.every_position): every reachable
// position with exactly P stones that is in play, one a mirror pair, is
// solved, sorted and then in blocks of kLayerBlock neighbours in a
// shuffled order fixed by kLayerOrderSeed (neighbours share subtrees, so a
// search's table serves the next; the rate so far foretells the rest), and
// the book holds them all; a position whose parents (P - 1 stones) are
// known, from options.seed, is searched from the worst of their results
// (ConnectSearch::SolveAfter). The same work
// dir and log: a record is a position's exact outcome whichever mode
// solved it.
#ifndef MNK_SEARCH_BOOK_BOOK_H_
#define MNK_SEARCH_BOOK_BOOK_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/parallel/cluster.h"
#include "rules/game/game.h"
#include "search/connect.h"
#include "store/write.h"
#include "table/readers.h"

namespace mnk {

struct BookProgress {
  int ply;            // the ply being solved
  uint64_t to_solve;  // the moves this process solves at this ply
  uint64_t solved;    // positions solved by search in this run
  uint64_t from_log;  // positions read back from the work dir's logs
};

// every_position's order: blocks of kLayerBlock sorted positions, shuffled
// by kLayerOrderSeed.
inline constexpr uint64_t kLayerBlock = 4096;
inline constexpr uint64_t kLayerOrderSeed = 12;

struct BookOptions {
  int plies = 8;  // P: positions up to this many stones
  // Every position with exactly P stones (book.h's first comment), not the
  // book's lines.
  bool every_position = false;
  std::string work_dir;  // where solved positions are logged; "" for none
  // Called as each ply starts and after each position solved.
  std::function<void(const BookProgress&)> progress;
  // Null: this process alone. Otherwise the work dir is required.
  Cluster* cluster = nullptr;
  // Entries taken as solved (and logged by rank 0), from a book of the same
  // game already checked (Table::CheckAll): a deeper book starts from it.
  const BookReader* seed = nullptr;
};

// The book of the searches' game (one or more searches of one game, each
// solving on a thread of its own). kInvalidArgument for plies outside
// [0, cells], or processes without a work dir; the work dir's errors
// (kNotFound, kPermissionDenied, ...) naming the file; kAborted when
// another process stopped. Every process returns the same book.
absl::StatusOr<BookEntries> BuildBook(absl::Span<ConnectSearch* const> searches,
                                      const BookOptions& options);

}  // namespace mnk

#endif  // MNK_SEARCH_BOOK_BOOK_H_
