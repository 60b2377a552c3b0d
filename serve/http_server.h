// The web server's HTTP layer: libmicrohttpd around the games and the
// page's files of serve/server.h. One thread polls every connection
// (epoll); positions that take a search are answered on a pool of their
// own (serve/search_pool.h), their connections suspended meanwhile.
//
//   mnk::HttpOptions options;                       // 127.0.0.1, any port
//   absl::StatusOr<std::unique_ptr<mnk::HttpServer>> server =
//       mnk::HttpServer::Start(games, mnk::StaticFiles::Builtin(), options);
//   // GET http://127.0.0.1:PORT/api/games, where PORT is (*server)->port()
//   (*server)->Stop();
//
// How it holds up against slow or odd clients: a client that sends a byte
// a second holds a connection, never a thread; at most kMaxConnections are
// open at once (the listen backlog holds kBacklog more); a connection idle
// for kIdleSeconds is closed, and so is one whose request has not been
// answered kRequestDeadline after the connection opened or its last answer
// was sent (a thread of deadlines); pipelined requests are answered in
// order; a client that half-closes after its request still gets the
// answer. The address and port are never shared with another server (no
// SO_REUSEPORT). Only GET and HEAD are served (405 otherwise, with Allow);
// every answer is the Catalog's or a page file, with Cache-Control:
// no-store and X-Content-Type-Options: nosniff (and, with a CORS origin,
// Access-Control-Allow-Origin and Vary: Origin); a 503 has Retry-After: 1.
#ifndef MNK_SERVE_HTTP_SERVER_H_
#define MNK_SERVE_HTTP_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "serve/server.h"

namespace mnk {

struct HttpOptions {
  std::string bind = "127.0.0.1";  // an IPv4 or IPv6 address
  int port = 0;                    // 0: any free port
  // Positions that take a search: this many at once (1 to 64), each at
  // most `search_deadline`, checked inside the search (then a 503).
  int searches = 2;
  absl::Duration search_deadline = absl::Seconds(5);
  // A line a request on standard error: method, target, status, bytes.
  bool log = true;
  // Sent as Access-Control-Allow-Origin on every answer, so that pages of
  // that origin ("https://example.org", or "*" for any) may call the API;
  // empty: none (only the server's own page may).
  std::string cors;
};

class HttpServer {
 public:
  static constexpr unsigned kMaxConnections = 1000;
  static constexpr unsigned kBacklog = 1024;
  static constexpr unsigned kIdleSeconds = 10;
  static constexpr absl::Duration kRequestDeadline = absl::Seconds(10);

  // Listens on options.bind and options.port and serves `games` and `web`,
  // which must outlive the server. kInvalidArgument for an address that is
  // not one, or searches outside 1-64; kUnavailable naming the address and
  // port and why when it cannot listen (in use, not this machine's).
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(
      const Catalog& games, const StaticFiles& web, const HttpOptions& options);
  ~HttpServer();  // Stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const;  // the port it listens on (the one taken for port 0)
  // True when the address is this machine's own (127.0.0.0/8, ::1).
  bool loopback() const;
  // Cancels the searches (each answers its connection: 503), waits a moment
  // for those answers, then closes every connection. Idempotent.
  void Stop();

 private:
  struct State;
  explicit HttpServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// OK when `text` is an IPv4 or IPv6 address; else kInvalidArgument, its
// message "TEXT: expected an IPv4 or IPv6 address, ...". For --bind.
absl::Status CheckAddress(const std::string& text);

// OK when `text` is "*" or an origin: http:// or https://, a host, an
// optional :port, no path; else kInvalidArgument "TEXT: expected ...".
// For --cors.
absl::Status CheckOrigin(const std::string& text);

}  // namespace mnk

#endif  // MNK_SERVE_HTTP_SERVER_H_
