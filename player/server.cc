#include "player/server.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"
#include "player/player.h"
#include "solver/game/game_json.h"
#include "solver/game/printable.h"
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

}  // namespace

// The searches of one game: Take waits for a free one.
class Catalog::Searches {
 public:
  explicit Searches(std::vector<std::unique_ptr<ConnectSearch>> all)
      : all_(std::move(all)) {
    for (const auto& s : all_) free_.push_back(s.get());
  }
  ConnectSearch* any() const { return all_.front().get(); }
  ConnectSearch* Take() {
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(
        +[](std::vector<ConnectSearch*>* f) { return !f->empty(); }, &free_));
    ConnectSearch* s = free_.back();
    free_.pop_back();
    return s;
  }
  void Give(ConnectSearch* s) {
    absl::MutexLock lock(&mu_);
    free_.push_back(s);
  }

 private:
  const std::vector<std::unique_ptr<ConnectSearch>> all_;
  absl::Mutex mu_;
  std::vector<ConnectSearch*> free_ ABSL_GUARDED_BY(mu_);
};

Catalog::Served::Served() = default;
Catalog::Served::Served(Served&&) = default;
Catalog::Served& Catalog::Served::operator=(Served&&) = default;
Catalog::Served::~Served() = default;

Oracle Catalog::Served::oracle(ConnectSearch* search,
                               const std::atomic<bool>* cancel) const {
  if (table != nullptr) return Oracle(*table);
  return Oracle(search != nullptr ? search : searches->any(), book.get(),
                max_nodes, cancel);
}

const Game& Catalog::Served::game() const {
  return table != nullptr ? table->game() : searches->any()->game();
}

Reply ErrorReply(int status, absl::string_view message) {
  return {status, Dump({{"error", std::string(message)}})};
}

absl::Status Catalog::Add(std::string source, Table table, bool replace) {
  if (!table.complete()) {
    return absl::FailedPreconditionError(
        absl::StrCat(Printable(source),
                     " is an opening book, not a table: the server answers "
                     "from tables only"));
  }
  const std::string id = table.game().spec().FileStem();
  auto table_ptr = std::make_unique<Table>(std::move(table));
  for (Served& s : games_) {
    if (s.id != id) continue;
    if (!replace) {
      return absl::AlreadyExistsError(
          absl::StrCat("two tables for ", table_ptr->game().spec().Name(), ": ",
                       Printable(s.source), " and ", Printable(source),
                       "; expected one a game"));
    }
    s = Served();
    s.id = id;
    s.source = std::move(source);
    s.table = std::move(table_ptr);
    return absl::OkStatus();
  }
  Served s;
  s.id = id;
  s.source = std::move(source);
  s.table = std::move(table_ptr);
  games_.push_back(std::move(s));
  return absl::OkStatus();
}

absl::Status Catalog::AddSearched(
    std::vector<std::unique_ptr<ConnectSearch>> searches,
    std::unique_ptr<Table> book, uint64_t max_nodes) {
  if (searches.empty()) {
    return absl::InvalidArgumentError("no search: expected at least one");
  }
  const GameSpec& spec = searches.front()->game().spec();
  const std::string id = spec.FileStem();
  if (Find(id) != nullptr) {
    return absl::AlreadyExistsError(
        absl::StrCat(spec.Name(), " is served already"));
  }
  Served s;
  s.id = id;
  s.source = "search";
  s.searches = std::make_unique<Searches>(std::move(searches));
  s.book = std::move(book);
  s.max_nodes = max_nodes;
  games_.push_back(std::move(s));
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
    const std::string path = absl::StrCat(dir, "/", name);
    absl::StatusOr<Table> table = Table::Load(path, std::nullopt, placement);
    if (!table.ok()) return table.status();
    // A server runs for long: a damaged page is found at start-up, not by
    // the first visitor whose probe reads it.
    if (absl::Status s = table->CheckAll(); !s.ok()) return s;
    const std::string id = table->game().spec().FileStem();
    if (auto it = seen.find(id); it != seen.end()) {
      return absl::AlreadyExistsError(
          absl::StrCat("two tables for ", table->game().spec().Name(), " in ",
                       Printable(dir), ": ", Printable(it->second), " and ",
                       Printable(path), "; expected one a game"));
    }
    seen[id] = path;
    if (absl::Status s = Add(path, *std::move(table), /*replace=*/true);
        !s.ok()) {
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
    const GameSpec& spec = s.game().spec();
    Json game = {{"id", s.id}, {"name", spec.Name()}};
    game.update(GameJson(spec));
    game["cells"] = spec.cells();
    if (s.table != nullptr) {
      game["reachable"] = s.table->reachable();
      game["layout"] = s.table->layout_name();
      game["table_bytes"] = s.table->file_bytes();
    } else {
      game["reachable"] = nullptr;
      game["layout"] = "search";
      game["table_bytes"] = s.book != nullptr ? s.book->file_bytes() : 0;
    }
    list.push_back(std::move(game));
  }
  return Dump(list);
}

bool Catalog::NeedsSearch(absl::string_view game,
                          absl::string_view position) const {
  const Served* s = Find(game);
  if (s == nullptr || s->searches == nullptr) return false;
  const Oracle oracle = s->oracle();
  absl::StatusOr<Position> p = oracle.game().Parse(position);
  return p.ok() && !oracle.AnswersAtOnce(*p);
}

Reply Catalog::PositionReply(absl::string_view game, absl::string_view position,
                             const std::atomic<bool>* cancel) const {
  const Served* s = Find(game);
  if (s == nullptr) {
    std::vector<std::string> ids;
    for (const Served& g : games_) ids.push_back(g.id);
    return ErrorReply(
        404, absl::StrCat("no game '", Printable(game), "': expected one of ",
                          absl::StrJoin(ids, ", ")));
  }
  absl::StatusOr<Position> p = s->game().Parse(position);
  if (!p.ok()) {
    return ErrorReply(400, absl::StrCat("position '", Printable(position),
                                        "': ", p.status().message()));
  }
  // A search is used by one answer at a time.
  ConnectSearch* search = nullptr;
  if (s->searches != nullptr && !s->oracle().AnswersAtOnce(*p)) {
    search = s->searches->Take();
  }
  absl::StatusOr<Analysis> a = AnalyzeUnchanged(s->oracle(search, cancel), *p);
  if (search != nullptr) s->searches->Give(search);
  if ((absl::IsResourceExhausted(a.status()) ||
       absl::IsCancelled(a.status())) &&
      s->searches != nullptr) {
    return ErrorReply(503, a.status().message());  // the search's limit
  }
  if (!a.ok()) {
    // The position is valid, so the table is at fault.
    return ErrorReply(500,
                      absl::StrCat("the table of ", s->id,
                                   " cannot answer: ", a.status().message()));
  }
  return {200, AnalysisJson(s->game(), *a)};
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

const StaticFiles::File* StaticFiles::Find(absl::string_view path) const {
  if (path == "/") path = "/index.html";
  auto it = files_.find(path);
  return it == files_.end() ? nullptr : &it->second;
}

}  // namespace mnk
