// The C library (mnk.h) over the C++ core: the answer call
// (answer/answer.h) for probes, the solve call (solver/solve_job.h) for
// mnk_estimate and mnk_solve_with. Every entry point catches what the core
// may throw and keeps the message of its failure for mnk_last_error().
#include "api/mnk.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "answer/answer.h"
#include "answer/oracle.h"
#include "answer/play.h"
#include "base/version/version.h"
#include "rules/game/game.h"
#include "rules/game/moves.h"
#include "solver/solve_job.h"
#include "table/layout.h"
#include "table/record.h"

struct mnk_source {
  std::unique_ptr<mnk::AnswerSource> source;
};

struct mnk_cancel {
  std::atomic<bool> flag{false};
};

namespace mnk {
namespace {

thread_local std::string last_error;

mnk_status Code(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return MNK_OK;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return MNK_INVALID_ARGUMENT;
    case absl::StatusCode::kNotFound:
      return MNK_NOT_FOUND;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAlreadyExists:
      return MNK_FAILED_PRECONDITION;
    case absl::StatusCode::kDataLoss:
      return MNK_DATA_LOSS;
    case absl::StatusCode::kResourceExhausted:
      return MNK_RESOURCE_EXHAUSTED;
    case absl::StatusCode::kDeadlineExceeded:
      return MNK_DEADLINE_EXCEEDED;
    case absl::StatusCode::kCancelled:
      return MNK_CANCELLED;
    case absl::StatusCode::kPermissionDenied:
      return MNK_PERMISSION_DENIED;
    default:
      return MNK_INTERNAL;
  }
}

mnk_status Failed(const absl::Status& status) {
  last_error = std::string(status.message());
  return Code(status.code());
}

mnk_status Invalid(const std::string& message) {
  return Failed(absl::InvalidArgumentError(message));
}

// Runs `call`, turning what the core throws into a status.
template <typename Call>
mnk_status Guarded(const Call& call) {
  try {
    return call();
  } catch (const std::bad_alloc&) {
    return Failed(absl::ResourceExhaustedError("out of memory"));
  } catch (const std::exception& e) {
    return Failed(absl::InternalError(e.what()));
  } catch (...) {
    return Failed(absl::InternalError("an unknown exception"));
  }
}

absl::StatusOr<GameSpec> SpecOf(const mnk_game* game) {
  if (game == nullptr) return absl::InvalidArgumentError("game is NULL");
  const GameSpec spec{game->width, game->height, game->k, game->gravity != 0,
                      game->misere != 0};
  absl::StatusOr<Game> made = Game::Create(spec);
  if (!made.ok()) return made.status();
  return spec;
}

void Fill(const Game& game, const Analysis& a, mnk_answer* out) {
  *out = mnk_answer{};
  out->to_move = a.position.side_to_move();
  out->value = static_cast<mnk_value>(a.record.value);
  out->remoteness =
      a.record.remoteness == kUnknownRemoteness ? -1 : a.record.remoteness;
  out->best_move = a.record.best_move == kNoMove ? -1 : a.record.best_move;
  for (const MoveEval& m : a.moves) {
    mnk_move& move = out->moves[out->num_moves++];
    move.cell = m.cell;
    move.column = m.cell % game.width();
    move.value = static_cast<mnk_value>(m.value);
    move.remoteness = m.remoteness == kUnknownRemoteness ? -1 : m.remoteness;
  }
}

// The core's limits for `limits` (NULL: none).
absl::StatusOr<AnswerLimits> LimitsOf(const mnk_limits* limits) {
  AnswerLimits within;
  if (limits == nullptr) return within;
  absl::StatusOr<absl::Duration> time =
      TimeLimit(limits->max_seconds, "max_seconds");
  if (!time.ok()) return time.status();
  within.max_nodes = limits->max_nodes;
  within.max_time = *time;
  if (limits->cancel != nullptr) within.cancel = &limits->cancel->flag;
  return within;
}

// Writes `text` to `out` (MNK_TEXT_SIZE bytes).
mnk_status Written(const absl::StatusOr<std::string>& text, char* out) {
  if (!text.ok()) return Failed(text.status());
  if (text->size() >= MNK_TEXT_SIZE) {
    return Failed(absl::InternalError("text longer than MNK_TEXT_SIZE"));
  }
  std::copy(text->begin(), text->end(), out);
  out[text->size()] = '\0';
  return MNK_OK;
}
// Writes `p`, a position of `game`, to `out`.
mnk_status Written(const Game& game, const absl::StatusOr<Position>& p,
                   char* out) {
  if (!p.ok()) return Failed(p.status());
  return Written(game.Format(*p), out);
}

// The rules calls' shared steps: the arguments checked, the position read,
// then `step` (game, position) run.
template <typename Step>
mnk_status OnPosition(const mnk_source* source, const char* position,
                      const void* out, const Step& step) {
  if (source == nullptr || position == nullptr || out == nullptr) {
    return Invalid("source, position and the output must not be NULL");
  }
  const Game& game = source->source->game();
  const absl::StatusOr<Position> p = ReadPosition(game, position);
  if (!p.ok()) return Failed(p.status());
  return step(game, *p);
}

mnk_status Probe(mnk_source* source, const char* position,
                 const mnk_limits* limits, mnk_answer* answer,
                 Need need = Need::kEveryMove) {
  if (source == nullptr || position == nullptr || answer == nullptr) {
    return Invalid("source, position and answer must not be NULL");
  }
  const AnswerSource& s = *source->source;
  const absl::StatusOr<AnswerLimits> within = LimitsOf(limits);
  if (!within.ok()) return Failed(within.status());
  const absl::StatusOr<Analysis> a = s.Answer(position, *within, {}, need);
  if (!a.ok()) return Failed(a.status());
  Fill(s.game(), *a, answer);
  return MNK_OK;
}

// The request `options` (NULL: the defaults) make for `game`.
absl::StatusOr<SolveRequest> RequestOf(const mnk_game* game,
                                       const mnk_solve_options* options) {
  absl::StatusOr<GameSpec> spec = SpecOf(game);
  if (!spec.ok()) return spec.status();
  mnk_solve_options o;
  mnk_solve_options_init(&o);
  if (options != nullptr) o = *options;
  SolveRequest request;
  request.game = *spec;
  if (o.layout != nullptr) {
    if (absl::Status s = SetLayout(request, o.layout); !s.ok()) return s;
  }
  if (o.remoteness < -1 || o.remoteness > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("remoteness ", o.remoteness,
                     ": expected -1 (the layout's own), 0 or 1"));
  }
  if (o.remoteness >= 0) request.remoteness = o.remoteness == 1;
  request.threads = o.threads;
  request.memory = o.max_memory;
  if (o.work_dir != nullptr) request.work_dir = o.work_dir;
  request.resume = o.resume != 0;
  if (o.tier_indices != 0) request.tier_indices = o.tier_indices;
  if (o.progress != nullptr) {
    request.on_progress = [progress = o.progress, user = o.user](
                              const char* phase, int layer, uint64_t done,
                              uint64_t total) {
      progress(user, phase, layer, done, total);
    };
  }
  if (o.cancel != nullptr) request.cancel = &o.cancel->flag;
  return request;
}

