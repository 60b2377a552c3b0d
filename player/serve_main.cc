// serve: the web page and its JSON API over the tables (player/server.h),
// with cpp-httplib.
//
//   bazel run //player:serve -- --port=8080            # then open the URL
//   bazel run //player:serve -- --tables=/tmp/tables --bind=0.0.0.0
//
// Serves the built-in tic-tac-toe tables (normal and misère) and every *.mnk
// file in --tables; the page's files come from player/web/ (read once at
// start-up: only they can be served). Prints "serving ... at URL" on
// standard output once it listens (--port=0 takes any free port), one line
// per request on standard error, and stops on SIGINT or SIGTERM.
//
// Exit status: 0 stopped by a signal; 1 bad command line; 3 a table or the
// page's files missing or unreadable; 4 not enough memory; 5 cannot listen
// on the address and port.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "httplib.h"
#include "player/server.h"
#include "table/table.h"
#include "tools/cpp/runfiles/runfiles.h"

ABSL_FLAG(int, port, 8080, "TCP port to listen on (0: any free port)");
ABSL_FLAG(std::string, bind, "127.0.0.1",
          "address to listen on (0.0.0.0: every interface)");
ABSL_FLAG(std::string, tables, "",
          "a folder of table files (*.mnk) to serve besides the built-in "
          "tic-tac-toe ones");

