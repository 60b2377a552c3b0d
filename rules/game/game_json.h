// The JSON object that names a game, written the same way by every tool
// that prints one (solve --json, play --json, the web API).
//
//   mnk::GameJson(spec);      // {"width":3,"height":3,"k":3,
//                             //  "gravity":false,"misere":false}
//   mnk::GameJsonText(spec);  // the same, as text
#ifndef MNK_RULES_GAME_GAME_JSON_H_
#define MNK_RULES_GAME_GAME_JSON_H_

#include <string>

#include "nlohmann/json.hpp"
#include "rules/game/game.h"

namespace mnk {

nlohmann::ordered_json GameJson(const GameSpec& spec);

// GameJson(spec).dump(), made once per game and thread (for answers
// written by hand on a hot path).
const std::string& GameJsonText(const GameSpec& spec);

}  // namespace mnk

#endif  // MNK_RULES_GAME_GAME_JSON_H_
