// The perfect player compiled to WebAssembly (//wasm:mnk_core): the same
// answer source and answer lines as `play --batch --json`, bound to
// JavaScript with embind. wasm/mnk.mjs wraps it in the module's API.
//
//   core.games();  // the built-in games: [{"id":"3x3k3","title":...}, ...]
//   const game = new core.Game(3, 3, 3, false, false, "", 64 << 20);
//   game.error();               // "" when it opened
//   game.answer(".../.X./...", 0, 0, undefined);  // as play --batch --json
//   game.delete();
//
// Built by em++ only (wasm/build.sh), never by the host compiler: errors
// come back as strings, as no exception crosses into JavaScript.
#include <emscripten/bind.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "answer/answer.h"
#include "answer/play.h"
#include "answer/text.h"
#include "base/version/version.h"
#include "nlohmann/json.hpp"
#include "rules/game/game.h"
#include "rules/game/game_json.h"
#include "rules/game/moves.h"

namespace mnk {
namespace {

class WasmGame {
 public:
  // The answers of the game width x height, k in a row (its built-in
  // table, or the search after the built-in book), or, when `table_path`
  // names a file of the module's file system, of that table's game; a
  // search's transposition table takes `search_memory` bytes, after the book
  // `book_path` names (a file of the module's file system; empty: the
  // built-in one).
  WasmGame(int width, int height, int k, bool gravity, bool misere,
           const std::string& table_path, double search_memory,
           const std::string& book_path) {
    SourceOptions options;
    options.table = table_path;
    options.book = book_path;
    options.placement = Table::Placement::kInMemory;
    options.search_memory = static_cast<uint64_t>(search_memory);
    options.search_memory_name = "searchMemory";
    options.how_to_solve = [](const GameSpec& g) {
      return absl::StrCat("the `solve` tool (`solve ", SolveFlags(g),
                          " --out=FILE`) or Python's Game.solve(FILE) makes "
                          "one, and mnk.openTable(bytes) opens its bytes");
    };
    std::optional<GameSpec> spec;
    if (table_path.empty()) spec = GameSpec{width, height, k, gravity, misere};
    absl::StatusOr<std::unique_ptr<AnswerSource>> source =
        AnswerSource::Open(spec, options);
    if (source.ok()) {
      source_ = *std::move(source);
    } else {
      error_ = std::string(source.status().message());
    }
  }

  // Why the game could not be opened; empty when it was.
  std::string error() const { return error_; }
  // "Tic-tac-toe", "Connect Four" (GameSpec::Title).
  std::string title() const {
    return source_ ? source_->game().spec().Title() : "";
  }
  // The answer to one position, as one line of `play --batch --json`: the
  // analysis, or {"input": ..., "error": ..., "code": ...} (AnswerJsonLine:
  // "INVALID_ARGUMENT" for a bad position, "RESOURCE_EXHAUSTED" for a
  // search past `max_nodes` positions, "DEADLINE_EXCEEDED" past
  // `max_seconds`, each 0 for no limit; "CANCELLED" once `progress`
  // returned false). `progress`, a function or undefined, is called with
  // (moves done, moves) as a search goes through the moves; it returns
  // true to go on. `best_only`: the value, remoteness and best move alone
  // (Need::kBestMove). mnk.mjs checks the limits (whole numbers of nodes
  // from 0 to 2^53 - 1; seconds from 0).
  std::string answer(const std::string& position, double max_nodes,
                     double max_seconds, emscripten::val progress,
                     bool best_only) const {
    if (!source_) return "";
    std::atomic<bool> stop{false};
    Progress report;
    if (progress.typeOf().as<std::string>() == "function") {
      report = [&progress, &stop](int done, int total) {
        if (!progress(done, total).as<bool>()) stop.store(true);
      };
    }
    AnswerLimits limits = Limits(max_nodes, max_seconds);
    limits.cancel = &stop;
    return AnswerJsonLine(*source_, position, limits, report,
                          best_only ? Need::kBestMove : Need::kEveryMove);
  }

