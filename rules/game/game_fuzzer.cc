// libFuzzer target for the position parser. The first byte picks a game; the
// rest is a position string. A parsed position must validate, format back to
// itself, and lead only to valid positions.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rules/game/game.h"

namespace {

const mnk::GameSpec kSpecs[] = {
    {3, 3, 3},  {4, 4, 4, true},  {5, 4, 4},       {7, 4, 3, true},
    {20, 1, 3}, {1, 30, 4, true}, {6, 5, 4, true}, {4, 5, 2},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const mnk::GameSpec& spec =
      kSpecs[data[0] % (sizeof(kSpecs) / sizeof(kSpecs[0]))];
  const mnk::Game game = *mnk::Game::Create(spec);
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  absl::StatusOr<mnk::Position> p = game.Parse(text);
  if (!p.ok()) {
    if (p.status().code() != absl::StatusCode::kInvalidArgument) std::abort();
    return 0;
  }
  if (!game.Validate(*p).ok()) std::abort();
  absl::StatusOr<mnk::Position> again = game.Parse(game.Format(*p));
  if (!again.ok() || !(*again == *p)) std::abort();
  for (int cell : game.LegalMoves(*p)) {
    if (!game.Validate(mnk::Game::Play(*p, cell)).ok()) std::abort();
  }
  return 0;
}
