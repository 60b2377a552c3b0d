// serve: the web page and its JSON API over the tables (player/server.h),
// with libmicrohttpd.
//
//   bazel run //player:serve -- --port=8080            # then open the URL
//   bazel run //player:serve -- --tables=/tmp/tables --bind=0.0.0.0
//
// Serves the built-in tables (tic-tac-toe, normal and misère, and 4x4
// Connect-style four in a row) and every *.mnk file in --tables; the page's
// files are player/web/'s, compiled in (only they can be served).
// Prints "serving ... at URL" on standard output once it listens (--port=0
// takes any free port), one line per request on standard error, and stops on
// SIGINT or SIGTERM.
//
// How it holds up against slow or odd clients: one thread polls every
// connection (epoll), so a client that sends a byte a second holds a
// connection, never a thread; at most kMaxConnections are open at once
// (the listen backlog holds kBacklog more); a connection idle for
// kIdleSeconds is closed, and so is one whose request has not been answered
// kRequestSeconds after the connection opened or its last answer was sent
// (the deadline thread below); pipelined requests are answered in order; a
// client that half-closes after its request still gets the answer. The
// address and port are never shared with another server (no SO_REUSEPORT).
//
// Exit status: 0 stopped by a signal; 1 bad command line; 3 a table or the
// page's files missing or unreadable; 4 not enough memory; 5 cannot listen
// on the address and port.
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "player/answer_source.h"
#include "player/search_pool.h"
#include "player/server.h"
#include "solver/cli/cli.h"
#include "solver/cli/search_flags.h"
#include "solver/game/printable.h"
#include "solver/search/connect.h"
#include "table/table.h"

ABSL_FLAG(int, port, 8080, "TCP port to listen on (0: any free port)");
ABSL_FLAG(std::string, bind, "127.0.0.1",
          "address to listen on (0.0.0.0: every interface)");
ABSL_FLAG(std::string, tables, "",
          "a folder of table files (*.mnk) to serve besides the built-in "
          "ones");
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
ABSL_FLAG(double, search_seconds, 5,
          "the longest a search runs for one answer (0.1 to 9; past it the "
          "answer is a 503 error)");

namespace mnk {
namespace {

constexpr unsigned kMaxConnections = 1000;
constexpr unsigned kBacklog = 1024;
constexpr unsigned kIdleSeconds = 10;
constexpr absl::Duration kRequestDeadline = absl::Seconds(10);

// Connections and their deadlines. Each holds a duplicate of its socket, so
// that the deadline thread can shut a late one down (the server then sees
// it closed and cleans up) without racing the server's own close().
class Deadlines {
 public:
  void Opened(MHD_Connection* c, int fd) {
    absl::MutexLock lock(&mu_);
    open_[c] = {dup(fd), absl::Now() + kRequestDeadline};
  }
  void Answered(MHD_Connection* c) {
    absl::MutexLock lock(&mu_);
    if (auto it = open_.find(c); it != open_.end()) {
      it->second.deadline = absl::Now() + kRequestDeadline;
    }
  }
  void Closed(MHD_Connection* c) {
    absl::MutexLock lock(&mu_);
    if (auto it = open_.find(c); it != open_.end()) {
      if (it->second.fd >= 0) close(it->second.fd);
      open_.erase(it);
    }
  }
  // Shuts down every connection past its deadline, until Stop().
  void Run() {
    absl::MutexLock lock(&mu_);
    while (!mu_.AwaitWithTimeout(absl::Condition(&stopped_),
                                 absl::Milliseconds(250))) {
      const absl::Time now = absl::Now();
      for (auto& [c, open] : open_) {
        if (open.deadline < now && open.fd >= 0) {
          shutdown(open.fd, SHUT_RDWR);
          open.deadline = absl::InfiniteFuture();
        }
      }
    }
  }
  void Stop() {
    absl::MutexLock lock(&mu_);
    stopped_ = true;
  }

