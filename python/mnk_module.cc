// The Python module `mnk`'s extension, `mnk._mnk` (pybind11), over the
// same core as `play`:
// the answer call (answer/answer.h) answers, the solve call
// (solver/solve_job.h) solves and estimates. Errors become
// Python exceptions carrying the core's message; the GIL is released while
// the core works (solves, searches, batches), and Ctrl-C stops it (the
// search polls for it; a solve runs on a thread of its own while the
// caller's looks). The package python/mnk/ re-exports it;
// python/mnk/__init__.pyi documents the API; docs/python.md shows it in
// use.
//
//   import mnk
//   with mnk.Game(3, 3, 3).table() as t:
//       t.probe("X.O/X.X/OO.").best_move     # 4
#include <pybind11/functional.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "answer/answer.h"
#include "answer/oracle.h"
#include "answer/play.h"
#include "answer/text.h"
#include "base/version/version.h"
#include "player/game_session.h"
#include "rules/game/game.h"
#include "rules/game/moves.h"
#include "rules/game/printable.h"
#include "solver/solve_job.h"
#include "table/record.h"

namespace py = pybind11;

namespace mnk {
namespace {

// The module's exception classes (made in PYBIND11_MODULE).
struct Exceptions {
  PyObject* table_error;     // mnk.TableError(Exception)
  PyObject* missing;         // mnk.MissingTableError(TableError)
  PyObject* damaged;         // mnk.DamagedTableError(TableError)
  PyObject* wrong_game;      // mnk.WrongGameError(TableError)
  PyObject* search_stopped;  // mnk.SearchStopped(Exception)
};
Exceptions exceptions;

// Raises the Python exception for a failed status.
[[noreturn]] void Raise(const absl::Status& status) {
  PyObject* type = PyExc_RuntimeError;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      type = PyExc_ValueError;
      break;
    case absl::StatusCode::kNotFound:
      type = exceptions.missing;
      break;
    case absl::StatusCode::kDataLoss:
      type = exceptions.damaged;
      break;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAlreadyExists:
      type = exceptions.wrong_game;
      break;
    case absl::StatusCode::kPermissionDenied:
      type = PyExc_PermissionError;
      break;
    case absl::StatusCode::kResourceExhausted:
      type = PyExc_MemoryError;
      break;
    default:
      break;
  }
  // A search stopped by its limits (its node budget too: no shortage of
  // memory).
  if (IsSearchStop(status)) type = exceptions.search_stopped;
  PyErr_SetString(type, std::string(status.message()).c_str());
  throw py::error_already_set();
}

template <typename T>
T OrRaise(absl::StatusOr<T> v) {
  if (!v.ok()) Raise(v.status());
  return *std::move(v);
}

// One legal move and what it leads to.
struct Move {
  int cell;
  int column;
  std::string value;
  std::optional<int> remoteness;
  bool operator==(const Move& o) const {
    return cell == o.cell && column == o.column && value == o.value &&
           remoteness == o.remoteness;
  }
  std::string Repr() const {
    return absl::StrFormat("Move(cell=%d, value='%s', remoteness=%s)", cell,
                           value,
                           remoteness ? absl::StrCat(*remoteness) : "None");
  }
};

// A position's answer.
struct Result {
  std::string position;
  std::string to_move;
  std::string value;
  std::optional<int> remoteness;
  std::optional<int> best_move;
  std::vector<Move> moves;
  bool operator==(const Result& o) const {
    return position == o.position && to_move == o.to_move && value == o.value &&
           remoteness == o.remoteness && best_move == o.best_move &&
           moves == o.moves;
  }
  std::string Repr() const {
    return absl::StrFormat(
        "Result(position='%s', to_move='%s', value='%s', remoteness=%s, "
        "best_move=%s, moves=%d)",
        position, to_move, value,
        remoteness ? absl::StrCat(*remoteness) : "None",
        best_move ? absl::StrCat(*best_move) : "None", moves.size());
  }
};

std::optional<int> Known(int remoteness) {
  if (remoteness == kUnknownRemoteness) return std::nullopt;
  return remoteness;
}

Result ResultOf(const Game& game, const Analysis& a) {
  Result r;
  r.position = game.Format(a.position);
  r.to_move = a.position.side_to_move() == 0 ? "X" : "O";
  r.value = std::string(ValueName(a.record.value));
  r.remoteness = Known(a.record.remoteness);
  if (a.record.best_move != kNoMove) r.best_move = a.record.best_move;
  for (const MoveEval& m : a.moves) {
    r.moves.push_back({m.cell, m.cell % game.width(),
                       std::string(ValueName(m.value)), Known(m.remoteness)});
  }
  return r;
}

// ValueError for a path Python's open() refuses too: one with a NUL byte.
void CheckPath(const std::string& path) {
  if (path.find('\0') != std::string::npos) {
    Raise(absl::InvalidArgumentError(absl::StrCat(
        "path '", Printable(path), "' has a NUL byte: expected a file name")));
  }
}

// What stops a search or a solve at Ctrl-C: a signal whose Python handler
// raises (KeyboardInterrupt) is kept here and raised once the work stops.
// Its check takes the GIL: call it with the GIL released.
class Interrupt {
 public:
  // True once a handler has raised.
  bool Check() {
    py::gil_scoped_acquire acquire;
    if (raised_.has_value()) return true;
    if (PyErr_CheckSignals() == 0) return false;
    raised_.emplace();
    return true;
  }
  // Keeps the exception `e` (the first one) to raise later.
  void Keep(const py::error_already_set& e) {
    if (!raised_.has_value()) raised_.emplace(e);
  }
  // Raises what was kept, if anything (with the GIL held).
  void RaiseKept() {
    if (raised_.has_value()) throw *raised_;
  }

