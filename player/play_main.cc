// play: the perfect opponent and position oracle, answering from a table.
//
//   bazel run //player:play                          # a game of tic-tac-toe
//   bazel run //player:play -- --first=ai --mark=O
//   bazel run //player:play -- --position=X.O/X.X/OO. --json
//   printf 'XO.......\n' | bazel run //player:play -- --batch
//   bazel run //player:play -- --table=/tmp/4x4k3.mnk
//
// Exit status: 0 done; 1 bad command line; 2 the --position is not a valid
// position; 3 the table is missing, unreadable, corrupt or for another game.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "player/player.h"
#include "table/table.h"
#include "tools/cpp/runfiles/runfiles.h"

ABSL_FLAG(std::string, table, "",
          "table file (default: the built-in table of the game)");
ABSL_FLAG(std::optional<int>, width, std::nullopt,
          "board width; the table must be for this game (default: the "
          "table's)");
ABSL_FLAG(std::optional<int>, height, std::nullopt, "board height");
ABSL_FLAG(std::optional<int>, k, std::nullopt, "stones in a row that win");
ABSL_FLAG(bool, gravity, false,
          "a Connect-style game (default: as the table says)");
ABSL_FLAG(bool, misere, false,
          "misère: whoever completes k in a row loses (default: as the table "
          "says)");
ABSL_FLAG(std::optional<std::string>, position, std::nullopt,
          "answer this position and exit (cells row-major from the top-left, "
          "X O or ., '/' between rows)");
ABSL_FLAG(bool, batch, false,
          "read one position a line from standard input, answer one a line");
ABSL_FLAG(bool, json, false, "answers as JSON objects");
ABSL_FLAG(std::string, first, "human", "who moves first: human or ai");
ABSL_FLAG(std::string, mark, "X", "the mark the person plays: X or O");

namespace mnk {
namespace {

using bazel::tools::cpp::runfiles::Runfiles;

constexpr int kUsage = 1, kBadPosition = 2, kBadTable = 3;

int Fail(int code, absl::string_view message) {
  std::fprintf(stderr, "play: %.*s\n", static_cast<int>(message.size()),
               message.data());
  return code;
}

// Whether --gravity / --nogravity (--misere / --nomisere) was on the command
// line: a bool flag cannot say so itself, and a table's own setting is the
// default.
bool gravity_given = false;
bool misere_given = false;

int Main(const char* argv0) {
  const std::string first = absl::GetFlag(FLAGS_first);
  const std::string mark = absl::GetFlag(FLAGS_mark);
  if (first != "human" && first != "ai") {
    return Fail(kUsage,
                absl::StrCat("--first=", first, ": expected human or ai"));
  }
  if (mark != "X" && mark != "O" && mark != "x" && mark != "o") {
    return Fail(kUsage, absl::StrCat("--mark=", mark, ": expected X or O"));
  }
  if (absl::GetFlag(FLAGS_batch) && absl::GetFlag(FLAGS_position)) {
    return Fail(kUsage, "--batch and --position cannot be used together");
  }

  // The game asked for: the flags given, the rest from the table (or from
  // tic-tac-toe when there is no --table).
  const std::optional<int> width = absl::GetFlag(FLAGS_width);
  const std::optional<int> height = absl::GetFlag(FLAGS_height);
  const std::optional<int> k = absl::GetFlag(FLAGS_k);
  const std::optional<bool> gravity =
      gravity_given ? std::optional<bool>(absl::GetFlag(FLAGS_gravity))
                    : std::nullopt;
  const std::optional<bool> misere =
      misere_given ? std::optional<bool>(absl::GetFlag(FLAGS_misere))
                   : std::nullopt;
  auto asked = [&](const GameSpec& rest) {
    return GameSpec{width.value_or(rest.width), height.value_or(rest.height),
                    k.value_or(rest.k), gravity.value_or(rest.gravity),
                    misere.value_or(rest.misere)};
  };
  std::string path = absl::GetFlag(FLAGS_table);
  if (path.empty()) {
    const GameSpec spec = asked(GameSpec());
    if (absl::Status s = Game::Create(spec).status(); !s.ok()) {
      return Fail(kUsage, s.message());
    }
    std::string error;
    std::unique_ptr<Runfiles> runfiles(Runfiles::Create(argv0, &error));
    const std::string name = absl::StrCat("mnk/data/", spec.FileStem(), ".mnk");
    if (runfiles != nullptr) path = runfiles->Rlocation(name);
    if (path.empty() || access(path.c_str(), F_OK) != 0) {
      return Fail(kBadTable,
                  absl::StrCat("no built-in table for ", spec.Name(),
                               ": make one with `bazel run //solver:solve -- "
                               "--width=",
                               spec.width, " --height=", spec.height, " --k=",
                               spec.k, spec.gravity ? " --gravity" : "",
                               spec.misere ? " --misere" : "",
                               " --out=FILE` and pass --table=FILE"));
    }
  }
  absl::StatusOr<Table> table = Table::Load(path);
  if (!table.ok()) return Fail(kBadTable, table.status().message());
  if (absl::Status s = table->ExpectGame(asked(table->game().spec()), path);
      !s.ok()) {
    return Fail(kBadTable, s.message());
  }
  const bool json = absl::GetFlag(FLAGS_json);

  if (const std::optional<std::string> text = absl::GetFlag(FLAGS_position)) {
    absl::StatusOr<Position> p = table->game().Parse(*text);
    if (!p.ok()) {
      return Fail(kBadPosition, absl::StrCat("--position=", *text, ": ",
                                             p.status().message()));
    }
    absl::StatusOr<Analysis> a = Analyze(*table, *p);
    if (!a.ok()) return Fail(kBadTable, a.status().message());
    std::cout << (json ? AnalysisJson(table->game(), *a)
                       : AnalysisText(table->game(), *a));
    return 0;
  }
  if (absl::GetFlag(FLAGS_batch)) {
    std::ios::sync_with_stdio(false);
    std::string line;
    bool too_long;
    while (ReadLine(std::cin, &line, &too_long)) {
      std::cout << AnswerLine(*table, line, json, too_long);
      std::cout.flush();
    }
    return 0;
  }
  GameOptions options;
  options.human_first = first == "human";
  options.human_mark = static_cast<char>(std::toupper(mark[0]));
  return PlayGame(*table, options, std::cin, std::cout);
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "plays or answers positions of an m,n,k game from its table: play "
      "[--table=FILE] [--misere] [--first=human|ai] [--mark=X|O] [--position=P "
      "[--json]] "
      "[--batch [--json]]");
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") break;
    auto given = [&](absl::string_view flag) {
      for (absl::string_view dashes : {"--", "-"}) {
        for (absl::string_view no : {"", "no"}) {
          const std::string name = absl::StrCat(dashes, no, flag);
          if (arg == name || absl::StartsWith(arg, absl::StrCat(name, "="))) {
            return true;
          }
        }
      }
      return false;
    };
    mnk::gravity_given |= given("gravity");
    mnk::misere_given |= given("misere");
  }
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    std::fprintf(stderr, "play: unexpected argument '%s'; see --help\n",
                 rest[1]);
    return 1;
  }
  return mnk::Main(argv[0]);
}
