#include "serve/server.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "search/connect.h"
#include "table/table.h"
#include "tools/cpp/runfiles/runfiles.h"

namespace mnk {
namespace {

using bazel::tools::cpp::runfiles::Runfiles;

std::string Runfile(const std::string& name) {
  std::unique_ptr<Runfiles> runfiles(Runfiles::CreateForTest());
  return runfiles->Rlocation("mnk/" + name);
}

Table TicTacToe() { return *Table::Load(Runfile("data/3x3k3.mnk")); }

std::string TempDir(const std::string& name) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/" + name;
  mkdir(dir.c_str(), 0755);
  return dir;
}

TEST(CatalogTest, ListsTheGames) {
  Catalog games;
  ASSERT_TRUE(games.Add(AnswerSource::Of(TicTacToe(), "3x3k3.mnk")).ok());
  const nlohmann::json list = nlohmann::json::parse(games.GamesJson());
  ASSERT_EQ(list.size(), 1);
  EXPECT_EQ(list[0]["id"], "3x3k3");
  EXPECT_EQ(list[0]["name"], "3,3,3");
  EXPECT_EQ(list[0]["width"], 3);
  EXPECT_EQ(list[0]["k"], 3);
  EXPECT_EQ(list[0]["gravity"], false);
  EXPECT_EQ(list[0]["misere"], false);
  EXPECT_EQ(list[0]["cells"], 9);
  EXPECT_EQ(list[0]["reachable"], 5478);
  EXPECT_EQ(list[0]["layout"], "full");
}

// Connect Four 7x6 by search alone (no book): `searches` at once, each
// answer visiting at most `max_nodes` positions (0: no limit).
std::unique_ptr<AnswerSource> Searched(int searches, uint64_t max_nodes) {
  SourceOptions options;
  options.builtin = false;
  options.search_memory = uint64_t{1} << 20 << searches;
  options.searches = searches;
  options.max_nodes = max_nodes;
  return *AnswerSource::Open(GameSpec{7, 6, 4, true}, options);
}

// Connect Four 7x6 by search: listed as such, answered within the budget,
// 503 past it; a second search of the same game is refused.
TEST(CatalogTest, ServesAGameBySearch) {
  Catalog games;
  ASSERT_TRUE(games.Add(Searched(1, /*max_nodes=*/100000)).ok());
  EXPECT_EQ(games.Add(Searched(1, 100000)).code(),
            absl::StatusCode::kAlreadyExists);
  const nlohmann::json list = nlohmann::json::parse(games.GamesJson());
  ASSERT_EQ(list.size(), 1);
  EXPECT_EQ(list[0]["id"], "7x6k4g");
  EXPECT_EQ(list[0]["layout"], "search");
  EXPECT_TRUE(list[0]["reachable"].is_null());
  EXPECT_EQ(list[0]["table_bytes"], 0);
  const std::string position =
      "......./......./...O.../..XX.O./.OOXXX./OXXOOXO";
  EXPECT_TRUE(games.NeedsSearch("7x6k4g", position));
  const Reply late = games.PositionReply("7x6k4g", position);
  EXPECT_EQ(late.status, 200);
  EXPECT_EQ(nlohmann::json::parse(late.body)["best_move"], 16);
  const Reply early = games.PositionReply("7x6k4g", std::string(42, '.'));
  EXPECT_EQ(early.status, 503);
  EXPECT_NE(early.body.find("takes more than 100000 positions of search"),
            std::string::npos);
  // A game over, a bad position: no search.
  EXPECT_FALSE(games.NeedsSearch("7x6k4g",
                                 "......./......./......./"
                                 "......./OOO..../XXXX..."));
  EXPECT_FALSE(games.NeedsSearch("7x6k4g", "XXXX"));
}

// A search told to stop from another thread ends at once with a 503, and
// several answers search at once, one search each.
TEST(CatalogTest, SearchesAreCancelledAndShared) {
  Catalog games;
  ASSERT_TRUE(games.Add(Searched(2, 0)).ok());
  std::atomic<bool> cancel{false};
  std::thread stopper([&] {
    absl::SleepFor(absl::Milliseconds(200));
    cancel.store(true);
  });
  const absl::Time start = absl::Now();
  const Reply stopped =
      games.PositionReply("7x6k4g", std::string(42, '.'), &cancel);
  stopper.join();
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  EXPECT_EQ(stopped.status, 503);
  EXPECT_NE(stopped.body.find("was cancelled"), std::string::npos);
  const std::string position =
      "......./......./...O.../..XX.O./.OOXXX./OXXOOXO";
  const std::string want = games.PositionReply("7x6k4g", position).body;
  std::vector<std::thread> askers;
  std::vector<std::string> got(4);
  for (int i = 0; i < 4; ++i) {
    askers.emplace_back(
        [&, i] { got[i] = games.PositionReply("7x6k4g", position).body; });
  }
  for (std::thread& t : askers) t.join();
  for (const std::string& body : got) EXPECT_EQ(body, want);
}

TEST(CatalogTest, AnswersAPositionAsPlayDoes) {
  Catalog games;
  ASSERT_TRUE(games.Add(AnswerSource::Of(TicTacToe(), "3x3k3.mnk")).ok());
  const Reply r = games.PositionReply("3x3k3", "X.O/X.X/OO.");
  ASSERT_EQ(r.status, 200) << r.body;
  const nlohmann::json j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["position"], "X.O/X.X/OO.");
  EXPECT_EQ(j["to_move"], "X");
  EXPECT_EQ(j["value"], "win");
  EXPECT_EQ(j["remoteness"], 1);
  EXPECT_EQ(j["best_move"], 4);  // completes the middle row
  EXPECT_EQ(j["moves"].size(), 3);
}

