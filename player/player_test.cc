// The batch's hand-written answers against references built the plain way:
// JSON through nlohmann-json, the text line through absl::StrCat, for every
// position of each table (full, compressed without remoteness, gravity,
// misère), so that any difference of a byte shows.
#include "player/player.h"

#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "answer/answer.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "search/connect.h"
#include "store/write.h"
#include "table/table.h"
#include "tools/cpp/runfiles/runfiles.h"

namespace mnk {
namespace {

using Json = nlohmann::ordered_json;

Table Load(const std::string& name) {
  std::string error;
  std::unique_ptr<bazel::tools::cpp::runfiles::Runfiles> runfiles(
      bazel::tools::cpp::runfiles::Runfiles::CreateForTest(&error));
  absl::StatusOr<Table> table =
      Table::Load(runfiles->Rlocation("mnk/data/" + name));
  EXPECT_TRUE(table.ok()) << table.status();
  return *std::move(table);
}

// The same table in the compressed layout without remoteness: its answers
// say "remoteness":null and "unknown".
Table WithoutRemoteness(const Table& full) {
  absl::StatusOr<Table> t = Table::FromBytes(SerializeCompressedTable(
      full.game(), full.view(), full.reachable(), /*remoteness=*/false));
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

std::string ReferenceJson(const Game& game, const Analysis& a) {
  const GameSpec& spec = game.spec();
  auto plies = [](int r) {
    return r == kUnknownRemoteness ? Json(nullptr) : Json(r);
  };
  const bool over = a.record.best_move == kNoMove;
  Json j = {{"game",
             {{"width", spec.width},
              {"height", spec.height},
              {"k", spec.k},
              {"gravity", spec.gravity},
              {"misere", spec.misere}}},
            {"position", game.Format(a.position)},
            {"to_move", a.position.side_to_move() == 0 ? "X" : "O"},
            {"value", std::string(ValueName(a.record.value))},
            {"remoteness", plies(a.record.remoteness)},
            {"best_move", over ? Json(nullptr) : Json(a.record.best_move)}};
  if (spec.gravity) {
    j["best_column"] =
        over ? Json(nullptr) : Json(a.record.best_move % spec.width);
  }
  Json moves = Json::array();
  for (const MoveEval& e : a.moves) {
    Json m = {{"cell", e.cell}};
    if (spec.gravity) m["column"] = e.cell % spec.width;
    m["value"] = std::string(ValueName(e.value));
    m["remoteness"] = plies(e.remoteness);
    moves.push_back(m);
  }
  j["moves"] = moves;
  return j.dump() + "\n";
}

std::string ReferenceLine(const Game& game, const Analysis& a) {
  auto plies = [](int r) {
    return r == kUnknownRemoteness ? std::string("unknown") : absl::StrCat(r);
  };
  std::string moves;
  for (const MoveEval& e : a.moves) {
    absl::StrAppend(&moves, moves.empty() ? "" : ",", e.cell, ":",
                    ValueName(e.value), ":", plies(e.remoteness));
  }
  return absl::StrCat(
      "position=", game.Format(a.position),
      " to_move=", a.position.side_to_move() == 0 ? "X" : "O",
      " value=", ValueName(a.record.value),
      " remoteness=", plies(a.record.remoteness), " best_move=",
      a.record.best_move == kNoMove ? "none" : absl::StrCat(a.record.best_move),
      " moves=", moves.empty() ? "none" : moves, "\n");
}

// Every reachable position of the table's game, answered both ways; returns
// how many were compared.
int CompareAll(const Table& table) {
  const Game& game = table.game();
  int compared = 0;
  for (uint64_t i = 0; i < table.index().size(); ++i) {
    const Position p = table.index().At(i);
    if (!game.IsLegal(p) || !game.IsReachable(p)) continue;
    absl::StatusOr<Analysis> a = Analyze(table, p);
    if (!a.ok()) {
      ADD_FAILURE() << game.Format(p) << ": " << a.status();
      continue;
    }
    EXPECT_EQ(AnalysisJson(game, *a), ReferenceJson(game, *a));
    EXPECT_EQ(AnalysisLine(game, *a), ReferenceLine(game, *a));
    const std::string line = game.Format(p);
    EXPECT_EQ(AnswerLine(table, line, /*json=*/true), ReferenceJson(game, *a));
    ++compared;
  }
  return compared;
}

TEST(PlayerTest, AnswersMatchTheReferencesOnEveryPosition) {
  const Table tictactoe = Load("3x3k3.mnk");
  EXPECT_EQ(CompareAll(tictactoe), 5478);
  EXPECT_EQ(CompareAll(WithoutRemoteness(tictactoe)), 5478);
  EXPECT_EQ(CompareAll(Load("3x3k3m.mnk")), 5478);  // misère: the same boards
  EXPECT_EQ(CompareAll(Load("4x4k4g.mnk")), 161029);
}

TEST(PlayerTest, OneAnswerExactly) {
  const Table table = Load("3x3k3.mnk");
  EXPECT_EQ(AnswerLine(table, "X.O/X.X/OO.", /*json=*/true),
            "{\"game\":{\"width\":3,\"height\":3,\"k\":3,\"gravity\":false,"
            "\"misere\":false},\"position\":\"X.O/X.X/OO.\",\"to_move\":\"X\","
            "\"value\":\"win\",\"remoteness\":1,\"best_move\":4,\"moves\":["
            "{\"cell\":1,\"value\":\"loss\",\"remoteness\":2},"
            "{\"cell\":4,\"value\":\"win\",\"remoteness\":1},"
            "{\"cell\":8,\"value\":\"loss\",\"remoteness\":2}]}\n");
  EXPECT_EQ(AnswerLine(table, "X.O/X.X/OO.", /*json=*/false),
            "position=X.O/X.X/OO. to_move=X value=win remoteness=1 "
            "best_move=4 moves=1:loss:2,4:win:1,8:loss:2\n");
  EXPECT_EQ(AnswerLine(table, "XXX/OO./...", /*json=*/false),
            "position=XXX/OO./... to_move=O value=loss remoteness=0 "
            "best_move=none moves=none\n");
}

// Without a table, the exact search answers: the same bytes as the table's
// answers on every position of Connect-style 4x4, in both forms.
TEST(PlayerTest, TheSearchAnswersAsTheTableDoes) {
  const Table table = Load("4x4k4g.mnk");
  const Game& game = table.game();
  std::unique_ptr<ConnectSearch> search = *ConnectSearch::Create(game, {16});
  const Oracle searched(search.get());
  EXPECT_TRUE(searched.searches());
  int compared = 0;
  for (uint64_t i = 0; i < table.index().size(); ++i) {
    const Position p = table.index().At(i);
    if (!game.IsLegal(p) || !game.IsReachable(p)) continue;
    const std::string line = game.Format(p);
    for (const bool json : {true, false}) {
      ASSERT_EQ(AnswerLine(searched, line, json),
                AnswerLine(table, line, json));
    }
    // The best move alone (a game's question): the same record, no moves.
    const Analysis best = *searched.Analyze(p, {}, Need::kBestMove);
    const Record want = *table.Probe(p);
    ASSERT_EQ(best.record.value, want.value) << line;
    ASSERT_EQ(best.record.remoteness, want.remoteness) << line;
    ASSERT_EQ(best.record.best_move, want.best_move) << line;
    ASSERT_TRUE(best.moves.empty());
    ++compared;
  }
  EXPECT_EQ(compared, 161029);
  EXPECT_EQ(AnswerLine(searched, "..../..X./..../....", false),
            "error: stone at cell 6 is floating: with gravity every stone "
            "rests on the bottom row or on another stone\n");
}

// A whole game against the search reads as one against the table: the same
// moves, hints and evaluations.
TEST(PlayerTest, AGameAgainstTheSearchIsTheGameAgainstTheTable) {
  const Table table = Load("4x4k4g.mnk");
  const std::unique_ptr<AnswerSource> from_table =
      AnswerSource::Of(table, "4x4k4g.mnk");
  SourceOptions no_table;
  no_table.builtin = false;
  const std::unique_ptr<AnswerSource> searched =
      *AnswerSource::Open(table.game().spec(), no_table);
  ASSERT_TRUE(searched->searched());
  const std::string moves = "hint\neval\n1\n2\nhint\n0\n3\n1\n2\n0\n3\n";
  for (const bool human_first : {true, false}) {
    std::istringstream in1(moves), in2(moves);
    std::ostringstream with_table, with_search;
    GameOptions options;
    options.human_first = human_first;
    EXPECT_EQ(PlayGame(*from_table, options, in1, with_table), 0);
    EXPECT_EQ(PlayGame(*searched, options, in2, with_search), 0);
    EXPECT_EQ(with_search.str(), with_table.str());
    EXPECT_NE(with_table.str().find("I play column"), std::string::npos);
    EXPECT_NE(with_table.str().find("Best move: column"), std::string::npos);
  }
}

// Windows line ends are line ends, in a batch and in a game; an empty line
// in a game asks again.
TEST(PlayerTest, CrlfLinesAndEmptyLines) {
  std::istringstream in("X........\r\n\r\nXO.......\nX........\r");
  std::string line;
  bool too_long;
  ASSERT_TRUE(ReadLine(in, &line, &too_long));
  EXPECT_EQ(line, "X........");
  ASSERT_TRUE(ReadLine(in, &line, &too_long));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(ReadLine(in, &line, &too_long));
  EXPECT_EQ(line, "XO.......");
  ASSERT_TRUE(ReadLine(in, &line, &too_long));  // no '\n' at the end
  EXPECT_EQ(line, "X........");
  EXPECT_FALSE(ReadLine(in, &line, &too_long));

  const Table table = Load("3x3k3.mnk");
  std::istringstream crlf("4\r\n\r\n\n8\r\nquit\r\n");
  std::ostringstream out;
  EXPECT_EQ(PlayGame(*AnswerSource::Of(table, "3x3k3.mnk"), {}, crlf, out), 0);
  const std::string text = out.str();
  EXPECT_EQ(text.find("is not a cell number"), std::string::npos) << text;
  EXPECT_NE(text.find("Game abandoned."), std::string::npos) << text;
  // Both moves were played: the computer answered twice.
  size_t answers = 0;
  for (size_t at = text.find("I play"); at != std::string::npos;
       at = text.find("I play", at + 1)) {
    ++answers;
  }
  EXPECT_EQ(answers, 2u) << text;
}

// undo takes back the person's move and the reply; pv shows the best line
// to the end; each of the computer's moves says what it is worth.
TEST(PlayerTest, UndoPvAndTheComputersValue) {
  const Table table = Load("3x3k3.mnk");
  std::istringstream in("undo\npv\n4\nundo\nundo\nquit\n");
  std::ostringstream out;
  EXPECT_EQ(PlayGame(*AnswerSource::Of(table, "3x3k3.mnk"), {}, in, out), 0);
  const std::string text = out.str();
  EXPECT_NE(text.find("Nothing to undo: you have not moved yet.\nYour move"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Best line: cells 0 4 1 2 6 3 5 7 8 (draw in 9 for "
                      "you).\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("I play cell 0 (draw in 8 for me).\n"), std::string::npos)
      << text;
  const size_t undone = text.find("Took back your last move.\n");
  ASSERT_NE(undone, std::string::npos) << text;
  // The empty board again, then nothing left to undo.
  EXPECT_NE(text.find(DrawBoard(table.game(), Position(), "XO"), undone),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Nothing to undo", undone), std::string::npos) << text;
}

}  // namespace
}  // namespace mnk
