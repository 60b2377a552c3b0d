// serve: the web page and its JSON API over the tables (serve/server.h),
// with libmicrohttpd.
//
//   bazel run //serve:serve -- --port=8080            # then open the URL
//   bazel run //serve:serve -- --tables=/tmp/tables --bind=0.0.0.0
//
// Serves the built-in tables (tic-tac-toe, normal and misère, and 4x4
// Connect-style four in a row) and every *.mnk file in --tables; the page's
// files are serve/web/'s, compiled in (only they can be served).
// Prints "serving ... at URL" on standard output once it listens (--port=0
// takes any free port), one line per request on standard error, and stops on
// SIGINT or SIGTERM.
//
// The HTTP layer, and how it holds up against slow or odd clients, is
// serve/http_server.h.
//
// Exit status: 0 stopped by a signal; 1 bad command line; 3 a table or the
// page's files missing or unreadable; 4 not enough memory; 5 cannot listen
// on the address and port.
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "answer/answer.h"
#include "base/cli/cli.h"
#include "base/cli/search_flags.h"
#include "data/builtin.h"
#include "rules/game/printable.h"
#include "search/connect.h"
#include "serve/http_server.h"
#include "serve/server.h"
#include "table/table.h"

ABSL_FLAG(int, port, 8080, "TCP port to listen on (0: any free port)");
ABSL_FLAG(std::string, bind, "127.0.0.1",
          "address to listen on (0.0.0.0: every interface)");
ABSL_FLAG(std::string, tables, "",
          "a folder of table files (*.mnk) to serve besides the built-in "
          "ones");
ABSL_FLAG(std::string, book, "",
          "opening book of Connect Four 7x6, the built-in game played by "
          "search (a book file, as `book` writes it; default: the built-in "
          "one)");
ABSL_FLAG(bool, in_memory, false,
          "read the --tables tables into memory, on 2 MiB pages where the "
          "kernel gives them, instead of mapping them: each costs its size "
          "in memory and seconds to load, and probes of big tables are "
          "faster");
ABSL_FLAG(uint64_t, search_nodes, 10000000,
          "the most positions the search visits for one answer, at least 1 "
          "(a few seconds; past it the answer is a 503 error)");
ABSL_FLAG(int, searches, 2,
          "searches at once, each on a thread of its own with its share of "
          "--search_memory (1 to 64); a request that finds them all busy "
          "gets a 503 error at once");
ABSL_FLAG(std::string, cors, "",
          "let pages of this origin call the API (https://example.org, or * "
          "for any): sent as Access-Control-Allow-Origin; empty: only the "
          "server's own page");
ABSL_FLAG(double, search_seconds, 5,
          "the longest a search runs for one answer (0.1 to 9; past it the "
          "answer is a 503 error)");

namespace mnk {
namespace {

// Every connection takes two descriptors (its socket and the deadline's
// duplicate): raise the soft limit to the hard one.
void RaiseDescriptorLimit() {
  rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
      limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// The search flags (--search_memory, --searches, --search_nodes,
// --search_seconds), checked before anything is loaded.
struct SearchFlags {
  uint64_t memory;
  std::string memory_name;  // "--search_memory=16M", for messages
  int searches;
  uint64_t nodes;
  absl::Duration deadline;
};

absl::StatusOr<SearchFlags> SearchFlagsChecked() {
  SearchFlags f;
  f.searches = absl::GetFlag(FLAGS_searches);
  if (f.searches < 1 || f.searches > ConnectSearch::kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat("--searches=", f.searches,
                                                   ": expected 1 to ",
                                                   ConnectSearch::kMaxThreads));
  }
  f.nodes = absl::GetFlag(FLAGS_search_nodes);
  if (f.nodes == 0) {
    return absl::InvalidArgumentError(
        "--search_nodes=0: expected at least 1 (the most positions one "
        "answer may search)");
  }
  const double seconds = absl::GetFlag(FLAGS_search_seconds);
  if (!(seconds >= 0.1 && seconds <= 9)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--search_seconds=", seconds,
        ": expected 0.1 to 9 (an answer's connection is closed after 10 s)"));
  }
  f.deadline = absl::Seconds(seconds);
  absl::StatusOr<SearchMemory> memory = SearchMemoryFromFlag();
  if (!memory.ok()) return memory.status();
  f.memory = memory->bytes;
  f.memory_name = memory->name;
  // Refused now, as a bad command line, not once the tables are loaded.
  absl::StatusOr<int> bits =
      ConnectSearch::TableBitsForFlag(f.memory, f.searches, f.memory_name);
  if (!bits.ok()) return bits.status();
  return f;
}