 private:
  std::optional<py::error_already_set> raised_;
};

// `call(limits)` on `s`: a search within `max_nodes` positions and
// `max_seconds` (0: no limit), stopped by Ctrl-C. Called with the GIL
// held; released where a search may run (a table's lookups keep it).
// Returns call's value, raising its error.
template <typename Call>
auto Searching(const AnswerSource& s, uint64_t max_nodes, double max_seconds,
               const Call& call) {
  Interrupt interrupt;
  AnswerLimits limits;
  limits.max_nodes = max_nodes;
  limits.max_time = OrRaise(TimeLimit(max_seconds, "max_seconds"));
  limits.poll = [&interrupt] { return interrupt.Check(); };
  std::optional<py::gil_scoped_release> release;
  if (s.searched()) release.emplace();
  auto got = call(limits);
  release.reset();
  interrupt.RaiseKept();
  return OrRaise(std::move(got));
}

// The answer to `position` from `s`, within the limits (Searching);
// `best_only`: the value, remoteness and best move alone (Need::kBestMove).
Result Answer(const AnswerSource& s, const std::string& position,
              uint64_t max_nodes, double max_seconds, bool best_only = false) {
  const Need need = best_only ? Need::kBestMove : Need::kEveryMove;
  return ResultOf(
      s.game(),
      Searching(s, max_nodes, max_seconds, [&](const AnswerLimits& limits) {
        return s.Answer(position, limits, {}, need);
      }));
}

// The move `level` plays at `position` (seed: None or a whole number from
// 0 to 2^64 - 1), within the limits.
int ChooseIn(const AnswerSource& s, const std::string& position, int level,
             py::object seed, bool vary, uint64_t max_nodes,
             double max_seconds) {
  Level chosen;
  chosen.level = level;
  chosen.vary = vary;
  if (!seed.is_none()) {
    if (!py::isinstance<py::int_>(seed) || py::isinstance<py::bool_>(seed) ||
        seed < py::int_(0) || seed > py::int_(UINT64_MAX)) {
      Raise(absl::InvalidArgumentError(
          "seed: expected None or a whole number from 0 to 2**64 - 1"));
    }
    chosen.seed = seed.cast<uint64_t>();
  }
  return Searching(s, max_nodes, max_seconds, [&](const AnswerLimits& limits) {
    return Choose(s, position, chosen, limits);
  });
}

// The principal variation from `position`, within the limits: as far as
// it got when they stopped it.
std::vector<int> PvIn(const AnswerSource& s, const std::string& position,
                      uint64_t max_nodes, double max_seconds) {
  return Searching(s, max_nodes, max_seconds,
                   [&](const AnswerLimits& limits) {
                     return PrincipalVariation(s, position, limits);
                   })
      .cells;
}

// The game tree of `position` to `depth` plies, within the limits, as
// nested dicts (answer/text.h's TreeJson).
py::object TreeIn(const AnswerSource& s, const std::string& position, int depth,
                  uint64_t max_nodes, double max_seconds) {
  const TreeNode root =
      Searching(s, max_nodes, max_seconds, [&](const AnswerLimits& limits) {
        return GameTree(s, position, depth, limits);
      });
  return py::module_::import("json").attr("loads")(TreeJson(s.game(), root));
}

// What the module calls a table: a game's source of answers (a table, or
// the search after a book). Closed by close() or a `with` block; a call
// running in another thread meanwhile holds the source until it returns.
// source_ is read and written with the GIL held.
class Source {
 public:
  explicit Source(std::shared_ptr<const AnswerSource> source)
      : source_(std::move(source)) {}

