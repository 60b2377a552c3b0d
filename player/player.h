// The player: answers positions and plays games from a table, by lookups,
// or, on a Connect-style board with no table (Connect Four 7x6), by the
// exact search. Used by the `play` binary; kept as a library so tests can
// drive it with strings. Three concerns, a header each: the answers
// (answer/answer.h, answer/oracle.h), their text forms and the batch
// protocol (answer/text.h), and the game in a terminal (game_session.h).
//
//   absl::StatusOr<mnk::Analysis> a = source->Answer("X.O/X.X/OO.");
//   std::cout << mnk::AnswerLine(table, "X.O/X.X/OO.", /*json=*/true);
//   mnk::PlayGame(*source, {.human_first = true}, std::cin, std::cout);
#ifndef MNK_PLAYER_PLAYER_H_
#define MNK_PLAYER_PLAYER_H_

#include "answer/answer.h"        // IWYU pragma: export
#include "answer/oracle.h"        // IWYU pragma: export
#include "answer/text.h"          // IWYU pragma: export
#include "player/game_session.h"  // IWYU pragma: export

#endif  // MNK_PLAYER_PLAYER_H_
