#include "table/layout.h"

namespace mnk {

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kFull:
      return "full";
    case Layout::kCompact:
      return "compact";
    case Layout::kCompressed:
      return "compressed";
    case Layout::kBook:
      return "book";
  }
  return "unknown";
}

std::optional<Layout> LayoutNamed(absl::string_view name) {
  for (const Layout l :
       {Layout::kFull, Layout::kCompact, Layout::kCompressed, Layout::kBook}) {
    if (name == LayoutName(l)) return l;
  }
  return std::nullopt;
}

}  // namespace mnk