 private:
  struct Open {
    int fd;
    absl::Time deadline;
  };
  absl::Mutex mu_;
  absl::flat_hash_map<MHD_Connection*, Open> open_;
  bool stopped_ = false;
};

struct Context {
  const Catalog* games;
  const StaticFiles* web;
  Deadlines* deadlines;
  SearchPool* searches;
  // Searched answers not yet sent (or their connection closed): the stop
  // waits a moment for them.
  std::atomic<int> unsent{0};
};

// One request: its target as sent (for the log), and whether its headers
// have been seen (the handler answers on its second call, once the request
// is whole: answering on the first makes libmicrohttpd close the
// connection, losing pipelined requests). A request answered by a search
// is suspended while the search runs on the pool; its answer is left in
// `searched` before the connection is resumed.
struct Request {
  explicit Request(std::string target) : target(std::move(target)) {}
  std::string target;
  bool headers_seen = false;
  absl::Mutex mu;
  std::optional<Reply> searched ABSL_GUARDED_BY(mu);
};

// Why a request got no answer of its own (the body of an error status).
std::string ErrorMessage(absl::string_view method, absl::string_view path,
                         int status) {
  switch (status) {
    case 404:
      return absl::StrCat("no such path: ", Printable(path),
                          "; expected /, /api/games, /api/position or a file "
                          "of the page");
    case 405:
      return absl::StrCat("method ", Printable(method),
                          " is not allowed: expected GET or HEAD");
    default:
      return absl::StrCat("bad request (HTTP status ", status, ")");
  }
}

MHD_Result Send(MHD_Connection* connection, const Request& request,
                absl::string_view method, const Reply& reply,
                const char* content_type = "application/json") {
  MHD_Response* response = MHD_create_response_from_buffer(
      reply.body.size(), const_cast<char*>(reply.body.data()),
      MHD_RESPMEM_MUST_COPY);
  if (response == nullptr) return MHD_NO;
  MHD_add_response_header(response, "Content-Type", content_type);
  MHD_add_response_header(response, "Cache-Control", "no-store");
  MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
  if (reply.status == 405)
    MHD_add_response_header(response, "Allow", "GET, HEAD");
  if (reply.status == 503)
    MHD_add_response_header(response, "Retry-After", "1");
  const MHD_Result queued =
      MHD_queue_response(connection, reply.status, response);
  MHD_destroy_response(response);
  // One line a request; the server's own failures say what they were.
  const std::string line =
      absl::StrCat(Printable(method), " ", Printable(request.target), " ",
                   reply.status, " ", reply.body.size(),
                   reply.status >= 500
                       ? absl::StrCat(" ", absl::StripSuffix(reply.body, "\n"))
                       : "",
                   "\n");
  std::fputs(line.c_str(), stderr);
  return queued;
}

Reply Route(MHD_Connection* connection, const Context& context,
            absl::string_view path, const StaticFiles::File** file) {
  if (path == "/api/games") return {200, context.games->GamesJson()};
  if (path == "/api/position") {
    const char* game =
        MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "game");
    const char* position = MHD_lookup_connection_value(
        connection, MHD_GET_ARGUMENT_KIND, "position");
    for (auto [name, value] :
         {std::pair{"game", game}, {"position", position}}) {
      if (value == nullptr) {
        return ErrorReply(400, absl::StrCat("missing parameter '", name,
                                            "': expected /api/position?"
                                            "game=ID&position=STR"));
      }
    }
    return context.games->PositionReply(game, position);
  }
  *file = context.web->Find(path);
  if (*file == nullptr) return ErrorReply(404, ErrorMessage("GET", path, 404));
  return {200, (*file)->bytes};
}

// The reply of a search that `stop` ended early (a 503) says why.
Reply SearchStopped(const Reply& reply, const SearchPool::StopFlag& stop) {
  if (reply.status != 503) return reply;
  switch (stop.why()) {
    case SearchPool::kDeadline:
      return ErrorReply(
          503, absl::StrCat("the search took longer than ",
                            absl::GetFlag(FLAGS_search_seconds),
                            " s, this answer's limit; positions further into "
                            "the game take less"));
    case SearchPool::kStopping:
      return ErrorReply(503, "the server is stopping");
    default:
      return reply;
  }
}

// A position that takes a search: answered on the pool, the connection
// suspended meanwhile (the polling thread answers everyone else); a 503 at
// once when every search thread is busy. False when the request takes no
// search.
bool Searched(MHD_Connection* connection, Context& context, Request& request,
              absl::string_view verb, MHD_Result* result) {
  const char* game =
      MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "game");
  const char* position = MHD_lookup_connection_value(
      connection, MHD_GET_ARGUMENT_KIND, "position");
  if (game == nullptr || position == nullptr ||
      !context.games->NeedsSearch(game, position)) {
    return false;
  }
  if (!context.searches->Reserve()) {
    *result =
        Send(connection, request, verb,
             ErrorReply(503, absl::StrCat("every search thread is busy (",
                                          absl::GetFlag(FLAGS_searches),
                                          " at once); try again in a moment")));
    return true;
  }
  MHD_suspend_connection(connection);
  context.searches->Run(
      [&context, &request, connection, game = std::string(game),
       position = std::string(position)](const SearchPool::StopFlag& stop) {
        const Reply reply = SearchStopped(
            context.games->PositionReply(game, position, &stop.flag), stop);
        {
          absl::MutexLock lock(&request.mu);
          request.searched = reply;
        }
        context.unsent.fetch_add(1);
        MHD_resume_connection(connection);
      });
  *result = MHD_YES;
  return true;
}