  // The source, held for one call (with the GIL held).
  std::shared_ptr<const AnswerSource> Hold() const {
    if (source_ == nullptr) {
      Raise(absl::InvalidArgumentError("the table is closed"));  // ValueError,
      // as a closed file's
    }
    return source_;
  }

  Result Probe(const std::string& position) const {
    return Answer(*Hold(), position, 0, 0);
  }

  std::vector<Result> ProbeMany(const std::vector<std::string>& positions) {
    const std::shared_ptr<const AnswerSource> held = Hold();
    const AnswerSource& s = *held;
    Interrupt interrupt;
    AnswerLimits limits;
    limits.poll = [&interrupt] { return interrupt.Check(); };
    absl::StatusOr<std::vector<Analysis>> answers;
    {
      py::gil_scoped_release release;
      answers = s.AnswerAll(positions, limits);
    }
    interrupt.RaiseKept();
    std::vector<Result> results;
    results.reserve(positions.size());
    for (const Analysis& a : OrRaise(std::move(answers))) {
      results.push_back(ResultOf(s.game(), a));
    }
    return results;
  }

  int Choose(const std::string& position, int level, py::object seed, bool vary,
             uint64_t max_nodes, double max_seconds) const {
    return ChooseIn(*Hold(), position, level, std::move(seed), vary, max_nodes,
                    max_seconds);
  }

  std::vector<int> Pv(const std::string& position, uint64_t max_nodes,
                      double max_seconds) const {
    return PvIn(*Hold(), position, max_nodes, max_seconds);
  }

  py::object Tree(const std::string& position, int depth, uint64_t max_nodes,
                  double max_seconds) const {
    return TreeIn(*Hold(), position, depth, max_nodes, max_seconds);
  }

  // A searched position's answer within `max_nodes` positions and
  // `max_seconds` (0: no limit); SearchStopped past either.
  Result Analyse(const std::string& position, uint64_t max_nodes,
                 double max_seconds, bool best_only) const {
    return Answer(*Hold(), position, max_nodes, max_seconds, best_only);
  }

  // The game in the terminal (`python -m mnk`): the person's moves read
  // from standard input, the board and the answers written to standard
  // output, as `play` plays it. Returns play's exit code (0, or 3 when the
  // table failed); Ctrl-C ends it (KeyboardInterrupt).
  int PlayInTerminal(bool human_first, const std::string& mark) const {
    if (mark != "X" && mark != "O") {
      Raise(absl::InvalidArgumentError(
          absl::StrCat("mark '", Printable(mark), "': expected X or O")));
    }
    const std::shared_ptr<const AnswerSource> held = Hold();
    GameOptions options;
    options.human_first = human_first;
    options.human_mark = mark[0];
    int played;
    {
      py::gil_scoped_release release;
      played = PlayGame(*held, options, std::cin, std::cout);
      std::cout.flush();
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    return played;  // 0, or kTableFailed (3)
  }

  void Close() { source_.reset(); }

  std::string Repr() const {
    if (source_ == nullptr) return "<mnk.Table closed>";
    const AnswerSource& s = *source_;
    std::string what =
        s.table() != nullptr
            ? absl::StrCat(s.table()->layout_name(), " table, ",
                           s.table()->reachable(), " positions")
            : absl::StrCat("search",
                           s.book() != nullptr ? " after a book" : "");
    return absl::StrCat("<mnk.Table ", s.game().spec().Name(), ": ", what, ", ",
                        s.origin(), ">");
  }

 private:
  std::shared_ptr<const AnswerSource> source_;
};

// How a Python user makes a missing table: "mnk.Game(4, 4, 4).solve(FILE)
// makes one ...".
std::string PythonSolveHint(const GameSpec& spec) {
  return absl::StrCat(
      "mnk.Game(", spec.width, ", ", spec.height, ", ", spec.k,
      spec.gravity ? ", gravity=True" : "", spec.misere ? ", misere=True" : "",
      ").solve(FILE) makes one (`solve ", SolveFlags(spec),
      " --estimate` says what it takes), and mnk.open_table(FILE) opens it");
}

// Opens a source with the GIL released; the Python exception when it fails.
std::shared_ptr<const AnswerSource> OpenSource(std::optional<GameSpec> spec,
                                               SourceOptions options) {
  options.how_to_solve = PythonSolveHint;
  absl::StatusOr<std::unique_ptr<AnswerSource>> opened;
  {
    py::gil_scoped_release release;
    opened = AnswerSource::Open(spec, options);
  }
  return OrRaise(std::move(opened));
}

// A game's own source (Game.analyse): opened once, by whichever thread
// calls first, while the others wait for it; kept from then on.
class OwnSource {
 public:
  // Called with the GIL held (released while it waits or opens).
  std::shared_ptr<const AnswerSource> Get(const GameSpec& spec) {
    absl::Status failed;
    std::shared_ptr<const AnswerSource> got;
    {
      py::gil_scoped_release release;
      absl::MutexLock lock(&mu_);
      if (source_ == nullptr) {
        SourceOptions options;
        options.how_to_solve = PythonSolveHint;
        absl::StatusOr<std::unique_ptr<AnswerSource>> opened =
            AnswerSource::Open(spec, options);
        if (opened.ok()) {
          source_ = *std::move(opened);
        } else {
          failed = opened.status();
        }
      }
      got = source_;
    }
    if (!failed.ok()) Raise(failed);
    return got;
  }

