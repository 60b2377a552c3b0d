#include "base/cli/game_flags.h"

#include <optional>

#include "absl/flags/flag.h"
#include "base/cli/cli.h"

ABSL_FLAG(std::optional<int>, width, std::nullopt,
          "board width m, in columns (default: the tool's game, see above)");
ABSL_FLAG(std::optional<int>, height, std::nullopt,
          "board height n, in rows (default: the tool's game)");
ABSL_FLAG(std::optional<int>, k, std::nullopt,
          "stones in a row that win (default: the tool's game)");
ABSL_FLAG(bool, gravity, false,
          "Connect-style: stones drop to the lowest empty cell of a column "
          "(default: the tool's game)");
ABSL_FLAG(bool, misere, false,
          "misère: whoever completes k in a row loses (default: the tool's "
          "game)");

namespace mnk {

GameSpec GameSpecFromFlags(const GameSpec& rest) {
  auto given = [](const char* flag, bool value, bool otherwise) {
    return FlagGiven(flag) ? value : otherwise;
  };
  return GameSpec{absl::GetFlag(FLAGS_width).value_or(rest.width),
                  absl::GetFlag(FLAGS_height).value_or(rest.height),
                  absl::GetFlag(FLAGS_k).value_or(rest.k),
                  given("gravity", absl::GetFlag(FLAGS_gravity), rest.gravity),
                  given("misere", absl::GetFlag(FLAGS_misere), rest.misere)};
}

absl::StatusOr<Game> GameFromFlags(const GameSpec& rest) {
  return Game::Create(GameSpecFromFlags(rest));
}

}  // namespace mnk
