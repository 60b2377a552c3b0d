#include "player/player.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <optional>

#include "absl/numeric/bits.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "solver/game/game_json.h"

namespace mnk {
namespace {

// Text into JSON: valid UTF-8 stays as it is; invalid bytes become U+FFFD
// instead of an exception.
std::string Dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false,
                nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

char SideName(const Position& p) { return p.side_to_move() == 0 ? 'X' : 'O'; }

int Digits(int n) { return n >= 10 ? 1 + Digits(n / 10) : 1; }

}  // namespace

absl::StatusOr<Analysis> Analyze(const Table& table, const Position& p) {
  Analysis a;
  a.position = p;
  absl::StatusOr<Record> record = table.Probe(p);
  if (!record.ok()) return record.status();
  a.record = *record;
  a.moves.reserve(table.game().cells() - p.stones());
  for (Mask s = table.game().LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    absl::StatusOr<Record> child = table.Probe(Game::Play(p, cell));
    if (!child.ok()) return child.status();
    a.moves.push_back({cell, Negate(child->value),
                       child->remoteness == kUnknownRemoteness
                           ? kUnknownRemoteness
                           : child->remoteness + 1});
  }
  return a;
}

absl::StatusOr<Analysis> Oracle::Analyze(const Position& p,
                                         const Progress& progress,
                                         Need need) const {
  if (table_ != nullptr) return mnk::Analyze(*table_, p);
  if (std::optional<Analysis> a = FromBook(p)) return *std::move(a);
  const uint64_t budget = max_nodes_ == 0 ? ~uint64_t{0} : max_nodes_;
  std::optional<MoveAnalysis> within =
      need == Need::kBestMove
          ? search_->BestMoveWithin(p, budget, progress, cancel_)
          : search_->AnalyzeWithin(p, budget, progress, cancel_);
  if (!within.has_value() && cancel_ != nullptr && cancel_->load()) {
    return absl::CancelledError(
        absl::StrCat("the search of ", game().Format(p), " was cancelled"));
  }
  if (!within.has_value()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "solving ", game().Format(p), " takes more than ", max_nodes_,
        " positions of search, this answer's limit; positions further into "
        "the game take less"));
  }
  const MoveAnalysis& searched = *within;
  Analysis a;
  a.position = p;
  a.record = {searched.result.value, searched.result.remoteness,
              searched.best_move < 0 ? kNoMove : searched.best_move};
  for (const MoveResult& m : searched.moves) {
    a.moves.push_back({m.cell, m.value, m.remoteness});
  }
  return a;
}

bool Oracle::AnswersAtOnce(const Position& p) const {
  return table_ != nullptr || game().IsTerminal(p) || FromBook(p).has_value();
}

std::optional<Analysis> Oracle::FromBook(const Position& p) const {
  if (book_ == nullptr || book_->book() == nullptr) return std::nullopt;
  // The book answers p only with every move's outcome (else kNotFound; a
  // damaged page too leaves it to the search).
  absl::StatusOr<Record> record = book_->Probe(p);
  if (!record.ok()) return std::nullopt;
  const Game& game = search_->game();
  Analysis a;
  a.position = p;
  a.record = *record;
  for (Mask s = game.LegalMask(p); s != 0; s &= s - 1) {
    const int cell = absl::countr_zero(s);
    const Position child = Game::Play(p, cell);
    const std::optional<Value> end = game.Primitive(child);
    const std::optional<BookEntry> c =
        end ? BookEntry{*end, 0} : book_->book()->Find(child);
    if (!c.has_value()) return std::nullopt;
    a.moves.push_back({cell, Negate(c->value), c->remoteness + 1});
  }
  return a;
}

std::string ProgressLine(int done, int total, absl::Duration spent) {
  return absl::StrCat(
      "thinking: ", done, " of ", total, " moves done, ",
      absl::FormatDuration(absl::Trunc(spent, absl::Milliseconds(100))));
}