 private:
  absl::Mutex mu_;
  std::shared_ptr<const AnswerSource> source_ ABSL_GUARDED_BY(mu_);
};

// Runs `solve` on a thread of its own while this one (with the GIL
// released) looks for Ctrl-C every 20 ms, setting `cancel` at one.
absl::Status SolveInterruptibly(const std::function<absl::Status()>& solve,
                                std::atomic<bool>& cancel,
                                Interrupt& interrupt) {
  absl::Status status;
  absl::Notification done;
  py::gil_scoped_release release;
  std::thread worker([&] {
    try {
      status = solve();
    } catch (const std::exception& e) {
      status = absl::InternalError(e.what());
    }
    done.Notify();
  });
  while (!done.WaitForNotificationWithTimeout(absl::Milliseconds(20))) {
    if (interrupt.Check()) cancel.store(true);
  }
  worker.join();
  return status;
}

// A game: its parameters and rules, its built-in table or search, and its
// solve.
struct PyGame {
  GameSpec spec;
  // The rules (shared by copies of the game).
  std::shared_ptr<const Game> rules;
  // What analyse() answers from (shared by copies of the game).
  std::shared_ptr<OwnSource> own = std::make_shared<OwnSource>();

  Result Analyse(const std::string& position, uint64_t max_nodes,
                 double max_seconds, bool best_only) {
    return Answer(*own->Get(spec), position, max_nodes, max_seconds, best_only);
  }
  int Choose(const std::string& position, int level, py::object seed, bool vary,
             uint64_t max_nodes, double max_seconds) {
    return ChooseIn(*own->Get(spec), position, level, std::move(seed), vary,
                    max_nodes, max_seconds);
  }
  std::vector<int> Pv(const std::string& position, uint64_t max_nodes,
                      double max_seconds) {
    return PvIn(*own->Get(spec), position, max_nodes, max_seconds);
  }

  py::object Tree(const std::string& position, int depth, uint64_t max_nodes,
                  double max_seconds) {
    return TreeIn(*own->Get(spec), position, depth, max_nodes, max_seconds);
  }