  // The rules calls, each a JSON object: the result's fields, or {"error",
  // "code"} (absl's name of the status code) for a bad position or move.
  // rules: {"to_move", "over", "winner" ("X", "O", "draw" or null),
  // "moves" (cells in board order)}.
  std::string rules(const std::string& position) const {
    return OnPosition(position, [&](const Position& p) {
      const Winner w = WinnerOf(game(), p);
      return Json({{"to_move", p.side_to_move() == 0 ? "X" : "O"},
                   {"over", game().IsTerminal(p)},
                   {"winner", w == Winner::kNone
                                  ? nlohmann::ordered_json()
                                  : nlohmann::ordered_json(WinnerName(w))},
                   {"moves", BoardOrderMoves(game(), p)}});
    });
  }
  // {"position"}: after the side to move plays `cell`, or drops a stone in
  // `column`.
  std::string play(const std::string& position, int cell) const {
    return OnPosition(position, [&](const Position& p) {
      return PositionJson(PlayMove(game(), p, cell));
    });
  }
  std::string drop(const std::string& position, int column) const {
    return OnPosition(position, [&](const Position& p) {
      return PositionJson(PlayColumn(game(), p, column));
    });
  }
  // {"position"} after `moves` in `notation` (moves.h).
  std::string fromMoves(const std::string& moves,
                        const std::string& notation) const {
    const absl::StatusOr<Notation> n = NotationNamed(notation);
    if (!n.ok()) return Error(n.status());
    return PositionJson(FromMoves(game(), moves, *n));
  }
  // {"moves"}: a sequence in `notation` that builds `position`.
  std::string toMoves(const std::string& position,
                      const std::string& notation) const {
    return OnPosition(position, [&](const Position& p) {
      const absl::StatusOr<Notation> n = NotationNamed(notation);
      if (!n.ok()) return Error(n.status());
      const absl::StatusOr<std::string> moves = ToMoves(game(), p, *n);
      if (!moves.ok()) return Error(moves.status());
      return Json({{"moves", *moves}});
    });
  }
  // {"cell"}: the move of `level` (a seed from 0 to 2^53 - 1, or -1 for
  // none), a search within the limits (as answer's).
  std::string choose(const std::string& position, int level, bool vary,
                     double seed, double max_nodes, double max_seconds) const {
    Level chosen;
    chosen.level = level;
    chosen.vary = vary;
    if (seed >= 0) chosen.seed = static_cast<uint64_t>(seed);
    const absl::StatusOr<int> cell =
        Choose(*source_, position, chosen, Limits(max_nodes, max_seconds));
    if (!cell.ok()) return Error(cell.status());
    return Json({{"cell", *cell}});
  }
  // The game tree to `depth` plies (TreeJson), within the limits.
  std::string tree(const std::string& position, int depth, double max_nodes,
                   double max_seconds) const {
    const absl::StatusOr<TreeNode> root =
        GameTree(*source_, position, depth, Limits(max_nodes, max_seconds));
    if (!root.ok()) return Error(root.status());
    return TreeJson(game(), *root);
  }
  // {"pv", "complete"}: the principal variation, within the limits.
  std::string pv(const std::string& position, double max_nodes,
                 double max_seconds) const {
    const absl::StatusOr<Line> line =
        PrincipalVariation(*source_, position, Limits(max_nodes, max_seconds));
    if (!line.ok()) return Error(line.status());
    return Json({{"pv", line->cells}, {"complete", line->complete}});
  }

 private:
  const Game& game() const { return source_->game(); }
  static AnswerLimits Limits(double max_nodes, double max_seconds) {
    AnswerLimits limits;
    limits.max_nodes = static_cast<uint64_t>(max_nodes);
    if (max_seconds > 0) limits.max_time = absl::Seconds(max_seconds);
    return limits;
  }
  static std::string Json(const nlohmann::ordered_json& object) {
    return object.dump(-1, ' ', false,
                       nlohmann::ordered_json::error_handler_t::replace);
  }
  static std::string Error(const absl::Status& status) {
    return Json({{"error", std::string(status.message())},
                 {"code", absl::StatusCodeToString(status.code())}});
  }
  std::string PositionJson(const absl::StatusOr<Position>& p) const {
    if (!p.ok()) return Error(p.status());
    return Json({{"position", game().Format(*p)}});
  }
  // `step(p)` for the position `position`, or the error of a bad one.
  template <typename Step>
  std::string OnPosition(const std::string& position, const Step& step) const {
    const absl::StatusOr<Position> p = source_->Parse(position);
    if (!p.ok()) return Error(p.status());
    return step(*p);
  }

  std::unique_ptr<AnswerSource> source_;
  std::string error_;
};

// The games answered with no table given (BuiltinGames), as a JSON array
// of {"id", "name", "title", "width", "height", "k", "gravity", "misere",
// "cells"}: the fields of serve's /api/games that name a game.
std::string games() {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GameSpec& spec : BuiltinGames()) {
    nlohmann::ordered_json game = {{"id", spec.FileStem()},
                                   {"name", spec.Name()},
                                   {"title", spec.Title()}};
    game.update(GameJson(spec));
    game["cells"] = spec.cells();
    list.push_back(std::move(game));
  }
  return list.dump(-1, ' ', false,
                   nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace
}  // namespace mnk

EMSCRIPTEN_BINDINGS(mnk) {
  emscripten::function("games", &mnk::games);
  emscripten::function(
      "version", +[] { return std::string(mnk::kVersion); });
  emscripten::class_<mnk::WasmGame>("Game")
      .constructor<int, int, int, bool, bool, const std::string&, double,
                   const std::string&>()
      .function("error", &mnk::WasmGame::error)
      .function("title", &mnk::WasmGame::title)
      .function("answer", &mnk::WasmGame::answer)
      .function("rules", &mnk::WasmGame::rules)
      .function("play", &mnk::WasmGame::play)
      .function("drop", &mnk::WasmGame::drop)
      .function("fromMoves", &mnk::WasmGame::fromMoves)
      .function("toMoves", &mnk::WasmGame::toMoves)
      .function("choose", &mnk::WasmGame::choose)
      .function("pv", &mnk::WasmGame::pv)
      .function("tree", &mnk::WasmGame::tree);
}
