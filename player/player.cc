#include "player/player.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace mnk {
namespace {

std::string Remoteness(int remoteness, absl::string_view unknown) {
  return remoteness == kUnknownRemoteness ? std::string(unknown)
                                          : absl::StrCat(remoteness);
}

char SideName(const Position& p) { return p.side_to_move() == 0 ? 'X' : 'O'; }

int Digits(int n) { return n >= 10 ? 1 + Digits(n / 10) : 1; }

const MoveEval* FindMove(const Analysis& a, int cell) {
  for (const MoveEval& m : a.moves) {
    if (m.cell == cell) return &m;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<Analysis> Analyze(const Table& table, const Position& p) {
  Analysis a;
  a.position = p;
  absl::StatusOr<Record> record = table.Probe(p);
  if (!record.ok()) return record.status();
  a.record = *record;
  for (int cell : table.game().LegalMoves(p)) {
    absl::StatusOr<Record> child = table.Probe(Game::Play(p, cell));
    if (!child.ok()) return child.status();
    a.moves.push_back({cell, Negate(child->value),
                       child->remoteness == kUnknownRemoteness
                           ? kUnknownRemoteness
                           : child->remoteness + 1});
  }
  return a;
}

std::string Outcome(Value value, int remoteness) {
  if (remoteness == kUnknownRemoteness) return std::string(ValueName(value));
  if (remoteness == 0) return value == Value::kLoss ? "lost" : "drawn";
  return absl::StrCat(ValueName(value), " in ", remoteness);
}

std::string AnalysisText(const Game& game, const Analysis& a) {
  const bool gravity = game.spec().gravity;
  std::string text =
      absl::StrCat("position    ", game.Format(a.position), "\nto move     ",
                   std::string(1, SideName(a.position)), "\n");
  absl::StrAppend(
      &text, "value       ", Outcome(a.record.value, a.record.remoteness),
      a.record.remoteness == kUnknownRemoteness
          ? " (a compact table: remoteness not stored)\n"
          : absl::StrCat(" (remoteness ", a.record.remoteness, ")\n"));
  if (a.record.best_move == kNoMove) {
    absl::StrAppend(&text, "best move   none: the game is over\n");
    return text;
  }
  absl::StrAppend(&text, "best move   ", a.record.best_move,
                  gravity ? absl::StrCat(" (column ",
                                         a.record.best_move % game.width(), ")")
                          : "",
                  "\nmoves\n");
  for (const MoveEval& m : a.moves) {
    absl::StrAppendFormat(
        &text, "  %s%-*d  %s%s\n", gravity ? "column " : "cell ",
        Digits(game.cells() - 1), gravity ? m.cell % game.width() : m.cell,
        Outcome(m.value, m.remoteness),
        m.cell == a.record.best_move ? "  <- best" : "");
  }
  return text;
}

std::string AnalysisJson(const Game& game, const Analysis& a) {
  const bool gravity = game.spec().gravity;
  const int m = game.width();
  std::string best =
      a.record.best_move == kNoMove ? "null" : absl::StrCat(a.record.best_move);
  if (gravity) {
    absl::StrAppend(&best, ",\"best_column\":",
                    a.record.best_move == kNoMove
                        ? "null"
                        : absl::StrCat(a.record.best_move % m));
  }
  std::vector<std::string> moves;
  for (const MoveEval& e : a.moves) {
    moves.push_back(absl::StrCat(
        "{\"move\":", e.cell,
        gravity ? absl::StrCat(",\"column\":", e.cell % m) : "",
        ",\"value\":\"", ValueName(e.value),
        "\",\"remoteness\":", Remoteness(e.remoteness, "null"), "}"));
  }
  return absl::StrCat(
      "{\"position\":\"", game.Format(a.position), "\",\"to_move\":\"",
      std::string(1, SideName(a.position)), "\",\"value\":\"",
      ValueName(a.record.value),
      "\",\"remoteness\":", Remoteness(a.record.remoteness, "null"),
      ",\"best_move\":", best, ",\"moves\":[", absl::StrJoin(moves, ","),
      "]}\n");
}

std::string AnalysisLine(const Game& game, const Analysis& a) {
  std::vector<std::string> moves;
  for (const MoveEval& e : a.moves) {
    moves.push_back(absl::StrCat(e.cell, ":", ValueName(e.value), ":",
                                 Remoteness(e.remoteness, "unknown")));
  }
  return absl::StrCat(
      "position=", game.Format(a.position),
      " to_move=", std::string(1, SideName(a.position)),
      " value=", ValueName(a.record.value),
      " remoteness=", Remoteness(a.record.remoteness, "unknown"), " best_move=",
      a.record.best_move == kNoMove ? "none" : absl::StrCat(a.record.best_move),
      " moves=", moves.empty() ? "none" : absl::StrJoin(moves, ","), "\n");
}

std::string JsonQuote(absl::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = text[i];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c < 0x20 || c >= 0x7f) {
      absl::StrAppendFormat(&out, "\\u%04x", c);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string AnswerLine(const Table& table, absl::string_view line, bool json,
                       bool too_long) {
  auto error = [&](absl::string_view message) {
    constexpr size_t kEcho = 64;
    const std::string input = line.size() > kEcho
                                  ? absl::StrCat(line.substr(0, kEcho), "...")
                                  : std::string(line);
    return json ? absl::StrCat("{\"input\":", JsonQuote(input),
                               ",\"error\":", JsonQuote(message), "}\n")
                : absl::StrCat("error: ", message, "\n");
  };
  if (too_long) {
    return error(absl::StrCat("line is longer than ", kMaxLineBytes,
                              " bytes: expected a position"));
  }
  if (line.empty()) return error("empty line: expected a position");
  if (line.back() == '\r') {
    return error(
        "line ends with a carriage return (CRLF): expected '\\n' line ends");
  }
  absl::StatusOr<Position> p = table.game().Parse(line);
  if (!p.ok()) return error(p.status().message());
  absl::StatusOr<Analysis> a = Analyze(table, *p);
  if (!a.ok()) return error(a.status().message());
  return json ? AnalysisJson(table.game(), *a) : AnalysisLine(table.game(), *a);
}

bool ReadLine(std::istream& in, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  bool any = false;
  char c;
  while (in.get(c)) {
    any = true;
    if (c == '\n') return true;
    if (line->size() < kMaxLineBytes) {
      line->push_back(c);
    } else {
      *too_long = true;
    }
  }
  return any;
}

std::string DrawBoard(const Game& game, const Position& p,
                      const char marks[2]) {
  const char x = marks != nullptr ? marks[0] : 'X';
  const char o = marks != nullptr ? marks[1] : 'O';
  const int m = game.width(), n = game.height();
  const bool gravity = game.spec().gravity;
  const int w = gravity ? Digits(m - 1) : Digits(game.cells() - 1);
  std::string text;
  for (int row = 0; row < n; ++row) {
    if (row > 0 && !gravity) {
      std::string rule;
      for (int col = 0; col < m; ++col) {
        absl::StrAppend(&rule, col > 0 ? "+" : "", std::string(w + 2, '-'));
      }
      absl::StrAppend(&text, rule, "\n");
    }
    std::string line = gravity ? " |" : "";
    for (int col = 0; col < m; ++col) {
      const int cell = row * m + col;
      std::string mark = (p.x >> cell & 1)   ? std::string(1, x)
                         : (p.o >> cell & 1) ? std::string(1, o)
                         : gravity           ? "."
                                             : absl::StrCat(cell);
      absl::StrAppend(&line, gravity || col == 0 ? " " : "| ",
                      std::string(w - mark.size(), ' '), mark,
                      gravity ? " |" : " ");
    }
    absl::StrAppend(&text, absl::StripTrailingAsciiWhitespace(line), "\n");
  }
  if (gravity) {
    // Each column is " " + mark + " |", after a 2-character margin " |".
    std::string labels = "  ";
    for (int col = 0; col < m; ++col) {
      absl::StrAppendFormat(&labels, " %*d  ", w, col);
    }
    absl::StrAppend(&text, absl::StripTrailingAsciiWhitespace(labels), "\n");
  }
  return text;
}

int PlayGame(const Table& table, const GameOptions& options, std::istream& in,
             std::ostream& out) {
  const Game& game = table.game();
  const bool gravity = game.spec().gravity;
  const char human = options.human_mark;
  const char ai = human == 'O' ? 'X' : 'O';
  // marks[0] draws the first player's stones.
  const char marks[2] = {options.human_first ? human : ai,
                         options.human_first ? ai : human};
  const int human_side = options.human_first ? 0 : 1;
  const std::string unit = gravity ? "column" : "cell";
  const int last_choice = gravity ? game.width() - 1 : game.cells() - 1;
  auto choice = [&](int cell) { return gravity ? cell % game.width() : cell; };

  out << game.spec().Name() << " against the perfect player: " << game.spec().k
      << " in a row wins. You play " << human << " and move "
      << (options.human_first ? "first" : "second") << ".\n"
      << "Type a " << unit << " number (0-" << last_choice
      << "), or hint, eval, help, quit.\n\n";
  Position p;
  std::string line;
  bool too_long = false;
  bool drawn = false;  // the board is on screen since the last move
  while (!game.IsTerminal(p)) {
    absl::StatusOr<Analysis> a = Analyze(table, p);
    if (!a.ok()) {
      out << "The table cannot answer this position: " << a.status().message()
          << "\n";
      return 0;
    }
    if (p.side_to_move() != human_side) {
      out << "I play " << unit << " " << choice(a->record.best_move) << ".\n";
      p = Game::Play(p, a->record.best_move);
      drawn = false;
      continue;
    }
    if (!drawn) out << DrawBoard(game, p, marks) << "\n";
    drawn = true;
    out << "Your move: " << std::flush;
    if (!ReadLine(in, &line, &too_long)) {
      out << "\nEnd of input: game abandoned.\n";
      return 0;
    }
    const std::string word =
        absl::AsciiStrToLower(absl::StripAsciiWhitespace(line));
    if (too_long) {
      out << "That line is too long. Type a " << unit << " number.\n";
    } else if (word == "quit" || word == "q" || word == "exit") {
      out << "Game abandoned.\n";
      return 0;
    } else if (word == "help" || word == "?") {
      out << "Type a " << unit << " number (0-" << last_choice
          << ") to play there; hint shows the best move; eval shows every "
             "move's value and remoteness (plies to the end with perfect "
             "play); quit ends the game.\n";
    } else if (word == "hint") {
      out << "Best move: " << unit << " " << choice(a->record.best_move) << " ("
          << Outcome(a->record.value, a->record.remoteness) << ").\n";
    } else if (word == "eval") {
      for (const MoveEval& e : a->moves) {
        out << "  " << unit << " " << choice(e.cell) << ": "
            << Outcome(e.value, e.remoteness)
            << (e.cell == a->record.best_move ? "  <- best" : "") << "\n";
      }
    } else {
      int number;
      if (word.empty() || !absl::SimpleAtoi(word, &number)) {
        out << "'" << absl::CHexEscape(line.substr(0, 64)) << "' is not a "
            << unit << " number or a command. Type help for help.\n";
        continue;
      }
      if (number < 0 || number > last_choice) {
        out << unit << " " << number << " is off the board: expected 0 to "
            << last_choice << ".\n";
        continue;
      }
      int cell = number;
      if (gravity) {
        absl::StatusOr<int> drop = game.DropCell(p, number);
        if (!drop.ok()) {
          out << drop.status().message() << ". Choose another column.\n";
          continue;
        }
        cell = *drop;
      } else if (FindMove(*a, cell) == nullptr) {
        out << "Cell " << cell << " is taken. Choose an empty cell.\n";
        continue;
      }
      p = Game::Play(p, cell);
      drawn = false;
    }
  }
  out << DrawBoard(game, p, marks) << "\n";
  if (!game.HasLine(p.last_mover())) {
    out << "Draw.\n";
  } else if (p.side_to_move() == human_side) {
    out << "I win.\n";
  } else {
    out << "You win.\n";
  }
  return 0;
}

}  // namespace mnk
