// The web server's logic without the HTTP: the games it serves, the answers
// of its JSON API and the page's files. serve_main.cc puts it behind
// libmicrohttpd; tests call it directly.
//
//   mnk::Catalog games;
//   games.Add(*mnk::AnswerSource::Open(std::nullopt, {.table = "3x3k3.mnk"}));
//   games.Add(*mnk::AnswerSource::Open(mnk::GameSpec{7, 6, 4, true}, {}));
//   mnk::Reply r = games.PositionReply("3x3k3", "X.O/X.X/OO.");
//   // r.status == 200, r.body == `play --position=X.O/X.X/OO. --json`
//
//   absl::StatusOr<mnk::StaticFiles> web = mnk::StaticFiles::Load(dir);
//   const mnk::StaticFiles::File* f = web->Find("/");  // index.html
//
// API (every body is JSON; errors are {"error": "..."}):
//   GET /api/games            [{"id","name","title","width","height","k",
//                               "gravity","misere","cells","reachable",
//                               "layout","table_bytes"}, ...] in the order
//                               added ("title": GameSpec::Title(); a
//                               game played by search: "layout":"search",
//                               "reachable":null, its book's bytes)
//   GET /api/position?game=ID&position=STR[&best_only=true]
//                             200: the object of `play --position --json`
//                                  (with best_only=true, of `play
//                                  --best_only`: "moves" empty when a
//                                  search answered)
//                             400: a parameter missing or empty, a bad
//                                  position; 404: no such game; 503: a
//                                  searched game's position that takes
//                                  more search than an answer may, or a
//                                  search cancelled
//   GET /api/pv?game=ID&position=STR
//                             200: {"pv": [cells], "complete": bool}: the
//                                  principal variation; errors as above
//   GET /api/tree?game=ID&position=STR&depth=D
//                             200: answer/text.h's TreeJson to D plies
//                                  (default 1); errors as above, 400 for a
//                                  depth outside 0-64 or past 100,000
//                                  nodes
//   GET /api/choose?game=ID&position=STR&level=L&seed=S&vary=true
//                             200: {"cell": N, "position": STR after it}:
//                                  the move answer/play.h's Choose plays
//                                  at level L (1 random .. 10 perfect,
//                                  default 10), the same for the same seed
//                                  (a whole number; none: a fresh draw);
//                                  vary (true or false): level 10 picks
//                                  among equally good moves; errors as
//                                  above, 400 for a bad level, seed or vary
//                                  or a finished game
#ifndef MNK_SERVE_SERVER_H_
#define MNK_SERVE_SERVER_H_

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "answer/answer.h"
#include "answer/text.h"
#include "search/connect.h"
#include "table/table.h"

namespace mnk {

// An HTTP status and a JSON body.
struct Reply {
  int status = 200;
  std::string body;
};

// {"error": message} with the given status.
Reply ErrorReply(int status, absl::string_view message);

class Catalog {
 public:
  // Serves the game of `source` (answer/answer.h) under its file stem
  // ("3x3k3", "4x4k4g", "3x3k3m"): a searched one
  // (Connect Four 7x6) is listed with "layout":"search" and
  // "reachable":null, and answers as many positions at once as it has
  // searches. kAlreadyExists when the game is served already, unless
  // `replace` (the new source then takes the old one's place).
  absl::Status Add(std::unique_ptr<AnswerSource> source, bool replace = false);

  // Adds every *.mnk file of `dir` (by name order), each replacing a built-in
  // table of the same game. The first error stops it: kNotFound /
  // kFailedPrecondition for the folder, the reader's error for a table
  // (naming the file; AnswerSource::Open: a book is refused), kAlreadyExists
  // for two files of one game. Each
  // table mapped or read into memory as `placement` says (Table::Load).
  absl::Status AddDirectory(
      const std::string& dir,
      Table::Placement placement = Table::Placement::kMapped);

  size_t size() const { return games_.size(); }
  std::string GamesJson() const;
  // The answer to /api/position. A search stops once `cancel` (when given)
  // is set or after `max_time`: a 503 reply. Thread-safe: an answer that
  // needs a search waits until one of the game's searches is free.
  // `best_only`: "true" asks for the value, remoteness and best move alone
  // (Need::kBestMove), "false" or empty for every move; else a 400.
  Reply PositionReply(absl::string_view game, absl::string_view position,
                      const std::atomic<bool>* cancel = nullptr,
                      absl::Duration max_time = absl::InfiniteDuration(),
                      absl::string_view best_only = "") const;
  // The answer to /api/pv: {"pv": the cells, "complete"}, the line
  // answer/play.h gives; a searched game's line stops at `max_time`, with
  // "complete":false.
  Reply PvReply(absl::string_view game, absl::string_view position,
                const std::atomic<bool>* cancel = nullptr,
                absl::Duration max_time = absl::InfiniteDuration()) const;
  // The answer to /api/tree: TreeJson of GameTree to `depth` plies (empty:
  // 1); 400 for a depth outside 0-64 or a tree past kMaxTreeNodes nodes,
  // 503 past the search's limits.
  Reply TreeReply(absl::string_view game, absl::string_view position,
                  absl::string_view depth,
                  const std::atomic<bool>* cancel = nullptr,
                  absl::Duration max_time = absl::InfiniteDuration()) const;
  // The answer to /api/choose: the move of `choice` at `position` and the
  // position after it; 400 for a bad level, seed or vary (each named) or a
  // finished game, 503 past the search's limits.
  struct Choice {
    absl::string_view level, seed, vary;  // as given; empty: the default
  };
  Reply ChooseReply(absl::string_view game, absl::string_view position,
                    const Choice& choice,
                    const std::atomic<bool>* cancel = nullptr,
                    absl::Duration max_time = absl::InfiniteDuration()) const;
  // True when PositionReply would search: a valid position of a searched
  // game that neither the book nor the rules answer.
  bool NeedsSearch(absl::string_view game, absl::string_view position) const;

 private:
  struct Served {
    std::string id;
    std::unique_ptr<AnswerSource> source;
  };
  const Served* Find(absl::string_view id) const;
  // 404 naming the games served.
  Reply NoGame(absl::string_view game) const;
  // The reply for an answer's error: 400 a bad position or argument, 503 a
  // search's limit, 500 the table at fault.
  static Reply Replied(const Served& s, const absl::Status& status);
  std::vector<Served> games_;
};

// The page's files, read once at start-up from one folder (not its
// subfolders) and served from memory: only these paths exist, so no request
// can reach anything else.
class StaticFiles {
 public:
  struct File {
    std::string content_type;
    std::string bytes;
  };
  // Every regular file directly in `dir`; kNotFound when there is no
  // index.html.
  static absl::StatusOr<StaticFiles> Load(const std::string& dir);
  // The page's files compiled into the program (serve/web/).
  static StaticFiles Builtin();
  // "/" is /index.html; nullptr for anything else not loaded.
  const File* Find(absl::string_view path) const;

 private:
  std::map<std::string, File, std::less<>> files_;  // by "/name"
};

}  // namespace mnk

#endif  // MNK_SERVE_SERVER_H_
