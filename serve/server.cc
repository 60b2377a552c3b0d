#include "serve/server.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "answer/play.h"
#include "answer/text.h"
#include "nlohmann/json.hpp"
#include "rules/game/game_json.h"
#include "rules/game/moves.h"
#include "rules/game/printable.h"
#include "serve/web_files.h"
#include "table/file_io.h"

namespace mnk {
namespace {

using Json = nlohmann::ordered_json;

std::string Dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string ContentType(absl::string_view name) {
  static constexpr std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
  };
  for (const auto& [suffix, type] : kTypes) {
    if (absl::EndsWith(name, suffix)) return type;
  }
  return "application/octet-stream";
}

AnswerLimits Limits(const std::atomic<bool>* cancel, absl::Duration max_time) {
  AnswerLimits limits;
  limits.cancel = cancel;
  limits.max_time = max_time;
  return limits;
}

// /api/choose's level, seed and vary as answer/play.h's Level, or the
// error naming the one that is wrong.
absl::StatusOr<Level> LevelOf(const Catalog::Choice& choice) {
  Level level;
  if (!choice.level.empty() && !absl::SimpleAtoi(choice.level, &level.level)) {
    return absl::InvalidArgumentError(
        absl::StrCat("level '", Printable(choice.level),
                     "': expected a whole number from 1 (random) to 10 "
                     "(perfect)"));
  }
  if (absl::Status s = CheckLevel(level.level, "level"); !s.ok()) return s;
  if (!choice.seed.empty()) {
    uint64_t seed;
    if (!absl::SimpleAtoi(choice.seed, &seed)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seed '", Printable(choice.seed),
          "': expected a whole number from 0 to 18446744073709551615"));
    }
    level.seed = seed;
  }
  if (choice.vary == "true") {
    level.vary = true;
  } else if (!choice.vary.empty() && choice.vary != "false") {
    return absl::InvalidArgumentError(absl::StrCat(
        "vary '", Printable(choice.vary), "': expected true or false"));
  }
  return level;
}

}  // namespace

Reply ErrorReply(int status, absl::string_view message) {
  return {status, Dump({{"error", std::string(message)}})};
}

absl::Status Catalog::Add(std::unique_ptr<AnswerSource> source, bool replace) {
  const GameSpec& spec = source->game().spec();
  const std::string id = spec.FileStem();
  for (Served& s : games_) {
    if (s.id != id) continue;
    if (!replace) {
      return absl::AlreadyExistsError(absl::StrCat(
          "two sources for ", spec.Name(), ": ", Printable(s.source->origin()),
          " and ", Printable(source->origin()), "; expected one a game"));
    }
    s.source = std::move(source);
    return absl::OkStatus();
  }
  games_.push_back({id, std::move(source)});
  return absl::OkStatus();
}