namespace mnk {
namespace {

using bazel::tools::cpp::runfiles::Runfiles;

constexpr int kUsage = 1, kBadTable = 3, kMemory = 4, kListen = 5;
constexpr int kServerThreads = 64;

int Fail(int code, absl::string_view message) {
  std::fprintf(stderr, "serve: %.*s\n", static_cast<int>(message.size()),
               message.data());
  return code;
}

void Send(httplib::Response& res, const Reply& reply) {
  res.status = reply.status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(reply.body, "application/json");
}

// Why a request got no answer of its own (the body of an error status).
std::string ErrorMessage(const httplib::Request& req, int status) {
  switch (status) {
    case 404:
      return absl::StrCat("no such path: ", Printable(req.path),
                          "; expected /, /api/games, /api/position or a file "
                          "of the page");
    case 405:
      return absl::StrCat("method ", Printable(req.method),
                          " is not allowed: expected GET or HEAD");
    case 413:
      return "request too large";
    case 414:
      return "request URI too long";
    default:
      return absl::StrCat("bad request (HTTP status ", status, ")");
  }
}

void Routes(httplib::Server& server, const Catalog& games,
            const StaticFiles& web) {
  server.Get("/api/games",
             [&](const httplib::Request&, httplib::Response& res) {
               Send(res, {200, games.GamesJson()});
             });
  server.Get("/api/position", [&](const httplib::Request& req,
                                  httplib::Response& res) {
    for (const char* name : {"game", "position"}) {
      if (!req.has_param(name)) {
        Send(res, ErrorReply(400, absl::StrCat("missing parameter '", name,
                                               "': expected /api/position?"
                                               "game=ID&position=STR")));
        return;
      }
    }
    Send(res, games.PositionReply(req.get_param_value("game"),
                                  req.get_param_value("position")));
  });
  server.Get(".*", [&](const httplib::Request& req, httplib::Response& res) {
    const StaticFiles::File* file = web.Find(req.path);
    if (file == nullptr) {
      Send(res, ErrorReply(404, ErrorMessage(req, 404)));
      return;
    }
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_content(file->bytes, file->content_type.c_str());
  });
  auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Allow", "GET, HEAD");
    Send(res, ErrorReply(405, ErrorMessage(req, 405)));
  };
  server.Post(".*", not_allowed);
  server.Put(".*", not_allowed);
  server.Patch(".*", not_allowed);
  server.Delete(".*", not_allowed);
  server.Options(".*", not_allowed);
  // Errors httplib answers itself (a malformed request, a URI too long...).
  server.set_error_handler(
      [](const httplib::Request& req, httplib::Response& res) {
        if (res.body.empty()) {
          Send(res, ErrorReply(res.status, ErrorMessage(req, res.status)));
        }
      });
  server.set_logger(
      [](const httplib::Request& req, const httplib::Response& res) {
        const std::string line =
            absl::StrCat(Printable(req.method), " ", Printable(req.target), " ",
                         res.status, " ", res.body.size(), "\n");
        std::fputs(line.c_str(), stderr);
      });
}

int Main(const char* argv0) {
  const int port = absl::GetFlag(FLAGS_port);
  if (port < 0 || port > 65535) {
    return Fail(kUsage, absl::StrCat("--port=", port,
                                     ": expected 0 (any free port) to 65535"));
  }
  const std::string bind = absl::GetFlag(FLAGS_bind);
  if (bind.empty())
    return Fail(kUsage, "--bind= is empty: expected an address");

  std::string error;
  std::unique_ptr<Runfiles> runfiles(Runfiles::Create(argv0, &error));
  if (runfiles == nullptr) {
    return Fail(kBadTable, absl::StrCat("cannot find the runfiles (the "
                                        "built-in tables and the page): ",
                                        error));
  }
  Catalog games;
  for (const char* stem : {"3x3k3", "3x3k3m"}) {
    const std::string path =
        runfiles->Rlocation(absl::StrCat("mnk/data/", stem, ".mnk"));
    absl::StatusOr<Table> table = Table::Load(path);
    if (!table.ok()) return Fail(kBadTable, table.status().message());
    if (absl::Status s = games.Add(path, *std::move(table)); !s.ok()) {
      return Fail(kBadTable, s.message());
    }
  }
  if (const std::string dir = absl::GetFlag(FLAGS_tables); !dir.empty()) {
    if (absl::Status s = games.AddDirectory(dir); !s.ok()) {
      return Fail(s.code() == absl::StatusCode::kResourceExhausted ? kMemory
                                                                   : kBadTable,
                  s.message());
    }
  }
  std::string index = runfiles->Rlocation("mnk/player/web/index.html");
  absl::StatusOr<StaticFiles> web =
      StaticFiles::Load(index.substr(0, index.rfind('/')));
  if (!web.ok()) return Fail(kBadTable, web.status().message());

  // SIGINT and SIGTERM go to one thread, which stops the server: blocked
  // here, before any thread starts, so every thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  httplib::Server server;
  server.new_task_queue = [] {
    return new httplib::ThreadPool(kServerThreads);
  };
  // Headers and body go out in separate writes: without TCP_NODELAY the
  // body waits for the client's delayed ACK (about 40 ms an answer).
  server.set_tcp_nodelay(true);
  server.set_keep_alive_max_count(100);
  Routes(server, games, *web);
  const int bound = port == 0 ? server.bind_to_any_port(bind)
                              : (server.bind_to_port(bind, port) ? port : -1);
  if (bound < 0) {
    return Fail(kListen, absl::StrCat("cannot listen on ", Printable(bind),
                                      " port ", port,
                                      ": in use, or not an address of this "
                                      "machine"));
  }
  std::atomic<bool> signalled{false};
  std::thread stopper([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    signalled = true;
    server.stop();
  });
  const std::string host =
      bind.find(':') != std::string::npos ? absl::StrCat("[", bind, "]") : bind;
  std::printf("serving %zu games at http://%s:%d/\n", games.size(),
              host.c_str(), bound);
  std::fflush(stdout);
  const bool listened = server.listen_after_bind();
  if (!signalled) kill(getpid(), SIGTERM);  // wakes the stopper thread
  stopper.join();
  if (!listened && !signalled) {
    return Fail(kListen, "the server stopped: cannot accept connections");
  }
  std::fprintf(stderr, "serve: stopped\n");
  return 0;
}

}  // namespace
}  // namespace mnk

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "serves the web page and JSON API over the tables: serve [--port=8080] "
      "[--bind=127.0.0.1] [--tables=DIR]");
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--tables=" || arg == "-tables=") {
      return mnk::Fail(mnk::kUsage, "--tables= is empty: expected a folder");
    }
  }
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    return mnk::Fail(mnk::kUsage,
                     absl::StrCat("unexpected argument '",
                                  mnk::Printable(rest[1]), "'; see --help"));
  }
  signal(SIGPIPE, SIG_IGN);  // a client that hangs up is a write error
  mnk::ExitOnTruncatedTable("serve", mnk::kBadTable);
  try {
    return mnk::Main(argv[0]);
  } catch (const std::bad_alloc&) {
    return mnk::Fail(mnk::kMemory, "out of memory");
  }
}
