#include "rules/game/printable.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace mnk {

std::string Printable(absl::string_view text) {
  constexpr size_t kMax = 200;
  std::string escaped = absl::CHexEscape(text.substr(0, kMax));
  if (text.size() > kMax) {
    absl::StrAppend(&escaped, "... (", text.size(), " bytes)");
  }
  return escaped;
}

}  // namespace mnk