absl::Status Catalog::AddDirectory(const std::string& dir,
                                   Table::Placement placement) {
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    return absl::ErrnoToStatus(errno,
                               absl::StrCat("--tables=", Printable(dir)));
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("--tables=", Printable(dir),
                     " is not a folder: expected a folder of "
                     "table files (*.mnk)"));
  }
  absl::StatusOr<std::vector<std::string>> names = ListDirectory(dir);
  if (!names.ok()) return names.status();
  std::map<std::string, std::string> seen;  // game id -> file, in `dir`
  for (const std::string& name : *names) {
    if (!absl::EndsWith(name, ".mnk")) continue;
    SourceOptions options;
    options.table = absl::StrCat(dir, "/", name);
    options.placement = placement;
    absl::StatusOr<std::unique_ptr<AnswerSource>> source =
        AnswerSource::Open(std::nullopt, options);
    if (!source.ok()) return source.status();
    // A server runs for long: a damaged page is found at start-up, not by
    // the first visitor whose probe reads it.
    if (absl::Status s = (*source)->table()->CheckAll(); !s.ok()) return s;
    const GameSpec& spec = (*source)->game().spec();
    if (auto it = seen.find(spec.FileStem()); it != seen.end()) {
      return absl::AlreadyExistsError(
          absl::StrCat("two tables for ", spec.Name(), " in ", Printable(dir),
                       ": ", Printable(it->second), " and ",
                       Printable(options.table), "; expected one a game"));
    }
    seen[spec.FileStem()] = options.table;
    if (absl::Status s = Add(*std::move(source), /*replace=*/true); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

const Catalog::Served* Catalog::Find(absl::string_view id) const {
  for (const Served& s : games_) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

std::string Catalog::GamesJson() const {
  Json list = Json::array();
  for (const Served& s : games_) {
    const GameSpec& spec = s.source->game().spec();
    Json game = {{"id", s.id}, {"name", spec.Name()}, {"title", spec.Title()}};
    game.update(GameJson(spec));
    game["cells"] = spec.cells();
    if (const Table* table = s.source->table()) {
      game["reachable"] = table->reachable();
      game["layout"] = table->layout_name();
      game["table_bytes"] = table->file_bytes();
    } else {
      const Table* book = s.source->book();
      game["reachable"] = nullptr;
      game["layout"] = "search";
      game["table_bytes"] = book != nullptr ? book->file_bytes() : 0;
    }
    list.push_back(std::move(game));
  }
  return Dump(list);
}

bool Catalog::NeedsSearch(absl::string_view game,
                          absl::string_view position) const {
  const Served* s = Find(game);
  if (s == nullptr) return false;
  absl::StatusOr<Position> p = s->source->game().Parse(position);
  return p.ok() && s->source->NeedsSearch(*p);
}

Reply Catalog::NoGame(absl::string_view game) const {
  std::vector<std::string> ids;
  for (const Served& g : games_) ids.push_back(g.id);
  return ErrorReply(
      404, absl::StrCat("no game '", Printable(game), "': expected one of ",
                        absl::StrJoin(ids, ", ")));
}

Reply Catalog::Replied(const Served& s, const absl::Status& status) {
  if (FailureOf(status) == AnswerFailure::kBadPosition ||
      absl::IsInvalidArgument(status)) {
    return ErrorReply(400, status.message());
  }
  if (IsSearchStop(status)) {
    return ErrorReply(503, status.message());  // the search's limit
  }
  // The position is valid, so the table is at fault.
  return ErrorReply(500, absl::StrCat("the table of ", s.id,
                                      " cannot answer: ", status.message()));
}

Reply Catalog::PositionReply(absl::string_view game, absl::string_view position,
                             const std::atomic<bool>* cancel,
                             absl::Duration max_time,
                             absl::string_view best_only) const {
  const Served* s = Find(game);
  if (s == nullptr) return NoGame(game);
  if (best_only != "" && best_only != "true" && best_only != "false") {
    return ErrorReply(400, absl::StrCat("best_only '", Printable(best_only),
                                        "': expected true or false"));
  }
  const absl::StatusOr<Analysis> a = s->source->Answer(
      position, Limits(cancel, max_time), {},
      best_only == "true" ? Need::kBestMove : Need::kEveryMove);
  if (!a.ok()) return Replied(*s, a.status());
  return {200, AnalysisJson(s->source->game(), *a)};
}

Reply Catalog::PvReply(absl::string_view game, absl::string_view position,
                       const std::atomic<bool>* cancel,
                       absl::Duration max_time) const {
  const Served* s = Find(game);
  if (s == nullptr) return NoGame(game);
  const absl::StatusOr<Line> line =
      PrincipalVariation(*s->source, position, Limits(cancel, max_time));
  if (!line.ok()) return Replied(*s, line.status());
  return {200, Dump({{"pv", line->cells}, {"complete", line->complete}})};
}

Reply Catalog::TreeReply(absl::string_view game, absl::string_view position,
                         absl::string_view depth,
                         const std::atomic<bool>* cancel,
                         absl::Duration max_time) const {
  const Served* s = Find(game);
  if (s == nullptr) return NoGame(game);
  int plies = 1;
  if (!depth.empty() && !absl::SimpleAtoi(depth, &plies)) {
    return ErrorReply(400, absl::StrCat("depth '", Printable(depth),
                                        "': expected a number of plies"));
  }
  const absl::StatusOr<TreeNode> root =
      GameTree(*s->source, position, plies, Limits(cancel, max_time));
  if (absl::IsResourceExhausted(root.status()) &&
      !IsSearchStop(root.status())) {
    return ErrorReply(400, root.status().message());  // past kMaxTreeNodes
  }
  if (!root.ok()) return Replied(*s, root.status());
  return {200, TreeJson(s->source->game(), *root)};
}

Reply Catalog::ChooseReply(absl::string_view game, absl::string_view position,
                           const Choice& choice,
                           const std::atomic<bool>* cancel,
                           absl::Duration max_time) const {
  const Served* s = Find(game);
  if (s == nullptr) return NoGame(game);
  const absl::StatusOr<Level> level = LevelOf(choice);
  if (!level.ok()) return ErrorReply(400, level.status().message());
  const absl::StatusOr<int> cell =
      Choose(*s->source, position, *level, Limits(cancel, max_time));
  if (!cell.ok()) return Replied(*s, cell.status());
  const Game& rules = s->source->game();
  absl::StatusOr<Position> after = ReadPosition(rules, position);
  if (after.ok()) after = PlayMove(rules, *after, *cell);
  if (!after.ok()) return Replied(*s, after.status());
  return {200, Dump({{"cell", *cell}, {"position", rules.Format(*after)}})};
}

absl::StatusOr<StaticFiles> StaticFiles::Load(const std::string& dir) {
  absl::StatusOr<std::vector<std::string>> names = ListDirectory(dir);
  if (!names.ok()) return names.status();
  StaticFiles files;
  for (const std::string& name : *names) {
    const std::string path = absl::StrCat(dir, "/", name);
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    // Runfiles are symbolic links to the page's files.
    absl::StatusOr<std::string> bytes =
        ReadWholeFile(path, /*follow_links=*/true);
    if (!bytes.ok()) return bytes.status();
    files.files_["/" + name] = {ContentType(name), *std::move(bytes)};
  }
  if (files.files_.count("/index.html") == 0) {
    return absl::NotFoundError(absl::StrCat("no index.html in ", Printable(dir),
                                            ": expected the page's files"));
  }
  return files;
}

StaticFiles StaticFiles::Builtin() {
  StaticFiles files;
  for (const BuiltinFile& f : WebFiles()) {
    files.files_[absl::StrCat("/", f.name)] = {ContentType(f.name),
                                               std::string(f.bytes)};
  }
  return files;
}

const StaticFiles::File* StaticFiles::Find(absl::string_view path) const {
  if (path == "/") path = "/index.html";
  auto it = files_.find(path);
  return it == files_.end() ? nullptr : &it->second;
}

}  // namespace mnk
