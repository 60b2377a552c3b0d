#include "rules/game/game_json.h"

namespace mnk {

nlohmann::ordered_json GameJson(const GameSpec& spec) {
  return {{"width", spec.width},
          {"height", spec.height},
          {"k", spec.k},
          {"gravity", spec.gravity},
          {"misere", spec.misere}};
}

const std::string& GameJsonText(const GameSpec& spec) {
  thread_local GameSpec last;
  thread_local std::string text;
  if (text.empty() || !(last == spec)) {
    last = spec;
    text = GameJson(spec).dump();
  }
  return text;
}

}  // namespace mnk
