#include "search/book/merge.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "table/readers.h"
#include "table/record.h"

namespace mnk {
namespace {

// "win in 11": a book's record byte (value in bits 7-6, remoteness below).
std::string Outcome(uint8_t record) {
  return absl::StrCat(ValueName(static_cast<Value>(record >> kRemotenessBits)),
                      " in ", record & kMaxRemoteness);
}

struct Held {
  uint64_t key;
  uint8_t record;
  int book;  // which of the books holds it
};

}  // namespace

absl::StatusOr<BookEntries> MergeBooks(absl::Span<const Table* const> books,
                                       absl::Span<const std::string> names) {
  // Every entry of every book, after checking each is a book of the game.
  std::vector<Held> held;
  BookEntries merged;
  for (size_t i = 0; i < books.size(); ++i) {
    const BookReader* book = books[i]->book();
    if (book == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(names[i], " is a table in the ", books[i]->layout_name(),
                       " layout, not a book"));
    }
    if (absl::Status s =
            books[i]->ExpectGame(books[0]->game().spec(), names[i]);
        !s.ok()) {
      return absl::InvalidArgumentError(s.message());
    }
    merged.complete = merged.complete || books[i]->complete();
    for (uint64_t e = 0; e < book->size(); ++e) {
      held.push_back({book->Key(e), book->RecordByte(e), static_cast<int>(i)});
    }
  }
  // By key, each key once; a key held twice must have one record.
  std::sort(held.begin(), held.end(), [](const Held& a, const Held& b) {
    return std::tie(a.key, a.book) < std::tie(b.key, b.book);
  });
  for (size_t e = 0; e < held.size(); ++e) {
    const Held& h = held[e];
    if (e > 0 && held[e - 1].key == h.key) {
      const Held& first = held[e - 1];
      if (first.record == h.record) continue;
      const Game& game = books[0]->game();
      return absl::DataLossError(absl::StrCat(
          "the books disagree on ", game.Format(PositionIndex(game).At(h.key)),
          ": ", Outcome(first.record), " in ", names[first.book], ", ",
          Outcome(h.record), " in ", names[h.book]));
    }
    merged.keys.push_back(h.key);
    merged.records.push_back(h.record);
  }
  return merged;
}

}  // namespace mnk
