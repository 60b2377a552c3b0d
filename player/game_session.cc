#include "player/game_session.h"

#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "answer/play.h"
#include "answer/text.h"

namespace mnk {
namespace {

int Digits(int n) { return n >= 10 ? 1 + Digits(n / 10) : 1; }

}  // namespace

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
  Session(const AnswerSource& source, const GameOptions& options,
          std::istream& in, std::ostream& out)
      : source_(source),
        game_(source.game()),
        gravity_(game_.spec().gravity),
        human_(options.human_mark),
        human_side_(options.human_first ? 0 : 1),
        level_(options.level),
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
      history_.clear();
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
        const Analysis* a = Current(NeedOf(level_));
        if (a == nullptr) return kTableFailed;
        const int cell = ChooseMove(*a, level_);
        out_ << "I play " << unit_ << " " << Choice(cell) << " ("
             << MoveOutcome(*a, cell) << " for me).\n";
        Move(cell);
      } else if (!HumanTurn()) {
        return failed_ ? kTableFailed : 0;
      }
    }
    out_ << DrawBoard(game_, p_, marks_) << "\n" << Result() << "\n";
    return kPlayed;
  }

  int Choice(int cell) const { return gravity_ ? cell % game_.width() : cell; }

  // What playing `cell` gives the side to move in `a`: "win in 3".
  static std::string MoveOutcome(const Analysis& a, int cell) {
    if (cell == a.record.best_move) {
      return Outcome(a.record.value, a.record.remoteness);
    }
    for (const MoveEval& e : a.moves) {
      if (e.cell == cell) return Outcome(e.value, e.remoteness);
    }
    return "";  // not a legal move: ChooseMove never gives one
  }

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
    absl::StatusOr<Analysis> a = source_.Answer(p_, {}, progress, need);
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
    history_.push_back(p_);
    p_ = Game::Play(p_, cell);
    drawn_ = false;
  }

  // Takes back the person's last move and the reply to it.
  void Undo() {
    size_t i = history_.size();
    while (i > 0 && history_[i - 1].side_to_move() != human_side_) --i;
    if (i == 0) {
      out_ << "Nothing to undo: you have not moved yet.\n";
      return;
    }
    p_ = history_[i - 1];
    history_.resize(i - 1);
    out_ << "Took back your last move.\n";
    drawn_ = false;
  }

  // The principal variation from the board: both sides' best moves to the
  // end.
  void ShowPv() {
    const Analysis* a = Current(Need::kBestMove);
    if (a == nullptr) return;
    const absl::StatusOr<Line> line =
        PrincipalVariation(source_, game_.Format(p_));
    if (!line.ok()) {
      out_ << "The table cannot answer this position: "
           << line.status().message() << "\n";
      return;
    }
    std::vector<std::string> moves;
    for (int cell : line->cells) moves.push_back(absl::StrCat(Choice(cell)));
    out_ << "Best line: " << unit_ << "s " << absl::StrJoin(moves, " ") << " ("
         << Outcome(a->record.value, a->record.remoteness) << " for you).\n";
  }

  std::string Rule() const {
    return absl::StrCat(game_.spec().k, " in a row ",
                        game_.spec().misere ? "loses" : "wins");
  }

  void Introduce() {
    out_ << game_.spec().Title() << " against the perfect player: " << Rule()
         << ".\nYou play " << human_ << " and move "
         << (human_side_ == 0 ? "first" : "second") << ".\n"
         << "Type a " << unit_ << " number (0-" << last_choice_
         << "), or hint, eval, pv, undo, help, quit.\n\n";
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
      out_ << "This is " << game_.spec().Title() << ": " << Rule() << ".\n"
           << "  a " << unit_ << " number (0-" << last_choice_
           << ")  play there\n"
           << "  hint  the best move\n"
           << "  eval  every move's value and remoteness (plies to the end "
              "with perfect play)\n"
           << "  pv    the best line: both sides' best moves to the end\n"
           << "  undo  take back your last move\n"
           << "  quit  end the game\n";
    } else if (word == "undo") {
      Undo();
    } else if (word == "pv") {
      ShowPv();
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

  const AnswerSource& source_;
  const Game& game_;
  const bool gravity_;
  const char human_;
  const int human_side_;
  const Level level_;
  const std::string unit_;
  const int last_choice_;
  std::istream& in_;
  std::ostream& out_;
  char marks_[2];
  Position p_;
  std::vector<Position> history_;     // the positions before p_, in order
  std::optional<Analysis> analysis_;  // of p_ or of an earlier position
  bool failed_ = false;               // the table could not answer
  bool drawn_ = false;  // the board is on screen since the last move
};

}  // namespace

int PlayGame(const AnswerSource& source, const GameOptions& options,
             std::istream& in, std::ostream& out) {
  return Session(source, options, in, out).Run();
}

}  // namespace mnk
