// How user text (a flag value, a position string, a path) is quoted in
// messages, so that no byte of it can garble a terminal or a log line.
//
//   mnk::Printable("t\x01.mnk");  // "t\\001.mnk"
#ifndef MNK_RULES_GAME_PRINTABLE_H_
#define MNK_RULES_GAME_PRINTABLE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace mnk {

// `text` with control and non-ASCII bytes escaped, cut after 200 bytes with
// the length.
std::string Printable(absl::string_view text);

}  // namespace mnk

#endif  // MNK_RULES_GAME_PRINTABLE_H_
