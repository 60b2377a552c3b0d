#include "answer/text.h"

#include <cassert>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "rules/game/game_json.h"
#include "rules/game/moves.h"

namespace mnk {
namespace {

// Text into JSON: valid UTF-8 stays as it is; invalid bytes become U+FFFD
// instead of an exception.
std::string Dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false,
                nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

int Digits(int n) { return n >= 10 ? 1 + Digits(n / 10) : 1; }

char SideName(const Position& p) { return p.side_to_move() == 0 ? 'X' : 'O'; }

}  // namespace

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
    w.Put(i > 0 ? ",{\"cell\":" : "{\"cell\":");
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

std::string AnalysisJson(const Game& game, const Analysis& a, const Line& pv) {
  std::string out = AnalysisJson(game, a);
  out.resize(out.size() - 2);  // "}\n"
  absl::StrAppend(&out, ",\"pv\":[", absl::StrJoin(pv.cells, ","), "]}\n");
  return out;
}

std::string AnalysisText(const Game& game, const Analysis& a, const Line& pv) {
  const bool gravity = game.spec().gravity;
  return absl::StrCat(
      AnalysisText(game, a), "best line   ",
      pv.cells.empty() ? "none: the game is over"
                       : absl::StrCat(gravity ? "columns " : "cells ",
                                      *FormatMoves(game, pv.cells,
                                                   gravity ? Notation::kColumns
                                                           : Notation::kCells)),
      "\n");
}

namespace {

nlohmann::ordered_json NodeJson(const Game& game, const TreeNode& node) {
  nlohmann::ordered_json j;
  if (node.cell >= 0) {
    j["cell"] = node.cell;
    if (game.spec().gravity) j["column"] = node.cell % game.width();
  }
  j["position"] = game.Format(node.position);
  j["to_move"] = node.position.side_to_move() == 0 ? "X" : "O";
  j["value"] = std::string(ValueName(node.value));
  j["remoteness"] = node.remoteness == kUnknownRemoteness
                        ? nlohmann::ordered_json()
                        : nlohmann::ordered_json(node.remoteness);
  j["best"] = node.best;
  j["score"] = node.score;
  j["sign"] = node.sign;
  j["children"] = nlohmann::ordered_json::array();
  for (const TreeNode& child : node.children) {
    j["children"].push_back(NodeJson(game, child));
  }
  return j;
}

}  // namespace

std::string TreeJson(const Game& game, const TreeNode& root) {
  return Dump(NodeJson(game, root));
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

namespace {

// The error line of `line`: {"input": its first 64 bytes, "error":
// message} (and "code" when not null) or "error: message".
void AppendErrorLine(absl::string_view line, absl::string_view message,
                     bool json, const char* code, std::string* out) {
  constexpr size_t kEcho = 64;
  const std::string input = line.size() > kEcho
                                ? absl::StrCat(line.substr(0, kEcho), "...")
                                : std::string(line);
  if (!json) {
    absl::StrAppend(out, "error: ", message, "\n");
    return;
  }
  nlohmann::ordered_json j = {{"input", input},
                              {"error", std::string(message)}};
  if (code != nullptr) j["code"] = code;
  out->append(Dump(j));
}

// The position a batch line holds: kInvalidArgument, saying why, for a
// line too long, empty, or no position of `game`.
absl::StatusOr<Position> LinePosition(const Game& game, absl::string_view line,
                                      bool too_long) {
  if (too_long) {
    return absl::InvalidArgumentError(absl::StrCat(
        "line is longer than ", kMaxLineBytes, " bytes: expected a position"));
  }
  if (line.empty()) {
    return absl::InvalidArgumentError("empty line: expected a position");
  }
  return game.Parse(line);
}

}  // namespace

absl::Status AppendAnswerLine(const Oracle& oracle, absl::string_view line,
                              bool json, bool too_long, std::string* out,
                              const Progress& progress, Need need) {
  absl::StatusOr<Position> p = LinePosition(oracle.game(), line, too_long);
  if (!p.ok()) {
    AppendErrorLine(line, p.status().message(), json, nullptr, out);
    return absl::OkStatus();
  }
  absl::StatusOr<Analysis> a = oracle.Analyze(*p, progress, need);
  if (!a.ok()) {
    AppendErrorLine(line, a.status().message(), json, nullptr, out);
    return a.status();  // the oracle's fault, not the line's
  }
  if (json) {
    AppendAnalysisJson(oracle.game(), *a, out);
  } else {
    AppendAnalysisLine(oracle.game(), *a, out);
  }
  return absl::OkStatus();
}

std::string AnswerJsonLine(const AnswerSource& source, absl::string_view line,
                           const AnswerLimits& limits, const Progress& progress,
                           Need need) {
  absl::StatusOr<Position> p = LinePosition(source.game(), line, false);
  absl::StatusOr<Analysis> a =
      p.ok() ? source.Answer(*p, limits, progress, need) : p.status();
  std::string out;
  if (a.ok()) {
    AppendAnalysisJson(source.game(), *a, &out);
  } else {
    const std::string code = absl::StatusCodeToString(a.status().code());
    AppendErrorLine(line, a.status().message(), true, code.c_str(), &out);
  }
  return out;
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

}  // namespace mnk
