// Answers as text: the outcome words, the report of --position, the JSON
// object and the one-line form, and the batch protocol (a line in, a line
// out).
//
//   std::cout << mnk::AnalysisJson(table.game(), *a);
//   std::cout << mnk::AnswerLine(table, "X.O/X.X/OO.", /*json=*/true);
#ifndef MNK_ANSWER_TEXT_H_
#define MNK_ANSWER_TEXT_H_

#include <cstddef>
#include <istream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "answer/answer.h"
#include "answer/oracle.h"
#include "answer/play.h"
#include "rules/game/game.h"

namespace mnk {

// Input lines longer than this are refused (and read no further).
inline constexpr size_t kMaxLineBytes = 4096;

// "win in 3", "draw in 5", "loss in 2"; once the game is over "lost", "won"
// (misère: the opponent made the line) or "drawn".
std::string Outcome(Value value, int remoteness);

// Multi-line report for --position.
std::string AnalysisText(const Game& game, const Analysis& a);
// One JSON object (written as nlohmann-json would) and a newline:
// {"game":{"width","height","k","gravity","misere"},"position","to_move",
// "value","remoteness","best_move","moves":[{"cell","value","remoteness"}]};
// with gravity also "best_column" and "column". Remoteness is null from a
// compact table.
std::string AnalysisJson(const Game& game, const Analysis& a);
// The same, appended to *out (the batch's hot path).
void AppendAnalysisJson(const Game& game, const Analysis& a, std::string* out);
// Both with the principal variation (answer/play.h) too: the object's last
// member "pv", the cells (the side to move's first); in the report a line
// "best line   4 0 8 ..." (with gravity the columns).
std::string AnalysisJson(const Game& game, const Analysis& a, const Line& pv);
std::string AnalysisText(const Game& game, const Analysis& a, const Line& pv);
// A game tree (answer/play.h) as one JSON object and a newline, each node
// {"cell" (absent at the root; with gravity also "column"), "position",
// "to_move", "value", "remoteness", "best", "score", "sign", "children"}.
std::string TreeJson(const Game& game, const TreeNode& root);

// One line: position=... to_move=X value=win remoteness=1 best_move=4
// moves=1:loss:2,4:win:1,8:loss:2
std::string AnalysisLine(const Game& game, const Analysis& a);
// The same, appended to *out (the batch's hot path).
void AppendAnalysisLine(const Game& game, const Analysis& a, std::string* out);

// The batch protocol: the answer to one input line (without its '\n'), as
// one line ending in '\n'. A bad line gives "error: <what is wrong>" or, with
// json, {"input": <the line's first 64 bytes>, "error": ...}. `too_long`
// says the line was cut at kMaxLineBytes.
std::string AnswerLine(const Oracle& oracle, absl::string_view line, bool json,
                       bool too_long = false);
// The same, appended to *out. Returns the oracle's error when it could not
// answer (a damaged page, a search over its budget or cancelled: the line
// is an error line too), OK otherwise, bad lines included. `progress` is
// called as a search goes through the moves; `need` as Oracle::Analyze
// takes it.
absl::Status AppendAnswerLine(const Oracle& oracle, absl::string_view line,
                              bool json, bool too_long, std::string* out,
                              const Progress& progress = {},
                              Need need = Need::kEveryMove);

// The JSON line of the batch protocol for `line` (no longer than
// kMaxLineBytes), answered by `source` within `limits`; an error line
// carries "code" too, absl's name of its status code ("INVALID_ARGUMENT"
// for a bad position, "DEADLINE_EXCEEDED" for a search past its time,
// "RESOURCE_EXHAUSTED" past its nodes, "CANCELLED"): the WebAssembly
// module's answer. `need` as AnswerSource::Answer takes it.
std::string AnswerJsonLine(const AnswerSource& source, absl::string_view line,
                           const AnswerLimits& limits,
                           const Progress& progress = {},
                           Need need = Need::kEveryMove);

// Reads one line (without its '\n', or "\r\n") of at most kMaxLineBytes;
// a longer line is consumed to its end and reported through *too_long.
// False at end of input with nothing read.
bool ReadLine(std::istream& in, std::string* line, bool* too_long);

}  // namespace mnk

#endif  // MNK_ANSWER_TEXT_H_
