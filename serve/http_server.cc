#include "serve/http_server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "rules/game/printable.h"
#include "search/connect.h"
#include "serve/search_pool.h"

namespace mnk {
namespace {

// Connections and their deadlines. Each holds a duplicate of its socket, so
// that the deadline thread can shut a late one down (the server then sees
// it closed and cleans up) without racing the server's own close().
class Deadlines {
 public:
  void Opened(MHD_Connection* c, int fd) {
    absl::MutexLock lock(&mu_);
    open_[c] = {dup(fd), absl::Now() + HttpServer::kRequestDeadline};
  }
  void Answered(MHD_Connection* c) {
    absl::MutexLock lock(&mu_);
    if (auto it = open_.find(c); it != open_.end()) {
      it->second.deadline = absl::Now() + HttpServer::kRequestDeadline;
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
  const HttpOptions* options;
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
                          "; expected /, /api/games, /api/position, /api/pv, "
                          "/api/tree, /api/choose or a file of the page");
    case 405:
      return absl::StrCat("method ", Printable(method),
                          " is not allowed: expected GET or HEAD");
    default:
      return absl::StrCat("bad request (HTTP status ", status, ")");
  }
}

MHD_Result Send(const Context& context, MHD_Connection* connection,
                const Request& request, absl::string_view method,
                const Reply& reply,
                const char* content_type = "application/json") {
  MHD_Response* response = MHD_create_response_from_buffer(
      reply.body.size(), const_cast<char*>(reply.body.data()),
      MHD_RESPMEM_MUST_COPY);
  if (response == nullptr) return MHD_NO;
  MHD_add_response_header(response, "Content-Type", content_type);
  MHD_add_response_header(response, "Cache-Control", "no-store");
  MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
  if (!context.options->cors.empty()) {
    MHD_add_response_header(response, "Access-Control-Allow-Origin",
                            context.options->cors.c_str());
    MHD_add_response_header(response, "Vary", "Origin");
  }
  if (reply.status == 405)
    MHD_add_response_header(response, "Allow", "GET, HEAD");
  if (reply.status == 503)
    MHD_add_response_header(response, "Retry-After", "1");
  const MHD_Result queued =
      MHD_queue_response(connection, reply.status, response);
  MHD_destroy_response(response);
  // One line a request; the server's own failures say what they were.
  if (!context.options->log) return queued;
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

// The API's calls on a position: /api/position, /api/pv, /api/tree,
// /api/choose.
bool IsPositionCall(absl::string_view path) {
  return path == "/api/position" || path == "/api/pv" || path == "/api/tree" ||
         path == "/api/choose";
}

// A position call's path and parameters, copied from the request (a search
// answers it on another thread).
struct PositionRequest {
  std::string path;
  std::optional<std::string> game, position, depth, level, seed, vary,
      best_only;
};

PositionRequest ReadPositionRequest(MHD_Connection* connection,
                                    absl::string_view path) {
  auto get = [connection](const char* name) -> std::optional<std::string> {
    const char* value =
        MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  return {std::string(path), get("game"), get("position"), get("depth"),
          get("level"),      get("seed"), get("vary"),     get("best_only")};
}

// The reply to a position call, a search in it stopped by `cancel` or after
// `max_time`.
Reply PositionCall(const Context& context, const PositionRequest& call,
                   const std::atomic<bool>* cancel, absl::Duration max_time) {
  for (auto [name, value] :
       {std::pair{"game", &call.game}, {"position", &call.position}}) {
    if (!value->has_value()) {
      return ErrorReply(
          400, absl::StrCat("missing parameter '", name, "': expected ",
                            Printable(call.path), "?game=ID&position=STR"));
    }
  }
  const std::string& game = *call.game;
  const std::string& position = *call.position;
  if (call.path == "/api/pv") {
    return context.games->PvReply(game, position, cancel, max_time);
  }
  if (call.path == "/api/choose") {
    return context.games->ChooseReply(
        game, position,
        {call.level.value_or(""), call.seed.value_or(""),
         call.vary.value_or("")},
        cancel, max_time);
  }
  if (call.path == "/api/tree") {
    return context.games->TreeReply(game, position, call.depth.value_or(""),
                                    cancel, max_time);
  }
  return context.games->PositionReply(game, position, cancel, max_time,
                                      call.best_only.value_or(""));
}

Reply Route(MHD_Connection* connection, const Context& context,
            absl::string_view path, const StaticFiles::File** file) {
  if (path == "/api/games") return {200, context.games->GamesJson()};
  if (IsPositionCall(path)) {
    return PositionCall(context, ReadPositionRequest(connection, path), nullptr,
                        absl::InfiniteDuration());
  }
  *file = context.web->Find(path);
  if (*file == nullptr) return ErrorReply(404, ErrorMessage("GET", path, 404));
  return {200, (*file)->bytes};
}

// The reply of a search that the pool's stop ended early (a 503) says so.
Reply SearchStopped(const Reply& reply, const SearchPool::StopFlag& stop) {
  if (reply.status != 503 || stop.why() != SearchPool::kStopping) return reply;
  return ErrorReply(503, "the server is stopping");
}

// A position that takes a search: answered on the pool, the connection
// suspended meanwhile (the polling thread answers everyone else); a 503 at
// once when every search thread is busy. False when the request takes no
// search.
bool Searched(MHD_Connection* connection, Context& context, Request& request,
              absl::string_view verb, absl::string_view path,
              MHD_Result* result) {
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
        Send(context, connection, request, verb,
             ErrorReply(503, absl::StrCat("every search thread is busy (",
                                          context.options->searches,
                                          " at once); try again in a moment")));
    return true;
  }
  MHD_suspend_connection(connection);
  context.searches->Run([&context, &request, connection,
                         call = ReadPositionRequest(connection, path)](
                            const SearchPool::StopFlag& stop) {
    const Reply reply =
        SearchStopped(PositionCall(context, call, &stop.flag,
                                   context.options->search_deadline),
                      stop);
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
    return Send(context, connection, request, verb,
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
        context, connection, request, verb,
        ErrorReply(400, absl::StrCat("no such path: ", Printable(raw_path),
                                     "; a path holds no NUL byte")));
  }
  {
    absl::MutexLock lock(&request.mu);
    if (request.searched.has_value()) {
      return Send(context, connection, request, verb, *request.searched);
    }
  }
  MHD_Result result;
  if (IsPositionCall(url) &&
      Searched(connection, context, request, verb, url, &result)) {
    return result;
  }
  const StaticFiles::File* file = nullptr;
  const Reply reply = Route(connection, context, url, &file);
  return Send(
      context, connection, request, verb, reply,
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

// The server listening on `address`, or null with *why saying why not.
MHD_Daemon* StartDaemon(const Address& address, int port, Context* context,
                        std::string* why) {
  return MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
          MHD_ALLOW_SUSPEND_RESUME | (address.ipv6 ? MHD_USE_IPv6 : 0),
      static_cast<uint16_t>(port), nullptr, nullptr, &Answer, context,
      MHD_OPTION_SOCK_ADDR, &address.storage,  //
      MHD_OPTION_CONNECTION_LIMIT, HttpServer::kMaxConnections,
      MHD_OPTION_LISTEN_BACKLOG_SIZE, HttpServer::kBacklog,  //
      MHD_OPTION_CONNECTION_TIMEOUT, HttpServer::kIdleSeconds,
      MHD_OPTION_URI_LOG_CALLBACK, &RequestStarted, nullptr,
      MHD_OPTION_NOTIFY_COMPLETED, &RequestEnded, context,
      MHD_OPTION_NOTIFY_CONNECTION, &ConnectionChanged, context,
      MHD_OPTION_EXTERNAL_LOGGER, &KeepMessage, why, MHD_OPTION_END);
}

}  // namespace

struct HttpServer::State {
  State(const Catalog& games, const StaticFiles& web,
        const HttpOptions& options)
      : options(options),
        searches(options.searches),
        context{&games, &web, &this->options, &deadlines, &searches} {}
  HttpOptions options;
  Address address;
  Deadlines deadlines;
  SearchPool searches;
  Context context;
  std::string why;  // libmicrohttpd's last message
  MHD_Daemon* daemon = nullptr;
  std::thread deadline_thread;
};

absl::Status CheckAddress(const std::string& text) {
  if (ParseAddress(text, 0).has_value()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(Printable(text),
                   ": expected an IPv4 or IPv6 address, such as 127.0.0.1 "
                   "or ::1"));
}

absl::Status CheckOrigin(const std::string& text) {
  absl::string_view rest = text;
  const bool scheme = absl::ConsumePrefix(&rest, "http://") ||
                      absl::ConsumePrefix(&rest, "https://");
  const bool host = !rest.empty() && rest.front() != ':' &&
                    std::all_of(rest.begin(), rest.end(), [](char c) {
                      return absl::ascii_isalnum(c) || c == '.' || c == '-' ||
                             c == ':' || c == '[' || c == ']';
                    });
  if (text == "*" || (scheme && host)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      Printable(text),
      ": expected * (any origin) or an origin such as https://example.org "
      "or http://localhost:3000 (a scheme, a host, a port; no path)"));
}

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(
    const Catalog& games, const StaticFiles& web, const HttpOptions& options) {
  const std::optional<Address> address =
      ParseAddress(options.bind, options.port);
  if (!address.has_value()) return CheckAddress(options.bind);
  if (options.searches < 1 || options.searches > ConnectSearch::kMaxThreads) {
    return absl::InvalidArgumentError(
        absl::StrCat("searches=", options.searches, ": expected 1 to ",
                     ConnectSearch::kMaxThreads));
  }
  if (!options.cors.empty()) {
    if (absl::Status s = CheckOrigin(options.cors); !s.ok()) return s;
  }
  auto state = std::make_unique<State>(games, web, options);
  state->address = *address;
  state->daemon =
      StartDaemon(state->address, options.port, &state->context, &state->why);
  if (state->daemon == nullptr) {
    return absl::UnavailableError(absl::StrCat(
        "cannot listen on ", Printable(options.bind), " port ", options.port,
        ": ", state->why.empty() ? "unknown error" : state->why));
  }
  State* s = state.get();
  state->deadline_thread = std::thread([s] { s->deadlines.Run(); });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(state)));
}

HttpServer::HttpServer(std::unique_ptr<State> state)
    : state_(std::move(state)) {}

HttpServer::~HttpServer() { Stop(); }

int HttpServer::port() const {
  const MHD_DaemonInfo* info =
      state_->daemon == nullptr
          ? nullptr
          : MHD_get_daemon_info(state_->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info != nullptr ? info->port : state_->options.port;
}

bool HttpServer::loopback() const { return IsLoopback(state_->address); }

void HttpServer::Stop() {
  if (state_->daemon == nullptr) return;
  // Searches cancelled first: each answers its suspended connection (503)
  // and returns within milliseconds; then every connection is closed.
  state_->searches.Stop();
  for (int i = 0; i < 100 && state_->context.unsent.load() > 0; ++i) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  MHD_stop_daemon(state_->daemon);  // closes every connection
  state_->daemon = nullptr;
  state_->deadlines.Stop();
  state_->deadline_thread.join();
}

}  // namespace mnk