absl::StatusOr<Analysis> AnalyzeUnchanged(const Oracle& oracle,
                                          const Position& p,
                                          const Progress& progress, Need need) {
  if (absl::Status s = oracle.CheckUnchanged(); !s.ok()) return s;
  absl::StatusOr<Analysis> a = oracle.Analyze(p, progress, need);
  if (absl::Status s = oracle.CheckUnchanged(); !s.ok()) return s;
  return a;
}

std::string Outcome(Value value, int remoteness) {
  if (remoteness == kUnknownRemoteness) return std::string(ValueName(value));
  if (remoteness == 0) {
    return value == Value::kLoss  ? "lost"
           : value == Value::kWin ? "won"
                                  : "drawn";
  }
  return absl::StrCat(ValueName(value), " in ", remoteness);
}

std::string AnalysisText(const Game& game, const Analysis& a) {
  const bool gravity = game.spec().gravity;
  std::string text =
      absl::StrCat("position    ", game.Format(a.position), "\nto move     ",
                   std::string(1, SideName(a.position)), "\n");
  // The value as batch lines and JSON name it; then how far the end is.
  const int plies = a.record.remoteness;
  absl::StrAppend(&text, "value       ", ValueName(a.record.value),
                  plies == kUnknownRemoteness
                      ? " (remoteness unknown: this table does not store it)"
                  : plies == 0 ? " (the game is over)"
                               : absl::StrCat(" in ", plies),
                  "\n");
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

namespace {

// Answers are written into a buffer on the stack and appended at once: a
// batch formats thousands of them, and this was most of its time.
class AnswerWriter {
 public:
  void Put(absl::string_view text) {
    assert(w_ + text.size() <= buffer_ + sizeof(buffer_));
    std::memcpy(w_, text.data(), text.size());
    w_ += text.size();
  }
  void Put(char c) { *w_++ = c; }
  void Number(int n) {  // 0 to 999
    assert(n >= 0 && n <= 999);
    if (n >= 100) Put(static_cast<char>('0' + n / 100));
    if (n >= 10) Put(static_cast<char>('0' + n / 10 % 10));
    Put(static_cast<char>('0' + n % 10));
  }
  // n, or `word` when n is missing (JSON's null, the text line's unknown
  // or none).
  void NumberOr(bool missing, int n, absl::string_view word) {
    if (missing) {
      Put(word);
    } else {
      Number(n);
    }
  }
  void Board(const Game& game, const Position& p) {
    for (int cell = 0; cell < game.cells(); ++cell) {
      if (cell > 0 && cell % game.width() == 0) Put('/');
      Put((p.x >> cell & 1) ? 'X' : (p.o >> cell & 1) ? 'O' : '.');
    }
  }
  void AppendTo(std::string* out) const { out->append(buffer_, w_ - buffer_); }

 private:
  // The longest answer: a JSON object with 30 moves, about 2 KB.
  char buffer_[4096];
  char* w_ = buffer_;
};

}  // namespace

void AppendAnalysisJson(const Game& game, const Analysis& a, std::string* out) {
  // By hand rather than through nlohmann-json (4 us an answer): every string
  // here is a fixed word or a position of 'X', 'O', '.' and '/', which need
  // no escaping. player_test checks it against nlohmann-json's output.
  const GameSpec& spec = game.spec();
  const bool over = a.record.best_move == kNoMove;
  AnswerWriter w;
  w.Put("{\"game\":");
  w.Put(GameJsonText(spec));
  w.Put(",\"position\":\"");
  w.Board(game, a.position);
  w.Put(a.position.side_to_move() == 0 ? "\",\"to_move\":\"X\",\"value\":\""
                                       : "\",\"to_move\":\"O\",\"value\":\"");
  w.Put(ValueName(a.record.value));
  w.Put("\",\"remoteness\":");
  w.NumberOr(a.record.remoteness == kUnknownRemoteness, a.record.remoteness,
             "null");
  w.Put(",\"best_move\":");
  w.NumberOr(over, a.record.best_move, "null");
  if (spec.gravity) {
    w.Put(",\"best_column\":");
    w.NumberOr(over, a.record.best_move % spec.width, "null");
  }
  w.Put(",\"moves\":[");
  for (size_t i = 0; i < a.moves.size(); ++i) {
    const MoveEval& e = a.moves[i];
    w.Put(i > 0 ? ",{\"move\":" : "{\"move\":");
    w.Number(e.cell);
    if (spec.gravity) {
      w.Put(",\"column\":");
      w.Number(e.cell % spec.width);
    }
    w.Put(",\"value\":\"");
    w.Put(ValueName(e.value));
    w.Put("\",\"remoteness\":");
    w.NumberOr(e.remoteness == kUnknownRemoteness, e.remoteness, "null");
    w.Put('}');
  }
  w.Put("]}\n");
  w.AppendTo(out);
}

std::string AnalysisJson(const Game& game, const Analysis& a) {
  std::string out;
  AppendAnalysisJson(game, a, &out);
  return out;
}

void AppendAnalysisLine(const Game& game, const Analysis& a, std::string* out) {
  AnswerWriter w;
  auto remoteness = [&w](int plies) {
    w.NumberOr(plies == kUnknownRemoteness, plies, "unknown");
  };
  w.Put("position=");
  w.Board(game, a.position);
  w.Put(a.position.side_to_move() == 0 ? " to_move=X value="
                                       : " to_move=O value=");
  w.Put(ValueName(a.record.value));
  w.Put(" remoteness=");
  remoteness(a.record.remoteness);
  w.Put(" best_move=");
  w.NumberOr(a.record.best_move == kNoMove, a.record.best_move, "none");
  w.Put(" moves=");
  if (a.moves.empty()) w.Put("none");
  for (size_t i = 0; i < a.moves.size(); ++i) {
    const MoveEval& e = a.moves[i];
    if (i > 0) w.Put(',');
    w.Number(e.cell);
    w.Put(':');
    w.Put(ValueName(e.value));
    w.Put(':');
    remoteness(e.remoteness);
  }
  w.Put('\n');
  w.AppendTo(out);
}

std::string AnalysisLine(const Game& game, const Analysis& a) {
  std::string out;
  AppendAnalysisLine(game, a, &out);
  return out;
}

absl::Status AppendAnswerLine(const Oracle& oracle, absl::string_view line,
                              bool json, bool too_long, std::string* out) {
  auto error = [&](absl::string_view message) {
    constexpr size_t kEcho = 64;
    const std::string input = line.size() > kEcho
                                  ? absl::StrCat(line.substr(0, kEcho), "...")
                                  : std::string(line);
    out->append(json ? Dump({{"input", input}, {"error", std::string(message)}})
                     : absl::StrCat("error: ", message, "\n"));
    return absl::OkStatus();
  };
  if (too_long) {
    return error(absl::StrCat("line is longer than ", kMaxLineBytes,
                              " bytes: expected a position"));
  }
  if (line.empty()) return error("empty line: expected a position");
  absl::StatusOr<Position> p = oracle.game().Parse(line);
  if (!p.ok()) return error(p.status().message());
  absl::StatusOr<Analysis> a = oracle.Analyze(*p);
  if (!a.ok()) {
    error(a.status().message()).IgnoreError();
    return a.status();  // the table's fault, not the line's
  }
  if (json) {
    AppendAnalysisJson(oracle.game(), *a, out);
  } else {
    AppendAnalysisLine(oracle.game(), *a, out);
  }
  return absl::OkStatus();
}

std::string AnswerLine(const Oracle& oracle, absl::string_view line, bool json,
                       bool too_long) {
  std::string out;
  AppendAnswerLine(oracle, line, json, too_long, &out).IgnoreError();
  return out;
}

bool ReadLine(std::istream& in, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  // Straight from the stream buffer: istream::get would build a sentry a
  // character, a third of a batch's time.
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  for (;;) {
    const int c = in ? buffer->sbumpc() : std::char_traits<char>::eof();
    if (c == std::char_traits<char>::eof() || c == '\n') {
      // A Windows line end (CRLF) is a line end.
      if (!*too_long && !line->empty() && line->back() == '\r') {
        line->pop_back();
      }
      if (c == '\n') return true;
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (line->size() < kMaxLineBytes) {
      line->push_back(static_cast<char>(c));
    } else {
      *too_long = true;
    }
  }
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

namespace {

// One interactive game: the person's and the table's turns, and the
// commands, each in its own method.
class Session {
 public:
  Session(const Oracle& oracle, const GameOptions& options, std::istream& in,
          std::ostream& out)
      : oracle_(oracle),
        game_(oracle.game()),
        gravity_(game_.spec().gravity),
        human_(options.human_mark),
        human_side_(options.human_first ? 0 : 1),
        unit_(gravity_ ? "column" : "cell"),
        last_choice_(gravity_ ? game_.width() - 1 : game_.cells() - 1),
        in_(in),
        out_(out) {
    const char ai = human_ == 'O' ? 'X' : 'O';
    marks_[0] = options.human_first ? human_ : ai;  // the first player's
    marks_[1] = options.human_first ? ai : human_;
  }

  // Games until the person says no more (or input ends).
  int Run() {
    Introduce();
    for (;;) {
      if (const int status = PlayOne(); status != kPlayed) return status;
      out_ << "Play again? (y/n) " << std::flush;
      std::string line;
      bool too_long = false;
      if (!ReadLine(in_, &line, &too_long)) {
        out_ << "\n";
        return 0;
      }
      const std::string word =
          absl::AsciiStrToLower(absl::StripAsciiWhitespace(line));
      if (word != "y" && word != "yes") return 0;
      p_ = Position();
      drawn_ = false;
      out_ << "\n";
    }
  }

 private:
  static constexpr int kPlayed = -1;

  // One game from the empty board: kPlayed once it is over, else the status
  // Run() returns (0 when abandoned, kTableFailed).
  int PlayOne() {
    while (!game_.IsTerminal(p_)) {
      if (p_.side_to_move() != human_side_) {
        const Analysis* a = Current(Need::kBestMove);
        if (a == nullptr) return kTableFailed;
        out_ << "I play " << unit_ << " " << Choice(a->record.best_move)
             << ".\n";
        Move(a->record.best_move);
      } else if (!HumanTurn()) {
        return failed_ ? kTableFailed : 0;
      }
    }
    out_ << DrawBoard(game_, p_, marks_) << "\n" << Result() << "\n";
    return kPlayed;
  }

  int Choice(int cell) const { return gravity_ ? cell % game_.width() : cell; }

  // The answer for the position on the board, asked for once (the
  // person's turns ask only for hint and eval: a search may take seconds).
  // nullptr, with the reason written and failed_ set, when the table
  // cannot answer.
  const Analysis* Current(Need need) {
    if (analysis_ && analysis_->position == p_ &&
        (need == Need::kBestMove || !analysis_->moves.empty())) {
      return &*analysis_;
    }
    const absl::Time start = absl::Now();
    auto progress = [&](int done, int total) {
      const absl::Duration spent = absl::Now() - start;
      if (spent < absl::Seconds(1)) return;
      out_ << "  (" << ProgressLine(done, total, spent) << ")\n" << std::flush;
    };
    absl::StatusOr<Analysis> a = AnalyzeUnchanged(oracle_, p_, progress, need);
    if (!a.ok()) {
      out_ << "The table cannot answer this position: " << a.status().message()
           << "\n";
      failed_ = true;
      return nullptr;
    }
    analysis_ = *std::move(a);
    return &*analysis_;
  }

  void Move(int cell) {
    p_ = Game::Play(p_, cell);
    drawn_ = false;
  }

  std::string Rule() const {
    return absl::StrCat(game_.spec().k, " in a row ",
                        game_.spec().misere ? "loses" : "wins");
  }

  void Introduce() {
    out_ << game_.spec().Name() << " against the perfect player: " << Rule()
         << ". You play " << human_ << " and move "
         << (human_side_ == 0 ? "first" : "second") << ".\n"
         << "Type a " << unit_ << " number (0-" << last_choice_
         << "), or hint, eval, help, quit.\n\n";
  }

  // Reads and carries out one line; false when the game is abandoned (or
  // the table failed).
  bool HumanTurn() {
    if (!out_) return false;  // nobody can see the game any more
    if (!drawn_) out_ << DrawBoard(game_, p_, marks_) << "\n";
    drawn_ = true;
    out_ << "Your move: " << std::flush;
    std::string line;
    bool too_long = false;
    if (!ReadLine(in_, &line, &too_long)) {
      out_ << "\nEnd of input: game abandoned.\n";
      return false;
    }
    const std::string word =
        absl::AsciiStrToLower(absl::StripAsciiWhitespace(line));
    if (too_long) {
      out_ << "That line is too long. Type a " << unit_ << " number.\n";
    } else if (word.empty()) {
      // Nothing typed: the prompt again.
    } else if (word == "quit" || word == "q" || word == "exit") {
      out_ << "Game abandoned.\n";
      return false;
    } else if (word == "help" || word == "?") {
      out_ << "This is " << game_.spec().Name() << ": " << Rule() << ".\n"
           << "  a " << unit_ << " number (0-" << last_choice_
           << ")  play there\n"
           << "  hint  the best move\n"
           << "  eval  every move's value and remoteness (plies to the end "
              "with perfect play)\n"
           << "  quit  end the game\n";
    } else if (word == "hint" || word == "eval") {
      const Analysis* a =
          Current(word == "hint" ? Need::kBestMove : Need::kEveryMove);
      if (a == nullptr) return false;
      if (word == "hint") {
        out_ << "Best move: " << unit_ << " " << Choice(a->record.best_move)
             << " (" << Outcome(a->record.value, a->record.remoteness)
             << ").\n";
      } else {
        for (const MoveEval& e : a->moves) {
          out_ << "  " << unit_ << " " << Choice(e.cell) << ": "
               << Outcome(e.value, e.remoteness)
               << (e.cell == a->record.best_move ? "  <- best" : "") << "\n";
        }
      }
    } else {
      TryMove(word, line);
    }
    return true;
  }

  // A typed number: the move, or a message saying why it cannot be played.
  void TryMove(const std::string& word, const std::string& line) {
    int number;
    if (word.empty() || !absl::SimpleAtoi(word, &number)) {
      out_ << "'" << absl::CHexEscape(line.substr(0, 64)) << "' is not a "
           << unit_ << " number or a command. Type help for help.\n";
      return;
    }
    if (number < 0 || number > last_choice_) {
      out_ << unit_ << " " << number << " is off the board: expected 0 to "
           << last_choice_ << ".\n";
      return;
    }
    int cell = number;
    if (gravity_) {
      absl::StatusOr<int> drop = game_.DropCell(p_, number);
      if (!drop.ok()) {
        out_ << drop.status().message() << ". Choose another column.\n";
        return;
      }
      cell = *drop;
    } else if ((game_.LegalMask(p_) >> cell & 1) == 0) {
      out_ << "cell " << cell << " is taken. Choose an empty cell.\n";
      return;
    }
    Move(cell);
  }

  // "Draw.", "I win." or "You win.", from the rules' verdict on the side
  // to move.
  std::string Result() const {
    const Value end = *game_.Primitive(p_);
    if (end == Value::kDraw) return "Draw.";
    const bool human_won =
        (end == Value::kWin) == (p_.side_to_move() == human_side_);
    return human_won ? "You win." : "I win.";
  }

  const Oracle oracle_;
  const Game& game_;
  const bool gravity_;
  const char human_;
  const int human_side_;
  const std::string unit_;
  const int last_choice_;
  std::istream& in_;
  std::ostream& out_;
  char marks_[2];
  Position p_;
  std::optional<Analysis> analysis_;  // of p_ or of an earlier position
  bool failed_ = false;               // the table could not answer
  bool drawn_ = false;  // the board is on screen since the last move
};

}  // namespace

int PlayGame(const Oracle& oracle, const GameOptions& options, std::istream& in,
             std::ostream& out) {
  return Session(oracle, options, in, out).Run();
}

}  // namespace mnk
