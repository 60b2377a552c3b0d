// The flags that name a game, defined once for every tool that takes one:
// --width, --height, --k, --gravity and --misere. Each tool says which game
// it plays when they are left out (tic-tac-toe for solve, Connect Four 7x6
// for book); a flag given replaces that part of it.
//
//   mnk::GameSpec spec = mnk::GameSpecFromFlags({7, 6, 4, /*gravity=*/true});
//   absl::StatusOr<mnk::Game> game = mnk::GameFromFlags(mnk::GameSpec());
//   if (!game.ok()) return mnk::Fail(mnk::kExitUsage, game.status());
#ifndef MNK_BASE_CLI_GAME_FLAGS_H_
#define MNK_BASE_CLI_GAME_FLAGS_H_

#include <optional>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "rules/game/game.h"

ABSL_DECLARE_FLAG(std::optional<int>, width);
ABSL_DECLARE_FLAG(std::optional<int>, height);
ABSL_DECLARE_FLAG(std::optional<int>, k);
ABSL_DECLARE_FLAG(bool, gravity);
ABSL_DECLARE_FLAG(bool, misere);

namespace mnk {

// The game the command line asks for: each game flag given, the rest from
// `rest` (the tool's own game, or a table's).
GameSpec GameSpecFromFlags(const GameSpec& rest);

// The same game, checked: kInvalidArgument naming the flag that is out of
// range (Game::Create's message).
absl::StatusOr<Game> GameFromFlags(const GameSpec& rest);

}  // namespace mnk

#endif  // MNK_BASE_CLI_GAME_FLAGS_H_