TEST(CatalogTest, AnswersTheBestLineAndTheTree) {
  Catalog games;
  ASSERT_TRUE(games.Add(AnswerSource::Of(TicTacToe(), "3x3k3.mnk")).ok());
  Reply r = games.PvReply("3x3k3", "XO./.X./...");
  ASSERT_EQ(r.status, 200) << r.body;
  // O blocks, X forks with 3, O blocks one threat, X completes the other.
  EXPECT_EQ(r.body, "{\"pv\":[8,3,2,5],\"complete\":true}\n");
  r = games.PvReply("3x3k3", "XXX/OO./...");  // over: the line is empty
  EXPECT_EQ(r.body, "{\"pv\":[],\"complete\":true}\n");
  r = games.TreeReply("3x3k3", "XO./.X./..O", "2");
  ASSERT_EQ(r.status, 200) << r.body;
  const nlohmann::json tree = nlohmann::json::parse(r.body);
  EXPECT_EQ(tree["children"].size(), 5);
  EXPECT_EQ(tree["children"][0]["cell"], 2);
  EXPECT_EQ(tree["children"][0]["children"].size(), 4);
  r = games.TreeReply("3x3k3", ".........", "");  // depth 1
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(nlohmann::json::parse(r.body)["children"].size(), 9);
  EXPECT_EQ(games.TreeReply("3x3k3", ".........", "x").status, 400);
  EXPECT_EQ(games.TreeReply("3x3k3", ".........", "65").status, 400);
  EXPECT_EQ(games.TreeReply("3x3k3", ".........", "9").status, 400);  // nodes
  EXPECT_EQ(games.PvReply("3x3k3", "XXX/.../...").status, 400);
  EXPECT_EQ(games.PvReply("nope", ".........").status, 404);
}

TEST(CatalogTest, ChoosesAMoveAtALevel) {
  Catalog games;
  ASSERT_TRUE(games.Add(AnswerSource::Of(TicTacToe(), "3x3k3.mnk")).ok());
  const auto json = [](const Reply& r) {
    return nlohmann::json::parse(r.body);
  };
  // Level 10 by default: O must block at 8.
  Reply r = games.ChooseReply("3x3k3", "XO./.X./...", {});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, "{\"cell\":8,\"position\":\"XO./.X./..O\"}\n");
  // A seeded level 1 plays one of the six empty cells, the same each time,
  // and the seeds between them reach every one.
  std::set<int> cells;
  for (int seed = 0; seed < 200; ++seed) {
    const std::string seed_text = absl::StrCat(seed);
    const Catalog::Choice random{"1", seed_text, ""};
    r = games.ChooseReply("3x3k3", "XO./.X./...", random);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, games.ChooseReply("3x3k3", "XO./.X./...", random).body);
    cells.insert(json(r)["cell"].get<int>());
  }
  EXPECT_EQ(cells, (std::set<int>{2, 3, 5, 6, 7, 8}));
  // vary: the empty board's perfect moves are every cell (all draws in 9).
  cells.clear();
  for (int seed = 0; seed < 200; ++seed) {
    r = games.ChooseReply("3x3k3", ".../.../...",
                          {"10", absl::StrCat(seed), "true"});
    ASSERT_EQ(r.status, 200) << r.body;
    cells.insert(json(r)["cell"].get<int>());
  }
  EXPECT_EQ(cells.size(), 9);
  const std::pair<Catalog::Choice, const char*> bad[] = {
      {{"0", "", ""}, "level 0: expected"},
      {{"11", "", ""}, "level 11: expected"},
      {{"x", "", ""}, "level 'x': expected a whole number from 1"},
      {{"5", "-1", ""}, "seed '-1': expected a whole number from 0"},
      {{"5", "", "yes"}, "vary 'yes': expected true or false"},
  };
  for (const auto& [choice, message] : bad) {
    r = games.ChooseReply("3x3k3", "XO./.X./...", choice);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(json(r)["error"].get<std::string>().rfind(message, 0), 0)
        << r.body;
  }
  EXPECT_EQ(games.ChooseReply("3x3k3", "XXX/OO./...", {}).status, 400);
  EXPECT_EQ(games.ChooseReply("nope", ".../.../...", {}).status, 404);
}