void Fill(const SolveJob& job, mnk_solve_estimate* out) {
  *out = mnk_solve_estimate{};
  absl::SNPrintF(out->layout, sizeof(out->layout), "%s",
                 job.options.layout.name());
  out->remoteness = job.options.layout.has_remoteness();
  out->indices = job.estimate.indices;
  out->memory = job.bytes;
  out->max_memory = job.options.max_bytes;
  out->fits = job.refusal.empty();
  out->seconds_low = job.estimate.seconds.low;
  out->seconds_high = job.estimate.seconds.high;
  out->table_bytes_low = job.estimate.table_bytes.low;
  out->table_bytes_high = job.estimate.table_bytes.high;
  out->work_dir_bytes_low = job.estimate.work_dir_bytes.low;
  out->work_dir_bytes_high = job.estimate.work_dir_bytes.high;
}

void Fill(const Solved& solved, mnk_solve_result* out) {
  const SolveStats& st = solved.solution.stats;
  *out = mnk_solve_result{};
  out->start_value = static_cast<mnk_value>(st.start_value);
  out->start_remoteness = st.start_remoteness;
  out->reachable = st.reachable;
  out->table_bytes = solved.table_bytes;
  out->seconds = st.seconds;
}

}  // namespace
}  // namespace mnk

extern "C" {

const char* mnk_version(void) { return mnk::kVersion; }

const char* mnk_last_error(void) { return mnk::last_error.c_str(); }

void mnk_options_init(mnk_options* options) {
  if (options == nullptr) return;
  *options = mnk_options{};
  options->builtin = 1;
  options->search_memory = mnk::SourceOptions().search_memory;
  options->searches = 1;
  options->search_threads = 1;
}

mnk_status mnk_open_game(const mnk_game* game, const mnk_options* options,
                         mnk_source** out) {
  return mnk::Guarded([&] {
    if (out == nullptr) return mnk::Invalid("out is NULL");
    *out = nullptr;
    absl::StatusOr<mnk::GameSpec> spec = mnk::SpecOf(game);
    if (!spec.ok()) return mnk::Failed(spec.status());
    mnk_options defaults;
    mnk_options_init(&defaults);
    const mnk_options& o = options != nullptr ? *options : defaults;
    mnk::SourceOptions source_options;
    source_options.table = o.table != nullptr ? o.table : "";
    source_options.book = o.book != nullptr ? o.book : "";
    source_options.builtin = o.builtin != 0;
    source_options.search_memory = o.search_memory;
    source_options.searches = o.searches;
    source_options.search_threads = o.search_threads;
    source_options.how_to_solve = [](const mnk::GameSpec& g) {
      return absl::StrCat(
          "mnk_solve(&game, FILE, ...) makes one (`solve ", mnk::SolveFlags(g),
          " --estimate` says what it takes), and mnk_open_game with "
          "options.table = FILE plays from it");
    };
    absl::StatusOr<std::unique_ptr<mnk::AnswerSource>> source =
        mnk::AnswerSource::Open(*spec, source_options);
    if (!source.ok()) return mnk::Failed(source.status());
    *out = new mnk_source{*std::move(source)};
    return MNK_OK;
  });
}

mnk_status mnk_open_table(const char* path, mnk_source** out) {
  return mnk::Guarded([&] {
    if (out == nullptr) return mnk::Invalid("out is NULL");
    *out = nullptr;
    if (path == nullptr || path[0] == '\0') {
      return mnk::Invalid("the table's path is empty: expected a file name");
    }
    mnk::SourceOptions options;
    options.table = path;
    absl::StatusOr<std::unique_ptr<mnk::AnswerSource>> source =
        mnk::AnswerSource::Open(std::nullopt, options);
    if (!source.ok()) return mnk::Failed(source.status());
    *out = new mnk_source{*std::move(source)};
    return MNK_OK;
  });
}

void mnk_close(mnk_source* source) { delete source; }

mnk_status mnk_source_game(const mnk_source* source, mnk_game* game,
                           int* searched) {
  if (source == nullptr || game == nullptr) {
    return mnk::Invalid("source and game must not be NULL");
  }
  const mnk::GameSpec& spec = source->source->game().spec();
  *game = {spec.width, spec.height, spec.k, spec.gravity, spec.misere};
  if (searched != nullptr) *searched = source->source->searched();
  return MNK_OK;
}

mnk_status mnk_probe(mnk_source* source, const char* position,
                     mnk_answer* answer) {
  return mnk::Guarded(
      [&] { return mnk::Probe(source, position, nullptr, answer); });
}

mnk_status mnk_probe_within(mnk_source* source, const char* position,
                            const mnk_limits* limits, mnk_answer* answer) {
  return mnk::Guarded(
      [&] { return mnk::Probe(source, position, limits, answer); });
}

mnk_status mnk_probe_best(mnk_source* source, const char* position,
                          const mnk_limits* limits, mnk_answer* answer) {
  return mnk::Guarded([&] {
    return mnk::Probe(source, position, limits, answer, mnk::Need::kBestMove);
  });
}

mnk_status mnk_probe_many(mnk_source* source, const char* const* positions,
                          size_t count, mnk_answer* answers,
                          mnk_status* statuses) {
  return mnk::Guarded([&] {
    if (count > 0 && (positions == nullptr || answers == nullptr)) {
      return mnk::Invalid("positions and answers must not be NULL");
    }
    mnk_status first = MNK_OK;
    std::string first_error;
    for (size_t i = 0; i < count; ++i) {
      const mnk_status s =
          mnk::Probe(source, positions[i], nullptr, &answers[i]);
      if (statuses != nullptr) statuses[i] = s;
      if (s != MNK_OK && first == MNK_OK) {
        first = s;
        first_error = absl::StrCat("position ", i, ": ", mnk::last_error);
      }
    }
    if (first != MNK_OK) mnk::last_error = first_error;
    return first;
  });
}

mnk_status mnk_rules(const mnk_source* source, const char* position,
                     mnk_state* state) {
  return mnk::Guarded([&] {
    return mnk::OnPosition(
        source, position, state, [&](const mnk::Game& game, mnk::Position p) {
          *state = mnk_state{};
          state->to_move = p.side_to_move();
          state->over = game.IsTerminal(p) ? 1 : 0;
          state->winner = static_cast<mnk_winner>(mnk::WinnerOf(game, p));
          for (int cell : mnk::BoardOrderMoves(game, p)) {
            state->moves[state->num_moves++] = cell;
          }
          return MNK_OK;
        });
  });
}

mnk_status mnk_play(const mnk_source* source, const char* position, int cell,
                    char* out) {
  return mnk::Guarded([&] {
    return mnk::OnPosition(
        source, position, out, [&](const mnk::Game& game, mnk::Position p) {
          return mnk::Written(game, mnk::PlayMove(game, p, cell), out);
        });
  });
}

mnk_status mnk_drop(const mnk_source* source, const char* position, int column,
                    char* out) {
  return mnk::Guarded([&] {
    return mnk::OnPosition(
        source, position, out, [&](const mnk::Game& game, mnk::Position p) {
          return mnk::Written(game, mnk::PlayColumn(game, p, column), out);
        });
  });
}

mnk_status mnk_from_moves(const mnk_source* source, const char* moves,
                          const char* notation, char* out) {
  return mnk::Guarded([&] {
    if (source == nullptr || moves == nullptr || notation == nullptr ||
        out == nullptr) {
      return mnk::Invalid("source, moves, notation and out must not be NULL");
    }
    const mnk::Game& game = source->source->game();
    const absl::StatusOr<mnk::Notation> n = mnk::NotationNamed(notation);
    if (!n.ok()) return mnk::Failed(n.status());
    return mnk::Written(game, mnk::FromMoves(game, moves, *n), out);
  });
}

mnk_status mnk_to_moves(const mnk_source* source, const char* position,
                        const char* notation, char* out) {
  return mnk::Guarded([&] {
    if (notation == nullptr) return mnk::Invalid("notation must not be NULL");
    const absl::StatusOr<mnk::Notation> n = mnk::NotationNamed(notation);
    if (!n.ok()) return mnk::Failed(n.status());
    return mnk::OnPosition(
        source, position, out, [&](const mnk::Game& game, mnk::Position p) {
          return mnk::Written(mnk::ToMoves(game, p, *n), out);
        });
  });
}

void mnk_level_init(mnk_level* level) {
  if (level != nullptr) *level = mnk_level{mnk::kPerfectLevel, 0, 0, 0};
}

mnk_status mnk_choose(mnk_source* source, const char* position,
                      const mnk_level* level, const mnk_limits* limits,
                      int* cell) {
  return mnk::Guarded([&] {
    if (source == nullptr || position == nullptr || cell == nullptr) {
      return mnk::Invalid("source, position and cell must not be NULL");
    }
    mnk::Level chosen;
    if (level != nullptr) {
      chosen.level = level->level;
      chosen.vary = level->vary != 0;
      if (level->seeded != 0) chosen.seed = level->seed;
    }
    const absl::StatusOr<mnk::AnswerLimits> within = mnk::LimitsOf(limits);
    if (!within.ok()) return mnk::Failed(within.status());
    const absl::StatusOr<int> move =
        mnk::Choose(*source->source, position, chosen, *within);
    if (!move.ok()) return mnk::Failed(move.status());
    *cell = *move;
    return MNK_OK;
  });
}

mnk_status mnk_pv(mnk_source* source, const char* position,
                  const mnk_limits* limits, int* cells, int* count,
                  int* complete) {
  return mnk::Guarded([&] {
    if (source == nullptr || position == nullptr || cells == nullptr ||
        count == nullptr) {
      return mnk::Invalid("source, position, cells and count must not be NULL");
    }
    const absl::StatusOr<mnk::AnswerLimits> within = mnk::LimitsOf(limits);
    if (!within.ok()) return mnk::Failed(within.status());
    const absl::StatusOr<mnk::Line> line =
        mnk::PrincipalVariation(*source->source, position, *within);
    if (!line.ok()) return mnk::Failed(line.status());
    std::copy(line->cells.begin(), line->cells.end(), cells);
    *count = static_cast<int>(line->cells.size());
    if (complete != nullptr) *complete = line->complete ? 1 : 0;
    return MNK_OK;
  });
}

namespace mnk {
namespace {

// Appends `node` and its subtree to `out` in preorder; false past
// `capacity` nodes.
bool Flatten(const TreeNode& node, int parent, int depth, int capacity,
             std::vector<mnk_tree_node>* out) {
  if (static_cast<int>(out->size()) >= capacity) return false;
  const int index = static_cast<int>(out->size());
  out->push_back(mnk_tree_node{
      parent, depth, node.cell, node.position.side_to_move(),
      static_cast<mnk_value>(node.value),
      node.remoteness == kUnknownRemoteness ? -1 : node.remoteness,
      node.best ? 1 : 0, node.score, node.sign});
  for (const TreeNode& child : node.children) {
    if (!Flatten(child, index, depth + 1, capacity, out)) return false;
  }
  return true;
}

}  // namespace
}  // namespace mnk

mnk_status mnk_tree(mnk_source* source, const char* position, int depth,
                    const mnk_limits* limits, mnk_tree_node* nodes,
                    int capacity, int* count) {
  return mnk::Guarded([&] {
    if (source == nullptr || position == nullptr || nodes == nullptr ||
        count == nullptr) {
      return mnk::Invalid("source, position, nodes and count must not be NULL");
    }
    const absl::StatusOr<mnk::AnswerLimits> within = mnk::LimitsOf(limits);
    if (!within.ok()) return mnk::Failed(within.status());
    const absl::StatusOr<mnk::TreeNode> root =
        mnk::GameTree(*source->source, position, depth, *within);
    if (!root.ok()) return mnk::Failed(root.status());
    std::vector<mnk_tree_node> flat;
    if (!mnk::Flatten(*root, -1, 0, capacity, &flat)) {
      return mnk::Failed(absl::ResourceExhaustedError(
          absl::StrCat("the tree of '", position, "' to depth ", depth,
                       " has more than ", capacity, " nodes, the room given")));
    }
    std::copy(flat.begin(), flat.end(), nodes);
    *count = static_cast<int>(flat.size());
    return MNK_OK;
  });
}

mnk_status mnk_cancel_new(mnk_cancel** out) {
  return mnk::Guarded([&] {
    if (out == nullptr) return mnk::Invalid("out is NULL");
    *out = new mnk_cancel;
    return MNK_OK;
  });
}

void mnk_cancel_set(mnk_cancel* cancel) {
  if (cancel != nullptr) cancel->flag.store(true);
}

void mnk_cancel_reset(mnk_cancel* cancel) {
  if (cancel != nullptr) cancel->flag.store(false);
}

void mnk_cancel_free(mnk_cancel* cancel) { delete cancel; }

void mnk_solve_options_init(mnk_solve_options* options) {
  if (options == nullptr) return;
  *options = mnk_solve_options{};
  options->remoteness = -1;
}

mnk_status mnk_estimate(const mnk_game* game, const mnk_solve_options* options,
                        mnk_solve_estimate* out) {
  return mnk::Guarded([&] {
    if (out == nullptr) return mnk::Invalid("out is NULL");
    absl::StatusOr<mnk::SolveRequest> request = mnk::RequestOf(game, options);
    if (!request.ok()) return mnk::Failed(request.status());
    absl::StatusOr<mnk::SolveJob> job = mnk::PlanSolveJob(*request);
    if (!job.ok()) return mnk::Failed(job.status());
    mnk::Fill(*job, out);
    return MNK_OK;
  });
}

mnk_status mnk_solve_with(const mnk_game* game, const char* path,
                          const mnk_solve_options* options,
                          mnk_solve_result* out) {
  return mnk::Guarded([&] {
    if (path == nullptr || path[0] == '\0') {
      return mnk::Invalid("the table's path is empty: expected a file name");
    }
    absl::StatusOr<mnk::SolveRequest> request = mnk::RequestOf(game, options);
    if (!request.ok()) return mnk::Failed(request.status());
    request->out = path;
    absl::StatusOr<mnk::SolveJob> job = mnk::PlanSolveJob(*request);
    if (!job.ok()) return mnk::Failed(job.status());
    absl::StatusOr<mnk::Solved> solved = mnk::RunSolveJob(*job);
    if (!solved.ok()) return mnk::Failed(solved.status());
    if (out != nullptr) mnk::Fill(*solved, out);
    return MNK_OK;
  });
}

mnk_status mnk_solve(const mnk_game* game, const char* path, int threads,
                     uint64_t max_memory, mnk_progress progress, void* user) {
  mnk_solve_options options;
  mnk_solve_options_init(&options);
  options.layout = "full";
  options.threads = threads;
  options.max_memory = max_memory;
  options.progress = progress;
  options.user = user;
  return mnk_solve_with(game, path, &options, nullptr);
}

}  // extern "C"