  // The rules calls.
  Position Read(const std::string& position) const {
    return OrRaise(ReadPosition(*rules, position));
  }
  std::vector<int> LegalMoves(const std::string& position) const {
    return BoardOrderMoves(*rules, Read(position));
  }
  std::string Play(const std::string& position, int cell) const {
    return rules->Format(OrRaise(PlayMove(*rules, Read(position), cell)));
  }
  std::string Drop(const std::string& position, int column) const {
    return rules->Format(OrRaise(PlayColumn(*rules, Read(position), column)));
  }
  bool IsOver(const std::string& position) const {
    return rules->IsTerminal(Read(position));
  }
  std::optional<std::string> WinnerIn(const std::string& position) const {
    const Winner w = WinnerOf(*rules, Read(position));
    if (w == Winner::kNone) return std::nullopt;
    return std::string(WinnerName(w));
  }
  std::string ToMove(const std::string& position) const {
    return Read(position).side_to_move() == 0 ? "X" : "O";
  }
  // `moves`: a str in `notation`, or a sequence of cells.
  std::string FromMovesIn(py::object moves, const std::string& notation) const {
    const Notation n = OrRaise(NotationNamed(notation));
    if (py::isinstance<py::str>(moves)) {
      return rules->Format(
          OrRaise(FromMoves(*rules, moves.cast<std::string>(), n)));
    }
    if (n != Notation::kCells) {
      Raise(absl::InvalidArgumentError(absl::StrCat(
          "moves as a list are cells: write ", notation, " as a str")));
    }
    return rules->Format(
        OrRaise(FromCells(*rules, moves.cast<std::vector<int>>())));
  }
  std::string ToMovesIn(const std::string& position,
                        const std::string& notation) const {
    return OrRaise(
        ToMoves(*rules, Read(position), OrRaise(NotationNamed(notation))));
  }

  Source Open(const std::string& path, uint64_t search_memory,
              int search_threads) const {
    CheckPath(path);
    SourceOptions options;
    options.table = path;
    options.search_memory = search_memory;
    options.search_threads = search_threads;
    return Source(OpenSource(spec, options));
  }

  // The request of solve() and estimate(): the game and the options.
  SolveRequest Request(const std::string& layout, py::object remoteness,
                       uint64_t memory, int threads,
                       const std::string& work_dir, bool resume,
                       uint64_t tier_indices) const {
    CheckPath(work_dir);
    SolveRequest request;
    request.game = spec;
    if (absl::Status s = SetLayout(request, layout); !s.ok()) Raise(s);
    if (!remoteness.is_none() && !py::isinstance<py::bool_>(remoteness)) {
      throw py::type_error("remoteness: expected True, False or None");
    }
    if (!remoteness.is_none()) request.remoteness = remoteness.cast<bool>();
    request.memory = memory;
    request.threads = threads;
    request.work_dir = work_dir;
    request.resume = resume;
    request.tier_indices = tier_indices;
    return request;
  }

  py::dict Estimate(const std::string& layout, py::object remoteness,
                    uint64_t memory, int threads,
                    const std::string& work_dir) const {
    const SolveJob job = OrRaise(
        PlanSolveJob(Request(layout, remoteness, memory, threads, work_dir,
                             false, SolveRequest().tier_indices)));
    const SolveEstimate& e = job.estimate;
    py::dict d;
    d["layout"] = job.options.layout.name();
    d["remoteness"] = job.options.layout.has_remoteness();
    d["indices"] = e.indices;
    d["memory"] = job.bytes;
    d["max_memory"] = job.options.max_bytes;
    d["refusal"] = job.refusal.empty() ? py::object(py::none())
                                       : py::object(py::str(job.refusal));
    d["seconds"] = py::make_tuple(e.seconds.low, e.seconds.high);
    d["table_bytes"] = py::make_tuple(e.table_bytes.low, e.table_bytes.high);
    d["work_dir_bytes"] =
        py::make_tuple(e.work_dir_bytes.low, e.work_dir_bytes.high);
    return d;
  }

