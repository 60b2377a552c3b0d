// What each level of play (answer/play.h) means: for every level, its
// results in whole games against a random player (level 1) and against
// the perfect player (level 10, varying among equally good moves), half
// of them as X and half as O, every game seeded (the same table every
// run). Prints one Markdown table a game, as docs/python.md shows them.
//
//   bazel run -c opt //bench:levels -- --games=1000
//   bazel run -c opt //bench:levels -- --games=20 --connect_four
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "answer/answer.h"
#include "answer/play.h"
#include "rules/game/game.h"
#include "rules/game/moves.h"

ABSL_FLAG(int, games, 1000, "games a level and opponent (half as X)");
ABSL_FLAG(bool, connect_four, false,
          "also Connect Four 7x6, by search after the book (slow: a perfect "
          "reply off the book's lines may take many seconds)");

namespace mnk {
namespace {

struct Tally {
  int win = 0, draw = 0, loss = 0;
  std::string Percent() const {
    const double n = win + draw + loss;
    return absl::StrFormat("%.1f / %.1f / %.1f", 100 * win / n, 100 * draw / n,
                           100 * loss / n);
  }
};

// One game from the empty board, `player` on `side` (0: X) against
// `opponent`: the winner.
absl::StatusOr<Winner> PlayOne(const AnswerSource& source, const Level& player,
                               const Level& opponent, int side) {
  const Game& game = source.game();
  Position p;
  while (!game.IsTerminal(p)) {
    const Level& level = p.side_to_move() == side ? player : opponent;
    absl::StatusOr<int> cell = Choose(source, game.Format(p), level);
    if (!cell.ok()) return cell.status();
    p = Game::Play(p, *cell);
  }
  return WinnerOf(game, p);
}

// `games` games of `level` against `opponent_level`, seeded by their
// number, half as X: the tally for the level's player.
absl::StatusOr<Tally> Match(const AnswerSource& source, int level,
                            int opponent_level, int games) {
  Tally tally;
  for (int i = 0; i < games; ++i) {
    Level player, opponent;
    player.level = level;
    player.seed = 2 * i;
    opponent.level = opponent_level;
    opponent.vary = true;
    opponent.seed = 2 * i + 1;
    const int side = i % 2;
    absl::StatusOr<Winner> w = PlayOne(source, player, opponent, side);
    if (!w.ok()) return w.status();
    const Winner mine = side == 0 ? Winner::kX : Winner::kO;
    if (*w == Winner::kDraw) {
      ++tally.draw;
    } else if (*w == mine) {
      ++tally.win;
    } else {
      ++tally.loss;
    }
  }
  return tally;
}

int Run(const std::vector<GameSpec>& specs, int games) {
  for (const GameSpec& spec : specs) {
    absl::StatusOr<std::unique_ptr<AnswerSource>> source =
        AnswerSource::Open(spec, {});
    if (!source.ok()) {
      std::cerr << "levels: " << source.status().message() << "\n";
      return 1;
    }
    std::cout << spec.Title() << ", " << games
              << " games a cell (half as X): the level's wins / draws / "
                 "losses, %\n\n"
              << "| level | against random | against perfect |\n"
              << "|---|---|---|\n";
    for (int level = kRandomLevel; level <= kPerfectLevel; ++level) {
      absl::StatusOr<Tally> random =
          Match(**source, level, kRandomLevel, games);
      absl::StatusOr<Tally> perfect =
          Match(**source, level, kPerfectLevel, games);
      if (!random.ok() || !perfect.ok()) {
        std::cerr
            << "levels: "
            << (random.ok() ? perfect.status() : random.status()).message()
            << "\n";
        return 1;
      }
      std::cout << "| " << level << " | " << random->Percent() << " | "
                << perfect->Percent() << " |\n"
                << std::flush;
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const int games = absl::GetFlag(FLAGS_games);
  if (games < 1) {
    std::cerr << "levels: --games=" << games << ": expected at least 1\n";
    return 2;
  }
  std::vector<mnk::GameSpec> specs = {mnk::GameSpec{3, 3, 3},
                                      mnk::GameSpec{4, 4, 4, true}};
  if (absl::GetFlag(FLAGS_connect_four)) {
    specs.push_back(mnk::GameSpec{7, 6, 4, true});
  }
  return mnk::Run(specs, games);
}
