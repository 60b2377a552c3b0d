// libFuzzer target for the player's input handling: the input is fed line by
// line to the batch protocol (text and JSON), which must answer every line
// with exactly one line, and whole to an interactive game, which must end.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "answer/answer.h"
#include "player/player.h"
#include "solver/retrograde/solver.h"
#include "store/write.h"
#include "table/table.h"

namespace {

const mnk::Table& TableFor(bool gravity) {
  static const mnk::Table* tables[2] = {nullptr, nullptr};
  const mnk::Table*& t = tables[gravity];
  if (t == nullptr) {
    const mnk::GameSpec spec =
        gravity ? mnk::GameSpec{4, 4, 3, true} : mnk::GameSpec{3, 3, 3};
    const mnk::Game game = *mnk::Game::Create(spec);
    absl::StatusOr<mnk::Solution> s = mnk::Solve(game, {1});
    t = new mnk::Table(*mnk::Table::FromBytes(
        mnk::SerializeTable(spec, s->records().view(), s->stats.reachable)));
  }
  return *t;
}

const mnk::AnswerSource& SourceFor(bool gravity) {
  static const mnk::AnswerSource* sources[2] = {nullptr, nullptr};
  const mnk::AnswerSource*& s = sources[gravity];
  if (s == nullptr) {
    s = mnk::AnswerSource::Of(TableFor(gravity), "fuzz").release();
  }
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const mnk::Table& table = TableFor(data[0] & 1);
  const bool json = data[0] & 2;
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
  std::istringstream lines(input);
  std::string line;
  bool too_long;
  while (mnk::ReadLine(lines, &line, &too_long)) {
    const std::string answer = mnk::AnswerLine(table, line, json, too_long);
    if (answer.empty() || answer.find('\n') != answer.size() - 1) std::abort();
  }
  std::istringstream in(input);
  std::ostringstream out;
  mnk::GameOptions options;
  options.human_first = data[0] & 4;
  if (mnk::PlayGame(SourceFor(data[0] & 1), options, in, out) != 0) {
    std::abort();
  }
  return 0;
}