  py::dict Solve(const std::string& path, py::object progress, int threads,
                 const std::string& layout, py::object remoteness,
                 uint64_t memory, const std::string& work_dir, bool resume,
                 uint64_t tier_indices) const {
    CheckPath(path);
    if (path.empty()) {
      Raise(absl::InvalidArgumentError("path is empty: expected a file name"));
    }
    SolveRequest request = Request(layout, remoteness, memory, threads,
                                   work_dir, resume, tier_indices);
    request.out = path;
    std::atomic<bool> cancel{false};
    request.cancel = &cancel;
    Interrupt interrupt;
    if (!progress.is_none()) {
      // A callback that raises stops the solve; its exception is raised.
      request.on_progress = [&progress, &interrupt, &cancel](
                                const char* phase, int layer, uint64_t done,
                                uint64_t total) {
        py::gil_scoped_acquire acquire;
        if (cancel.load()) return;
        try {
          progress(std::string(phase), layer, done, total);
        } catch (const py::error_already_set& e) {
          interrupt.Keep(e);
          cancel.store(true);
        }
      };
    }
    const SolveJob job = OrRaise(PlanSolveJob(request));
    std::optional<Solved> solved;
    const absl::Status status = SolveInterruptibly(
        [&]() -> absl::Status {
          absl::StatusOr<Solved> s = RunSolveJob(job);
          if (!s.ok()) return s.status();
          solved.emplace(*std::move(s));
          return absl::OkStatus();
        },
        cancel, interrupt);
    interrupt.RaiseKept();
    if (!status.ok()) Raise(status);
    const SolveStats& st = solved->solution.stats;
    py::dict d;
    d["layout"] = job.options.layout.name();
    d["reachable"] = st.reachable;
    d["table_bytes"] = solved->table_bytes;
    d["start_value"] = std::string(ValueName(st.start_value));
    d["start_remoteness"] = st.start_remoteness;
    d["seconds"] = st.seconds;
    return d;
  }

