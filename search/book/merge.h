// Books merged into one (`book --merge=A,B,...`): every position any of
// them holds, once, as one book. An opening table made by `solve
// --frontier` (every position up to a layer) and the book of the perfect
// lines beyond it (`book --plies=P`) become the one file play reads. Where
// two books hold the same position they must agree on its value and
// remoteness: a difference means one of them is wrong, and nothing is
// merged.
//
//   std::vector<const mnk::Table*> books = {&layers, &lines};  // checked
//   absl::StatusOr<mnk::BookEntries> merged = mnk::MergeBooks(books, names);
//   mnk::WriteBookTable("7x6k4g-opening.mnk", spec, *merged);
#ifndef MNK_SEARCH_BOOK_MERGE_H_
#define MNK_SEARCH_BOOK_MERGE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "store/write.h"
#include "table/table.h"

namespace mnk {

// The union of `books` (tables in the book layout, of one game, each
// checked whole by the caller: Table::CheckAll), `names[i]` naming
// books[i] in messages. Not complete (an opening book) unless one of them
// is. kInvalidArgument for a table not in the book layout or of another
// game than the first; kDataLoss naming the position and both books where
// two of them hold different outcomes of one position.
absl::StatusOr<BookEntries> MergeBooks(absl::Span<const Table* const> books,
                                       absl::Span<const std::string> names);

}  // namespace mnk

#endif  // MNK_SEARCH_BOOK_MERGE_H_