MHD_Result Answer(void* cls, MHD_Connection* connection, const char* url,
                  const char* method, const char* /*version*/,
                  const char* /*upload_data*/, size_t* upload_data_size,
                  void** request_context) {
  Context& context = *static_cast<Context*>(cls);
  if (*request_context == nullptr) *request_context = new Request(url);
  Request& request = *static_cast<Request*>(*request_context);
  const absl::string_view verb = method;
  if (verb != MHD_HTTP_METHOD_GET && verb != MHD_HTTP_METHOD_HEAD) {
    return Send(connection, request, verb,
                ErrorReply(405, ErrorMessage(verb, url, 405)));
  }
  if (!request.headers_seen || *upload_data_size != 0) {
    request.headers_seen = true;
    *upload_data_size = 0;  // a body on a GET is read and ignored
    return MHD_YES;
  }
  // The path arrives decoded and ends at a decoded NUL: one sent as %00
  // would cut it short ("/index.html%00.png").
  const absl::string_view raw_path =
      absl::string_view(request.target).substr(0, request.target.find('?'));
  if (absl::StrContains(raw_path, "%00")) {
    return Send(
        connection, request, verb,
        ErrorReply(400, absl::StrCat("no such path: ", Printable(raw_path),
                                     "; a path holds no NUL byte")));
  }
  {
    absl::MutexLock lock(&request.mu);
    if (request.searched.has_value()) {
      return Send(connection, request, verb, *request.searched);
    }
  }
  MHD_Result result;
  if (absl::string_view(url) == "/api/position" &&
      Searched(connection, context, request, verb, &result)) {
    return result;
  }
  const StaticFiles::File* file = nullptr;
  const Reply reply = Route(connection, context, url, &file);
  return Send(
      connection, request, verb, reply,
      file != nullptr ? file->content_type.c_str() : "application/json");
}

