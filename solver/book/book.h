// The opening book of a Connect-style game too big to tabulate (Connect
// Four 7x6): every position that can arise up to ply P while the perfect
// player follows its own policy, as either side, with the outcome of every
// move it compares there. Solved by the exact search (solver/search/
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
// sides go ply by ply together, so that a run stopped at ply p has a
// complete book of p - 1 plies in its log.
//
// Work dir: one file, book-<stem>.log (stem as GameSpec::FileStem), of
// 16-byte records, one a solved position, appended as they are solved and
// synced after each analysed position:
//   bytes 0-7    the key: PositionIndex::Index of the canonical image,
//                little-endian
//   byte 8       value (bits 7-6) and remoteness (bits 5-0), as a book's
//   bytes 9-11   0
//   bytes 12-15  CRC-32 of bytes 0-11, little-endian
// A run that is stopped keeps what it logged; the next run reads the log
// (up to the first torn or damaged record, which it cuts off) and solves
// only the rest.
#ifndef MNK_SOLVER_BOOK_BOOK_H_
#define MNK_SOLVER_BOOK_BOOK_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "solver/game/game.h"
#include "solver/search/connect.h"
#include "table/write.h"

namespace mnk {

struct BookProgress {
  int side;           // 0: the perfect player moves first, 1: second
  int ply;            // the ply being analysed
  uint64_t analysed;  // positions analysed so far (both sides)
  uint64_t solved;    // positions solved by search in this run
  uint64_t from_log;  // positions read back from the work dir's log
};

struct BookOptions {
  int plies = 8;         // P: positions up to this many stones
  std::string work_dir;  // where solved positions are logged; "" for none
  // Called after each analysed position.
  std::function<void(const BookProgress&)> progress;
};

// The book of the searches' game (one or more searches of one game, each
// solving on a thread of its own). kInvalidArgument for plies outside
// [0, cells]; the work dir's errors (kNotFound, kPermissionDenied, ...)
// naming the file.
absl::StatusOr<BookEntries> BuildBook(absl::Span<ConnectSearch* const> searches,
                                      const BookOptions& options);

}  // namespace mnk

#endif  // MNK_SOLVER_BOOK_BOOK_H_
