// The C library (mnk.h) over the C++ core: AnswerSource and the player's
// Oracle for answers, the retrograde solver and the table writer for
// mnk_solve. Every entry point catches what the core may throw and keeps
// the message of its failure for mnk_last_error().
#include "api/mnk.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "answer/answer.h"
#include "player/player.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"
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

mnk_status Probe(mnk_source* source, const char* position,
                 const mnk_limits* limits, mnk_answer* answer) {
  if (source == nullptr || position == nullptr || answer == nullptr) {
    return Invalid("source, position and answer must not be NULL");
  }
  const AnswerSource& s = *source->source;
  AnswerLimits within;
  if (limits != nullptr) {
    absl::StatusOr<absl::Duration> time =
        TimeLimit(limits->max_seconds, "max_seconds");
    if (!time.ok()) return Failed(time.status());
    within.max_nodes = limits->max_nodes;
    within.max_time = *time;
    if (limits->cancel != nullptr) within.cancel = &limits->cancel->flag;
  }
  const absl::StatusOr<Analysis> a = s.Answer(position, within);
  if (!a.ok()) return Failed(a.status());
  Fill(s.game(), *a, answer);
  return MNK_OK;
}

}  // namespace
}  // namespace mnk

extern "C" {

const char* mnk_version(void) { return "1.0.0"; }

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

mnk_status mnk_solve(const mnk_game* game, const char* path, int threads,
                     uint64_t max_memory, mnk_progress progress, void* user) {
  return mnk::Guarded([&] {
    absl::StatusOr<mnk::GameSpec> spec = mnk::SpecOf(game);
    if (!spec.ok()) return mnk::Failed(spec.status());
    if (path == nullptr || path[0] == '\0') {
      return mnk::Invalid("the table's path is empty: expected a file name");
    }
    if (threads < 0 || threads > 256) {
      return mnk::Invalid(absl::StrCat("threads ", threads,
                                       ": expected 0 (one per core) to "
                                       "256"));
    }
    mnk::SolveOptions options;
    options.threads = threads > 0
                          ? threads
                          : std::max(1u, std::thread::hardware_concurrency());
    options.max_bytes = max_memory > 0 ? max_memory : mnk::DefaultMemoryLimit();
    if (progress != nullptr) {
      options.on_progress = [progress, user](const char* phase, int layer,
                                             uint64_t done, uint64_t total) {
        progress(user, phase, layer, done, total);
      };
    }
    absl::Status solved =
        mnk::SolveToTable(*mnk::Game::Create(*spec), options, path);
    return solved.ok() ? MNK_OK : mnk::Failed(solved);
  });
}

}  // extern "C"