// libmicrohttpd's callbacks around a request and a connection.
void* RequestStarted(void* /*cls*/, const char* uri, MHD_Connection*) {
  return new Request(uri);
}
void RequestEnded(void* cls, MHD_Connection* connection, void** request_context,
                  MHD_RequestTerminationCode) {
  Request* request = static_cast<Request*>(*request_context);
  if (request != nullptr) {
    absl::MutexLock lock(&request->mu);
    if (request->searched.has_value()) {
      static_cast<Context*>(cls)->unsent.fetch_sub(1);
    }
  }
  delete request;
  *request_context = nullptr;
  static_cast<Context*>(cls)->deadlines->Answered(connection);
}
void ConnectionChanged(void* cls, MHD_Connection* connection, void**,
                       MHD_ConnectionNotificationCode code) {
  Deadlines& deadlines = *static_cast<Context*>(cls)->deadlines;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const MHD_ConnectionInfo* info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    deadlines.Opened(connection, info != nullptr ? info->connect_fd : -1);
  } else {
    deadlines.Closed(connection);
  }
}
// libmicrohttpd's own messages (why it cannot listen, mostly).
void KeepMessage(void* cls, const char* format, va_list args) {
  char message[512];
  std::vsnprintf(message, sizeof(message), format, args);
  std::string& kept = *static_cast<std::string*>(cls);
  kept = std::string(absl::StripSuffix(message, "\n"));
}

// The address to listen on, IPv4 or IPv6; nullopt for anything else.
struct Address {
  sockaddr_storage storage = {};
  bool ipv6 = false;
};
std::optional<Address> ParseAddress(const std::string& text, int port) {
  Address a;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&a.storage);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
  if (inet_pton(AF_INET, text.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(port));
    return a;
  }
  if (inet_pton(AF_INET6, text.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    a.ipv6 = true;
    return a;
  }
  return std::nullopt;
}

bool IsLoopback(const Address& a) {
  if (a.ipv6) {
    return IN6_IS_ADDR_LOOPBACK(
        &reinterpret_cast<const sockaddr_in6*>(&a.storage)->sin6_addr);
  }
  const uint32_t ip =
      ntohl(reinterpret_cast<const sockaddr_in*>(&a.storage)->sin_addr.s_addr);
  return ip >> 24 == 127;
}

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
  std::string memory_name;  // "--search_memory=256M", for messages
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

// Connect Four 7x6, too big to tabulate: by search, after the built-in
// book.
absl::Status AddConnectFour(const SearchFlags& flags, Catalog& games) {
  SourceOptions options;
  options.search_memory = flags.memory;
  options.search_memory_name = flags.memory_name;
  options.searches = flags.searches;
  options.max_nodes = flags.nodes;
  absl::StatusOr<std::unique_ptr<AnswerSource>> source =
      AnswerSource::Open(GameSpec{7, 6, 4, /*gravity=*/true}, options);
  if (!source.ok()) return source.status();
  absl::Status s = games.Add(*std::move(source));
  return absl::IsAlreadyExists(s) ? absl::OkStatus() : s;
}

// The built-in tables, the --tables folder, and Connect Four by search.
absl::Status LoadGames(const SearchFlags& flags, Catalog& games) {
  for (const GameSpec& spec :
       {GameSpec{3, 3, 3}, GameSpec{3, 3, 3, false, true},
        GameSpec{4, 4, 4, true}}) {
    absl::StatusOr<std::unique_ptr<AnswerSource>> source =
        AnswerSource::Open(spec, {});
    if (!source.ok()) return source.status();
    if (absl::Status s = games.Add(*std::move(source)); !s.ok()) return s;
  }
  const std::string dir = UserPath(absl::GetFlag(FLAGS_tables));
  if (!dir.empty()) {
    const Table::Placement placement = absl::GetFlag(FLAGS_in_memory)
                                           ? Table::Placement::kInMemory
                                           : Table::Placement::kMapped;
    if (absl::Status s = games.AddDirectory(dir, placement); !s.ok()) {
      return s;
    }
  }
  return AddConnectFour(flags, games);
}