TEST(CatalogTest, RefusesBadInput) {
  Catalog games;
  ASSERT_TRUE(games.Add(AnswerSource::Of(TicTacToe(), "3x3k3.mnk")).ok());
  Reply r = games.PositionReply("9x9k5", ".........");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(nlohmann::json::parse(r.body)["error"],
            "no game '9x9k5': expected one of 3x3k3");
  r = games.PositionReply("3x3k3", "XXX/.../...");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(nlohmann::json::parse(r.body)["error"].get<std::string>().find(
                "position 'XXX/.../...': "),
            std::string::npos)
      << r.body;
  r = games.PositionReply("3x3k3", "");
  EXPECT_EQ(r.status, 400);
  // Invalid UTF-8 never breaks the JSON.
  r = games.PositionReply("\xff\xfe", "");
  EXPECT_EQ(r.status, 404);
  EXPECT_TRUE(nlohmann::json::parse(r.body).contains("error"));
}

TEST(CatalogTest, OneTableAGame) {
  Catalog games;
  ASSERT_TRUE(games.Add(AnswerSource::Of(TicTacToe(), "a.mnk")).ok());
  EXPECT_EQ(games.Add(AnswerSource::Of(TicTacToe(), "b.mnk")).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_TRUE(
      games.Add(AnswerSource::Of(TicTacToe(), "b.mnk"), /*replace=*/true).ok());
  EXPECT_EQ(games.size(), 1);
}

TEST(CatalogTest, AddsAFolder) {
  const std::string dir = TempDir("tables");
  {
    std::ifstream in(Runfile("data/3x3k3.mnk"), std::ios::binary);
    std::ofstream out(dir + "/a.mnk", std::ios::binary);
    out << in.rdbuf();
    std::ofstream(dir + "/notes.txt") << "not a table, not read";
  }
  Catalog games;
  ASSERT_TRUE(games.Add(AnswerSource::Of(TicTacToe(), "built-in")).ok());
  ASSERT_TRUE(games.AddDirectory(dir).ok());
  EXPECT_EQ(games.size(), 1);  // replaced the built-in one

  // Two files of one game in the folder.
  {
    std::ifstream in(dir + "/a.mnk", std::ios::binary);
    std::ofstream out(dir + "/b.mnk", std::ios::binary);
    out << in.rdbuf();
  }
  EXPECT_EQ(Catalog().AddDirectory(dir).code(),
            absl::StatusCode::kAlreadyExists);

  // A corrupt table stops it, naming the file.
  std::ofstream(dir + "/b.mnk") << "MNKTABLE and nothing else";
  const absl::Status s = Catalog().AddDirectory(dir);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("b.mnk"), std::string::npos) << s;

  EXPECT_EQ(Catalog().AddDirectory(dir + "/missing").code(),
            absl::StatusCode::kNotFound);

  // An opening book is no table: refused as play refuses it.
  const std::string books = TempDir("books");
  {
    std::ifstream in(Runfile("data/7x6k4g-opening.mnk"), std::ios::binary);
    std::ofstream out(books + "/7x6k4g.mnk", std::ios::binary);
    out << in.rdbuf();
  }
  const absl::Status book = Catalog().AddDirectory(books);
  EXPECT_EQ(book.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(book.message().find("is an opening book, not a table"),
            std::string::npos)
      << book;
  EXPECT_EQ(Catalog().AddDirectory(dir + "/a.mnk").code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(StaticFilesTest, ServesOnlyThePageFiles) {
  const std::string index = Runfile("serve/web/index.html");
  absl::StatusOr<StaticFiles> web =
      StaticFiles::Load(index.substr(0, index.rfind('/')));
  ASSERT_TRUE(web.ok()) << web.status();
  const StaticFiles::File* f = web->Find("/");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->content_type, "text/html; charset=utf-8");
  EXPECT_EQ(f->bytes.rfind("<!doctype html>", 0), 0);
  EXPECT_EQ(web->Find("/index.html"), f);
  EXPECT_EQ(web->Find("/../BUILD"), nullptr);
  EXPECT_EQ(web->Find("/../../data/3x3k3.mnk"), nullptr);
  EXPECT_EQ(web->Find("index.html"), nullptr);
  EXPECT_EQ(web->Find(""), nullptr);

  EXPECT_EQ(StaticFiles::Load(TempDir("empty")).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace mnk