  std::string Repr() const {
    return absl::StrFormat(
        "mnk.Game(width=%d, height=%d, k=%d, gravity=%s, misere=%s)",
        spec.width, spec.height, spec.k, spec.gravity ? "True" : "False",
        spec.misere ? "True" : "False");
  }
};

PyGame MakeGame(int width, int height, int k, bool gravity, bool misere) {
  const GameSpec spec{width, height, k, gravity, misere};
  absl::StatusOr<Game> g = Game::Create(spec);
  if (!g.ok()) Raise(g.status());
  return PyGame{spec, std::make_shared<const Game>(*std::move(g))};
}

Source OpenTable(const std::string& path) {
  CheckPath(path);
  if (path.empty()) {
    Raise(absl::InvalidArgumentError("path is empty: expected a table file"));
  }
  SourceOptions options;
  options.table = path;
  return Source(OpenSource(std::nullopt, options));
}

// The module's exception classes.
void AddExceptions(py::module_& m) {
  exceptions.table_error = PyErr_NewExceptionWithDoc(
      "mnk.TableError", "A table could not be opened or read.", PyExc_Exception,
      nullptr);
  exceptions.missing = PyErr_NewExceptionWithDoc(
      "mnk.MissingTableError",
      "No such table file, or no built-in table for the game.",
      exceptions.table_error, nullptr);
  exceptions.damaged = PyErr_NewExceptionWithDoc(
      "mnk.DamagedTableError",
      "A table file that fails its checks, or changed while in use.",
      exceptions.table_error, nullptr);
  exceptions.wrong_game = PyErr_NewExceptionWithDoc(
      "mnk.WrongGameError",
      "A table of another game or format, or a file that is no table.",
      exceptions.table_error, nullptr);
  exceptions.search_stopped = PyErr_NewExceptionWithDoc(
      "mnk.SearchStopped",
      "A search that reached its node or time limit before its answer.",
      PyExc_Exception, nullptr);
  m.attr("TableError") = py::handle(exceptions.table_error);
  m.attr("MissingTableError") = py::handle(exceptions.missing);
  m.attr("DamagedTableError") = py::handle(exceptions.damaged);
  m.attr("WrongGameError") = py::handle(exceptions.wrong_game);
  m.attr("SearchStopped") = py::handle(exceptions.search_stopped);
}

// Move and Result: what a probe answers.
void AddResults(py::module_& m) {
  py::class_<Move>(m, "Move", "One legal move and what it leads to.")
      .def_readonly("cell", &Move::cell, "row * width + column")
      .def_readonly("column", &Move::column)
      .def_readonly("value", &Move::value,
                    "'win', 'draw' or 'loss' for the side that moves")
      .def_readonly("remoteness", &Move::remoteness,
                    "plies to the end from the position; None if unknown")
      .def(py::self == py::self)
      .def("__repr__", &Move::Repr);

  py::class_<Result>(m, "Result", "A position's answer.")
      .def_readonly("position", &Result::position)
      .def_readonly("to_move", &Result::to_move, "'X' or 'O'")
      .def_readonly("value", &Result::value,
                    "'win', 'draw' or 'loss' for the side to move")
      .def_readonly("remoteness", &Result::remoteness,
                    "plies to the end under perfect play; 0 once over; None "
                    "if unknown")
      .def_readonly("best_move", &Result::best_move,
                    "the perfect player's cell; None once the game is over")
      .def_readonly("moves", &Result::moves,
                    "every legal move in board order (with gravity, columns "
                    "left to right)")
      .def(py::self == py::self)
      .def("__repr__", &Result::Repr);
}

// Table: a game's answers.
void AddTable(py::module_& m) {
  py::class_<Source>(m, "Table",
                     "A game's answers: its table, or the exact search after "
                     "an opening book.")
      .def("probe", &Source::Probe, py::arg("position"),
           "The answer to a position ('X.O/X.X/OO.'): value, remoteness, "
           "best move and every move's.")
      .def("probe_many", &Source::ProbeMany, py::arg("positions"),
           "probe() for each position, in one call (the GIL released).")
      .def("analyse", &Source::Analyse, py::arg("position"),
           py::arg("max_nodes") = 0, py::arg("max_seconds") = 0.0,
           py::arg("best_only") = false,
           "probe() within limits (0: none) for a searched position; "
           "SearchStopped past them. best_only: the value, remoteness and "
           "best move alone, moves empty when a search answered (far "
           "sooner).")
      .def("choose", &Source::Choose, py::arg("position"),
           py::arg("level") = kPerfectLevel, py::arg("seed") = py::none(),
           py::arg("vary") = false, py::arg("max_nodes") = 0,
           py::arg("max_seconds") = 0.0,
           "The cell a player of `level` (1 random .. 10 perfect) plays; "
           "the same every time for the same seed; vary: level 10 picks "
           "among equally good moves at random.")
      .def("pv", &Source::Pv, py::arg("position"), py::arg("max_nodes") = 0,
           py::arg("max_seconds") = 0.0,
           "The principal variation: the cells both sides play under "
           "perfect play to the end (as far as the limits let a search "
           "go).")
      .def("tree", &Source::Tree, py::arg("position"), py::arg("depth") = 1,
           py::arg("max_nodes") = 0, py::arg("max_seconds") = 0.0,
           "The game tree to `depth` plies, for teaching minimax: nested "
           "dicts, each node's cell, position, to_move, value, remoteness, "
           "best (the child minimax keeps), the seeds' score (+10 - plies, "
           "-10 + plies, 0) and sign (+1, 0, -1) for the root's side to "
           "move, and children.")
      .def_property_readonly(
          "game",
          [](const Source& s) {
            const GameSpec& g = s.Hold()->game().spec();
            return MakeGame(g.width, g.height, g.k, g.gravity, g.misere);
          },
          "The table's game (its rules).")
      .def("play_in_terminal", &Source::PlayInTerminal,
           py::arg("human_first") = true, py::arg("mark") = "X",
           "The game against the person at the terminal, as `play` plays "
           "it; returns play's exit code.")
      .def("close", &Source::Close)
      .def("__enter__", [](Source& s) -> Source& { return s; })
      .def("__exit__",
           [](Source& s, py::object, py::object, py::object) { s.Close(); })
      .def("__repr__", &Source::Repr);
}

// Game's answers: analyse, choose, pv and tree.
void AddGameAnswers(py::class_<PyGame>& game) {
  game.def("analyse", &PyGame::Analyse, py::arg("position"),
           py::arg("max_nodes") = 0, py::arg("max_seconds") = 0.0,
           py::arg("best_only") = false,
           "The answer to a position from the game's own table or search "
           "(opened at the first call and kept), within limits (0: none); "
           "SearchStopped past them. best_only: the value, remoteness and "
           "best move alone, moves empty when a search answered (far "
           "sooner).")
      .def("choose", &PyGame::Choose, py::arg("position"),
           py::arg("level") = kPerfectLevel, py::arg("seed") = py::none(),
           py::arg("vary") = false, py::arg("max_nodes") = 0,
           py::arg("max_seconds") = 0.0,
           "Table.choose, from analyse()'s source.")
      .def("pv", &PyGame::Pv, py::arg("position"), py::arg("max_nodes") = 0,
           py::arg("max_seconds") = 0.0, "Table.pv, from analyse()'s source.")
      .def("tree", &PyGame::Tree, py::arg("position"), py::arg("depth") = 1,
           py::arg("max_nodes") = 0, py::arg("max_seconds") = 0.0,
           "Table.tree, from analyse()'s source.");
}

// Game's rules: legal moves, play, the result, move sequences.
void AddGameRules(py::class_<PyGame>& game) {
  game.def("legal_moves", &PyGame::LegalMoves, py::arg("position"),
           "The legal moves' cells in board order (with gravity, columns "
           "left to right); [] once the game is over.")
      .def("play", &PyGame::Play, py::arg("position"), py::arg("cell"),
           "The position after the side to move plays `cell` (ValueError "
           "saying why for an illegal move).")
      .def("drop", &PyGame::Drop, py::arg("position"), py::arg("column"),
           "play() of the stone dropped in `column` (gravity only).")
      .def("is_over", &PyGame::IsOver, py::arg("position"))
      .def("winner", &PyGame::WinnerIn, py::arg("position"),
           "'X', 'O' or 'draw' once the game is over; None while it goes "
           "on.")
      .def("to_move", &PyGame::ToMove, py::arg("position"), "'X' or 'O'")
      .def("from_moves", &PyGame::FromMovesIn, py::arg("moves"),
           py::arg("notation") = "cells",
           "The position after `moves` from the empty board: a list of "
           "cells, or a str in `notation`: 'cells' ('4 0 8'), 'columns' "
           "('3 3 4', 0-based) or 'digits' ('4453', 1-based columns).")
      .def("to_moves", &PyGame::ToMovesIn, py::arg("position"),
           py::arg("notation") = "cells",
           "A sequence of moves, in `notation`, that builds the position.");
}

// Game's solver: solve and estimate.
void AddGameSolver(py::class_<PyGame>& game) {
  game.def("solve", &PyGame::Solve, py::arg("path"),
           py::arg("progress") = py::none(), py::arg("threads") = 0,
           py::arg("layout") = "auto", py::arg("remoteness") = py::none(),
           py::arg("memory") = 0, py::arg("work_dir") = "",
           py::arg("resume") = false,
           py::arg("tier_indices") = SolveRequest().tier_indices,
           "Solves the game and writes its table to `path` (as `solve` "
           "does, with its options); progress(phase, layer, done, total) is "
           "called now and then. Returns what it found: layout, reachable, "
           "table_bytes, start_value, start_remoteness, seconds.")
      .def("estimate", &PyGame::Estimate, py::arg("layout") = "auto",
           py::arg("remoteness") = py::none(), py::arg("memory") = 0,
           py::arg("threads") = 0, py::arg("work_dir") = "",
           "What solve() would take, before it starts (as `solve "
           "--estimate`): the layout chosen, indices, memory and its limit, "
           "the refusal if it does not fit, and (low, high) seconds, "
           "table_bytes and work_dir_bytes.");
}

// Game, and open_table.
void AddGame(py::module_& m) {
  py::class_<PyGame> game(m, "Game", "An m,n,k-game.");
  game.def(py::init(&MakeGame), py::arg("width") = 3, py::arg("height") = 3,
           py::arg("k") = 3, py::arg("gravity") = false,
           py::arg("misere") = false)
      .def_property_readonly("width",
                             [](const PyGame& g) { return g.spec.width; })
      .def_property_readonly("height",
                             [](const PyGame& g) { return g.spec.height; })
      .def_property_readonly("k", [](const PyGame& g) { return g.spec.k; })
      .def_property_readonly("gravity",
                             [](const PyGame& g) { return g.spec.gravity; })
      .def_property_readonly("misere",
                             [](const PyGame& g) { return g.spec.misere; })
      .def("table", &PyGame::Open, py::arg("path") = "",
           py::arg("search_memory") = SourceOptions().search_memory,
           py::arg("search_threads") = 1,
           "The game's answers: the table at `path`, else its built-in "
           "table, else (Connect-style) the exact search after its built-in "
           "book.");
  AddGameAnswers(game);
  AddGameRules(game);
  AddGameSolver(game);
  game.def("__repr__", &PyGame::Repr);

  m.def("open_table", &OpenTable, py::arg("path"),
        "Opens a table file (checked as `play` checks it).");
}

}  // namespace
}  // namespace mnk

PYBIND11_MODULE(_mnk, m) {
  using namespace mnk;
  m.doc() =
      "The perfect player of tic-tac-toe and its family (m,n,k-games, "
      "gravity, misère):\nevery position's value, remoteness and best move, "
      "from solved tables or exact search.";
  m.attr("__version__") = kVersion;

  AddExceptions(m);
  AddResults(m);
  AddTable(m);
  AddGame(m);
}