// --port and --bind.
absl::StatusOr<Address> AddressFromFlags() {
  const int port = absl::GetFlag(FLAGS_port);
  if (port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--port=", port, ": expected 0 (any free port) to 65535"));
  }
  const std::string bind = absl::GetFlag(FLAGS_bind);
  const std::optional<Address> address = ParseAddress(bind, port);
  if (!address.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bind=", Printable(bind),
                     ": expected an IPv4 or IPv6 address, such as 127.0.0.1 "
                     "or ::1"));
  }
  return *address;
}

// What is served: the games and the page's files (player/web/).
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

// The server listening on `address`, or null with *why saying why not.
MHD_Daemon* StartDaemon(const Address& address, Context* context,
                        std::string* why) {
  const int port = absl::GetFlag(FLAGS_port);
  return MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
          MHD_ALLOW_SUSPEND_RESUME | (address.ipv6 ? MHD_USE_IPv6 : 0),
      static_cast<uint16_t>(port), nullptr, nullptr, &Answer, context,
      MHD_OPTION_SOCK_ADDR, &address.storage,  //
      MHD_OPTION_CONNECTION_LIMIT, kMaxConnections,
      MHD_OPTION_LISTEN_BACKLOG_SIZE, kBacklog,  //
      MHD_OPTION_CONNECTION_TIMEOUT, kIdleSeconds, MHD_OPTION_URI_LOG_CALLBACK,
      &RequestStarted, nullptr, MHD_OPTION_NOTIFY_COMPLETED, &RequestEnded,
      context, MHD_OPTION_NOTIFY_CONNECTION, &ConnectionChanged, context,
      MHD_OPTION_EXTERNAL_LOGGER, &KeepMessage, why, MHD_OPTION_END);
}

// "serving N games at URL" on standard output, once it listens; a warning
// first when it listens beyond this machine.
void Announce(MHD_Daemon* daemon, const Address& address, size_t games) {
  const std::string bind = absl::GetFlag(FLAGS_bind);
  const MHD_DaemonInfo* info =
      MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  const int port = info != nullptr ? info->port : absl::GetFlag(FLAGS_port);
  if (!IsLoopback(address)) {
    std::fprintf(stderr,
                 "serve: warning: listening on %s, reachable from other "
                 "machines; the server has no authentication and is meant "
                 "for a trusted network\n",
                 Printable(bind).c_str());
  }
  const std::string host = address.ipv6 ? absl::StrCat("[", bind, "]") : bind;
  std::printf("serving %zu games at http://%s:%d/\n", games, host.c_str(),
              port);
  std::fflush(stdout);
}

int Main() {
  absl::StatusOr<Address> address = AddressFromFlags();
  if (!address.ok()) return Fail(kExitUsage, address.status());
  absl::StatusOr<SearchFlags> search_flags = SearchFlagsChecked();
  if (!search_flags.ok()) return Fail(kExitUsage, search_flags.status());
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
  Deadlines deadlines;
  SearchPool searches(search_flags->searches, search_flags->deadline);
  Context context{&(*content)->games, &(*content)->web, &deadlines, &searches};
  std::string why;
  MHD_Daemon* daemon = StartDaemon(*address, &context, &why);
  if (daemon == nullptr) {
    return Fail(
        kExitListen,
        absl::StrCat("cannot listen on ", Printable(absl::GetFlag(FLAGS_bind)),
                     " port ", absl::GetFlag(FLAGS_port), ": ",
                     why.empty() ? "unknown error" : why));
  }
  std::thread deadline_thread([&] { deadlines.Run(); });
  Announce(daemon, *address, (*content)->games.size());
  int signal = 0;
  sigwait(&stop_signals, &signal);
  // Searches cancelled first: each answers its suspended connection (503)
  // and returns within milliseconds; then every connection is closed.
  searches.Stop();
  for (int i = 0; i < 100 && context.unsent.load() > 0; ++i) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  MHD_stop_daemon(daemon);  // closes every connection, whatever its state
  deadlines.Stop();
  deadline_thread.join();
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
