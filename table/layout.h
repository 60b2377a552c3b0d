// The record layouts a table file can have, and what each keeps: one type
// from the solve command's flags to the file's byte 17 (table/header.h).
//
//   mnk::TableLayout l = mnk::TableLayout::Compressed(/*remoteness=*/false);
//   l.layout();          // Layout::kCompressed
//   l.has_remoteness();  // false
//   l.name();            // "compressed"
//   mnk::TableLayout::Compact().has_remoteness();  // false, always
//
// Only the combinations a file can hold can be made: full records and
// books always keep remoteness, compact ones never, compressed ones either
// way.
#ifndef MNK_TABLE_LAYOUT_H_
#define MNK_TABLE_LAYOUT_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace mnk {

// Byte 17 of a table file.
enum class Layout : uint8_t {
  kFull = 1,        // value, remoteness and best move of every index
  kCompact = 2,     // values of the even layers, five to a byte
  kCompressed = 3,  // run-coded sections of canonical even-layer positions
  kBook = 4,        // value and remoteness of chosen positions (a book)
};

// "full", "compact", "compressed" or "book"; "unknown" for another byte.
const char* LayoutName(Layout layout);
// The layout a name means, nullopt for none.
std::optional<Layout> LayoutNamed(absl::string_view name);

class TableLayout {
 public:
  static constexpr TableLayout Full() { return {Layout::kFull, true}; }
  static constexpr TableLayout Compact() { return {Layout::kCompact, false}; }
  static constexpr TableLayout Compressed(bool remoteness = true) {
    return {Layout::kCompressed, remoteness};
  }
  static constexpr TableLayout Book() { return {Layout::kBook, true}; }
  // The layout `layout` with remoteness if it can keep it (the compressed
  // one then keeps it).
  static constexpr TableLayout Of(Layout layout) {
    return layout == Layout::kFull      ? Full()
           : layout == Layout::kCompact ? Compact()
           : layout == Layout::kBook    ? Book()
                                        : Compressed();
  }

  constexpr Layout layout() const { return layout_; }
  constexpr bool has_remoteness() const { return remoteness_; }
  const char* name() const { return LayoutName(layout_); }
  constexpr bool operator==(const TableLayout& o) const {
    return layout_ == o.layout_ && remoteness_ == o.remoteness_;
  }
  constexpr bool operator!=(const TableLayout& o) const {
    return !(*this == o);
  }

 private:
  constexpr TableLayout(Layout layout, bool remoteness)
      : layout_(layout), remoteness_(remoteness) {}
  Layout layout_;
  bool remoteness_;
};

}  // namespace mnk

#endif  // MNK_TABLE_LAYOUT_H_