// The built-in games (Connect Four 7x6 by search, after --book or the
// built-in book), then the --tables folder, each of its tables replacing a
// built-in game's source.
absl::Status LoadGames(const SearchFlags& flags, Catalog& games) {
  SourceOptions options;
  options.search_memory = flags.memory;
  options.search_memory_name = flags.memory_name;
  options.searches = flags.searches;
  options.max_nodes = flags.nodes;
  for (const GameSpec& spec : BuiltinGames()) {
    const bool searched = !BuiltinTable(spec.FileStem()).has_value();
    options.book = searched ? UserPath(absl::GetFlag(FLAGS_book)) : "";
    absl::StatusOr<std::unique_ptr<AnswerSource>> source =
        AnswerSource::Open(spec, options);
    if (!source.ok()) return source.status();
    if (absl::Status s = games.Add(*std::move(source)); !s.ok()) return s;
  }
  const std::string dir = UserPath(absl::GetFlag(FLAGS_tables));
  if (dir.empty()) return absl::OkStatus();
  const Table::Placement placement = absl::GetFlag(FLAGS_in_memory)
                                         ? Table::Placement::kInMemory
                                         : Table::Placement::kMapped;
  return games.AddDirectory(dir, placement);
}

// --port, --bind and the search flags, as the HTTP layer takes them.
absl::StatusOr<HttpOptions> HttpOptionsFromFlags(const SearchFlags& flags) {
  HttpOptions options;
  options.port = absl::GetFlag(FLAGS_port);
  if (options.port < 0 || options.port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--port=", options.port, ": expected 0 (any free port) to 65535"));
  }
  options.bind = absl::GetFlag(FLAGS_bind);
  if (absl::Status s = CheckAddress(options.bind); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--bind=", s.message()));
  }
  options.cors = absl::GetFlag(FLAGS_cors);
  if (!options.cors.empty()) {
    if (absl::Status s = CheckOrigin(options.cors); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--cors=", s.message()));
    }
  }
  options.searches = flags.searches;
  options.search_deadline = flags.deadline;
  return options;
}

// What is served: the games and the page's files (serve/web/).
struct Content {
  Catalog games;
  StaticFiles web;
};

absl::StatusOr<std::unique_ptr<Content>> LoadContent(const SearchFlags& flags) {
  auto content = std::make_unique<Content>();
  if (absl::Status s = LoadGames(flags, content->games); !s.ok()) {
    return s;
  }
  content->web = StaticFiles::Builtin();
  return content;
}

// "serving N games at URL" on standard output, once it listens; a warning
// first when it listens beyond this machine.
void Announce(const HttpServer& server, const std::string& bind, size_t games) {
  if (!server.loopback()) {
    std::fprintf(stderr,
                 "serve: warning: listening on %s, reachable from other "
                 "machines; the server has no authentication and is meant "
                 "for a trusted network\n",
                 Printable(bind).c_str());
  }
  const std::string host =
      absl::StrContains(bind, ':') ? absl::StrCat("[", bind, "]") : bind;
  std::printf("serving %zu games at http://%s:%d/\n", games, host.c_str(),
              server.port());
  std::fflush(stdout);
}

int Main() {
  absl::StatusOr<SearchFlags> search_flags = SearchFlagsChecked();
  if (!search_flags.ok()) return Fail(kExitUsage, search_flags.status());
  absl::StatusOr<HttpOptions> options = HttpOptionsFromFlags(*search_flags);
  if (!options.ok()) return Fail(kExitUsage, options.status());
  absl::StatusOr<std::unique_ptr<Content>> content = LoadContent(*search_flags);
  if (!content.ok()) return Fail(TableExit(content.status()), content.status());
  // SIGINT and SIGTERM are taken by sigwait below: blocked here, before any
  // thread starts, so every thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  RaiseDescriptorLimit();
  absl::StatusOr<std::unique_ptr<HttpServer>> server =
      HttpServer::Start((*content)->games, (*content)->web, *options);
  if (!server.ok()) return Fail(kExitListen, server.status());
  Announce(**server, options->bind, (*content)->games.size());
  int signal = 0;
  sigwait(&stop_signals, &signal);
  (*server)->Stop();
  std::fprintf(stderr, "serve: stopped\n");
  return kExitOk;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  for (int i = 1; i < argc && !mnk::HelpAsked(argc, argv); ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--tables=" || arg == "-tables=") {
      mnk::SetToolName("serve");
      return mnk::Fail(mnk::kExitUsage,
                       "--tables= is empty: expected a folder");
    }
  }
  if (std::optional<int> done = mnk::StartTool(
          "serve",
          "serves the web page and its JSON API over the tables.\n"
          "  serve [--port=8080] [--bind=127.0.0.1] [--tables=DIR]",
          argc, argv)) {
    return *done;
  }
  mnk::ExitOnTruncatedTable("serve", mnk::kExitTable);
  return mnk::RunGuarded(mnk::Main);
}
