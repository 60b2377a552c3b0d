// The samples of the big tables' answers (data/samples/): each answer a
// live search can reach agrees with it, and their small twins, drawn again
// here from tables the build solves, are the committed files byte for byte
// (so the big ones were drawn and written the same way).
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "player/sample.h"
#include "rules/game/game.h"
#include "search/search.h"
#include "table/record.h"
#include "table/table.h"

namespace mnk {
namespace {

std::string Runfile(const std::string& path) {
  return std::string(std::getenv("TEST_SRCDIR")) + "/mnk/" + path;
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The game a sample's first line names: "# 6,4,4: ...", "# 6,6,4 gravity:".
GameSpec SampleGame(const std::string& text) {
  std::smatch m;
  const std::regex name("^# (\\d+),(\\d+),(\\d+)( gravity)?:");
  EXPECT_TRUE(std::regex_search(text, m, name)) << text.substr(0, 80);
  return GameSpec{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]),
                  m[4].matched};
}

Value Opposite(Value v) {
  return v == Value::kWin ? Value::kLoss : v == Value::kLoss ? Value::kWin : v;
}

struct Line {
  Position position;
  Value value;
  int remoteness;
  int best_move;  // kNoMove once the game is over
};

std::vector<Line> SampleLines(const Game& game, const std::string& text) {
  std::vector<Line> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (line[0] == '#') continue;
    const std::vector<absl::string_view> f = absl::StrSplit(line, ' ');
    EXPECT_EQ(f.size(), 4u) << line;
    if (f.size() != 4) continue;
    absl::StatusOr<Position> p = game.Parse(f[0]);
    EXPECT_TRUE(p.ok()) << line;
    const Value value = f[1] == "win"    ? Value::kWin
                        : f[1] == "loss" ? Value::kLoss
                                         : Value::kDraw;
    EXPECT_TRUE(f[1] == "win" || f[1] == "draw" || f[1] == "loss") << line;
    Line l{p.value_or(Position{}), value, -1, kNoMove};
    EXPECT_TRUE(absl::SimpleAtoi(f[2], &l.remoteness)) << line;
    if (f[3] != "none") {
      EXPECT_TRUE(absl::SimpleAtoi(f[3], &l.best_move)) << line;
    }
    lines.push_back(l);
  }
  return lines;
}

// Every committed sample: 10,000 lines for a big table, each position
// reachable, and each answer with at most `empty` empty cells equal to the
// live search's, its best move a legal one that keeps the value.
TEST(SampleCheckTest, EveryAnswerTheSearchReachesAgrees) {
  for (const char* file : {"6x4k4.txt", "5x5k4.txt", "6x6k4g.txt", "7x5k4g.txt",
                           "4x4k4.txt", "5x4k4g.txt"}) {
    SCOPED_TRACE(file);
    const std::string text = Read(Runfile(std::string("data/samples/") + file));
    if (text.empty()) continue;  // not drawn yet (docs/results.md)
    const Game game = *Game::Create(SampleGame(text));
    const std::vector<Line> lines = SampleLines(game, text);
    const bool twin = game.cells() <= 20;
    EXPECT_EQ(lines.size(), twin ? 1000u : 10000u);
    AlphaBetaSearch search(game, 22);
    int checked = 0;
    for (const Line& l : lines) {
      if (game.cells() - l.position.stones() > (twin ? 12 : 10)) continue;
      const SearchResult r = search.Search(l.position);
      ASSERT_EQ(r.value, l.value) << game.Format(l.position);
      ASSERT_EQ(r.remoteness, l.remoteness) << game.Format(l.position);
      if (game.IsTerminal(l.position)) {
        EXPECT_EQ(l.best_move, kNoMove);
        continue;
      }
      ASSERT_TRUE(game.LegalMask(l.position) >> l.best_move & 1);
      const SearchResult after =
          search.Search(Game::Play(l.position, l.best_move));
      EXPECT_EQ(after.value, Opposite(l.value)) << game.Format(l.position);
      EXPECT_EQ(after.remoteness, l.remoteness - 1);
      ++checked;
    }
    EXPECT_GT(checked, twin ? 300 : 1000);
  }
}

// The twins drawn again from their tables: the committed files exactly.
TEST(SampleCheckTest, TheTwinsAreDrawnAndWrittenTheSameWay) {
  for (const char* stem : {"4x4k4", "5x4k4g"}) {
    SCOPED_TRACE(stem);
    absl::StatusOr<Table> table =
        Table::Load(Runfile(std::string("data/") + stem + ".mnk"));
    ASSERT_TRUE(table.ok()) << table.status();
    absl::StatusOr<std::string> drawn = TableSample(*table, 1000, 1);
    ASSERT_TRUE(drawn.ok()) << drawn.status();
    const std::vector<std::string> want = absl::StrSplit(
        Read(Runfile(std::string("data/samples/") + stem + ".txt")), '\n');
    const std::vector<std::string> got = absl::StrSplit(*drawn, '\n');
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], want[i]) << "line " << i + 1;
    }
  }
}

}  // namespace
}  // namespace mnk
