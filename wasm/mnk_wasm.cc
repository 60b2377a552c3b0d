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

#include "answer/answer.h"
#include "answer/text.h"
#include "base/version/version.h"
#include "nlohmann/json.hpp"
#include "rules/game/game.h"
#include "rules/game/game_json.h"

namespace mnk {
namespace {

class WasmGame {
 public:
  // The answers of the game width x height, k in a row (its built-in
  // table, or the search after the built-in book), or, when `table_path`
  // names a file of the module's file system, of that table's game; a
  // search's transposition table takes `search_memory` bytes.
  WasmGame(int width, int height, int k, bool gravity, bool misere,
           const std::string& table_path, double search_memory) {
    SourceOptions options;
    options.table = table_path;
    options.placement = Table::Placement::kInMemory;
    options.search_memory = static_cast<uint64_t>(search_memory);
    options.search_memory_name = "searchMemory";
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
  // true to go on. mnk.mjs checks the limits (whole numbers of nodes from
  // 0 to 2^53 - 1; seconds from 0).
  std::string answer(const std::string& position, double max_nodes,
                     double max_seconds, emscripten::val progress) const {
    if (!source_) return "";
    std::atomic<bool> stop{false};
    Progress report;
    if (progress.typeOf().as<std::string>() == "function") {
      report = [&progress, &stop](int done, int total) {
        if (!progress(done, total).as<bool>()) stop.store(true);
      };
    }
    AnswerLimits limits;
    limits.max_nodes = static_cast<uint64_t>(max_nodes);
    limits.cancel = &stop;
    if (max_seconds > 0) limits.max_time = absl::Seconds(max_seconds);
    return AnswerJsonLine(*source_, position, limits, report);
  }

 private:
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
      .constructor<int, int, int, bool, bool, const std::string&, double>()
      .function("error", &mnk::WasmGame::error)
      .function("title", &mnk::WasmGame::title)
      .function("answer", &mnk::WasmGame::answer);
}
