#include "answer/oracle.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "absl/types/optional.h"

namespace mnk {
namespace {

// The payload that carries an AnswerFailure: its number, as text.
constexpr absl::string_view kFailureUrl = "mnk.dev/answer-failure";

}  // namespace

absl::StatusOr<absl::Duration> TimeLimit(double seconds,
                                         absl::string_view name) {
  if (std::isnan(seconds) || seconds < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " ", seconds,
        ": expected a number of seconds, 0 or more (0: no limit)"));
  }
  if (seconds == 0) return absl::InfiniteDuration();
  return absl::Seconds(seconds);  // saturates: 1e300 is no limit
}

absl::Status WithFailure(absl::Status status, AnswerFailure failure) {
  status.SetPayload(kFailureUrl,
                    absl::Cord(absl::StrCat(static_cast<int>(failure))));
  return status;
}

AnswerFailure FailureOf(const absl::Status& status) {
  if (status.ok()) return AnswerFailure::kNone;
  int failure = 0;
  if (const absl::optional<absl::Cord> mark = status.GetPayload(kFailureUrl);
      mark.has_value() && absl::SimpleAtoi(std::string(*mark), &failure) &&
      failure > 0 && failure <= static_cast<int>(AnswerFailure::kOther)) {
    return static_cast<AnswerFailure>(failure);
  }
  switch (status.code()) {
    case absl::StatusCode::kDataLoss:
      return AnswerFailure::kTableDamaged;
    case absl::StatusCode::kResourceExhausted:
      return AnswerFailure::kNoMemory;
    default:
      return AnswerFailure::kOther;
  }
}

bool IsSearchStop(const absl::Status& status) {
  const AnswerFailure f = FailureOf(status);
  return f == AnswerFailure::kNodeLimit || f == AnswerFailure::kDeadline ||
         f == AnswerFailure::kCancelled;
}

namespace {

// With gravity, `a`'s moves by column, left to right (each column has one
// legal cell); without, they are in cell order already: board order.
void InBoardOrder(const Game& game, Analysis& a) {
  if (!game.spec().gravity) return;
  const int width = game.width();
  std::sort(a.moves.begin(), a.moves.end(),
            [width](const MoveEval& x, const MoveEval& y) {
              return x.cell % width < y.cell % width;
            });
}

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
  InBoardOrder(table.game(), a);
  return a;
}

absl::StatusOr<Analysis> Oracle::Analyze(const Position& p,
                                         const Progress& progress,
                                         Need need) const {
  if (table_ != nullptr) return mnk::Analyze(*table_, p);
  if (std::optional<Analysis> a = FromBook(p)) return *std::move(a);
  SearchLimits limits;
  limits.max_nodes = limits_.max_nodes;
  limits.deadline = absl::Now() + limits_.max_time;
  limits.cancel = limits_.cancel;
  limits.poll = limits_.poll;
  SearchStop why = SearchStop::kNodes;
  std::optional<MoveAnalysis> within =
      need == Need::kBestMove
          ? search_->BestMoveWithin(p, limits, progress, &why)
          : search_->AnalyzeWithin(p, limits, progress, &why);
  if (!within.has_value()) return Stopped(p, why);
  const MoveAnalysis& searched = *within;
  Analysis a;
  a.position = p;
  a.record = {searched.result.value, searched.result.remoteness,
              searched.best_move < 0 ? kNoMove : searched.best_move};
  for (const MoveResult& m : searched.moves) {
    a.moves.push_back({m.cell, m.value, m.remoteness});
  }
  InBoardOrder(game(), a);
  return a;
}

absl::Status Oracle::Stopped(const Position& p, SearchStop why) const {
  const std::string position = game().Format(p);
  switch (why) {
    case SearchStop::kNodes:
      return WithFailure(
          absl::ResourceExhaustedError(absl::StrCat(
              "solving ", position, " takes more than ", limits_.max_nodes,
              " positions of search, this answer's limit; positions further "
              "into the game take less")),
          AnswerFailure::kNodeLimit);
    case SearchStop::kDeadline:
      return WithFailure(absl::DeadlineExceededError(absl::StrCat(
                             "the search of ", position, " took more than ",
                             absl::ToDoubleSeconds(limits_.max_time),
                             " s, this answer's limit")),
                         AnswerFailure::kDeadline);
    case SearchStop::kCancelled:
      break;
  }
  return WithFailure(absl::CancelledError(absl::StrCat(
                         "the search of ", position, " was cancelled")),
                     AnswerFailure::kCancelled);
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
  InBoardOrder(game, a);
  return a;
}

std::string ProgressLine(int done, int total, absl::Duration spent) {
  return absl::StrCat(
      "thinking: ", done, " of ", total, " moves done, ",
      absl::FormatDuration(absl::Trunc(spent, absl::Milliseconds(100))));
}

}  // namespace mnk
