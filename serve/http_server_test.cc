// The HTTP layer over loopback: a real server on a free port of 127.0.0.1,
// spoken to through plain sockets.
#include "serve/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "answer/answer.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "serve/server.h"

namespace mnk {
namespace {

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(games_.Add(*AnswerSource::Open(GameSpec{3, 3, 3}, {})).ok());
    web_ = StaticFiles::Builtin();
    HttpOptions options;
    options.log = false;
    absl::StatusOr<std::unique_ptr<HttpServer>> server =
        HttpServer::Start(games_, web_, options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  // Sends `request` on a new connection, half-closes it, and returns
  // everything the server sent until it closed the connection.
  std::string Exchange(const std::string& request) const {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(server_->port()));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(
        connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    EXPECT_EQ(write(fd, request.data(), request.size()),
              static_cast<ssize_t>(request.size()));
    shutdown(fd, SHUT_WR);
    std::string answer;
    char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) {
      answer.append(buffer, static_cast<size_t>(n));
    }
    close(fd);
    return answer;
  }

  static std::string Get(const std::string& target) {
    return absl::StrCat("GET ", target,
                        " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  }

  Catalog games_;
  StaticFiles web_;
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpServerTest, AnswersAPositionAsTheCatalogDoes) {
  const std::string answer =
      Exchange(Get("/api/position?game=3x3k3&position=X.O/X.X/OO."));
  EXPECT_TRUE(absl::StartsWith(answer, "HTTP/1.1 200 OK\r\n")) << answer;
  EXPECT_TRUE(absl::StrContains(answer, "Content-Type: application/json"));
  EXPECT_TRUE(absl::StrContains(answer, "Cache-Control: no-store"));
  EXPECT_TRUE(absl::StrContains(answer, "X-Content-Type-Options: nosniff"));
  EXPECT_TRUE(absl::EndsWith(
      answer, "\r\n\r\n" + games_.PositionReply("3x3k3", "X.O/X.X/OO.").body))
      << answer;
}

TEST_F(HttpServerTest, NoCorsHeaderUnlessAsked) {
  EXPECT_FALSE(absl::StrContains(Exchange(Get("/api/games")),
                                 "Access-Control-Allow-Origin"));
}

TEST(HttpServerCorsTest, SendsTheOriginGivenAndRefusesABadOne) {
  Catalog games;
  ASSERT_TRUE(games.Add(*AnswerSource::Open(GameSpec{3, 3, 3}, {})).ok());
  const StaticFiles web = StaticFiles::Builtin();
  HttpOptions options;
  options.log = false;
  options.cors = "https://example.org";
  std::unique_ptr<HttpServer> server = *HttpServer::Start(games, web, options);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(server->port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
            0);
  const std::string request =
      "GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  ASSERT_EQ(write(fd, request.data(), request.size()),
            static_cast<ssize_t>(request.size()));
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) {
    answer.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  EXPECT_TRUE(absl::StrContains(
      answer, "Access-Control-Allow-Origin: https://example.org\r\n"))
      << answer;
  EXPECT_TRUE(absl::StrContains(answer, "Vary: Origin\r\n")) << answer;

  EXPECT_TRUE(CheckOrigin("*").ok());
  EXPECT_TRUE(CheckOrigin("http://localhost:3000").ok());
  EXPECT_EQ(CheckOrigin("https://example.org/page").message(),
            "https://example.org/page: expected * (any origin) or an origin "
            "such as https://example.org or http://localhost:3000 (a scheme, "
            "a host, a port; no path)");
  EXPECT_FALSE(CheckOrigin("example.org").ok());
  EXPECT_FALSE(CheckOrigin("https://").ok());
  options.cors = "evil\r\nX: y";
  EXPECT_EQ(HttpServer::Start(games, web, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(HttpServerTest, ServesTheListAndThePage) {
  EXPECT_TRUE(absl::EndsWith(Exchange(Get("/api/games")), games_.GamesJson()));
  const std::string page = Exchange(Get("/"));
  EXPECT_TRUE(absl::StartsWith(page, "HTTP/1.1 200 OK\r\n")) << page;
  EXPECT_TRUE(absl::StrContains(page, "Content-Type: text/html"));
  EXPECT_TRUE(absl::EndsWith(page, web_.Find("/")->bytes));
}

TEST_F(HttpServerTest, RefusesWhatItDoesNotServe) {
  const std::string post = Exchange(
      "POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
      "Content-Length: 0\r\n\r\n");
  EXPECT_TRUE(absl::StartsWith(post, "HTTP/1.1 405 ")) << post;
  EXPECT_TRUE(absl::StrContains(post, "Allow: GET, HEAD"));
  EXPECT_TRUE(absl::StartsWith(Exchange(Get("/nothing")), "HTTP/1.1 404 "));
  EXPECT_TRUE(
      absl::StartsWith(Exchange(Get("/index.html%00.png")), "HTTP/1.1 400 "));
  const std::string missing = Exchange(Get("/api/position?game=3x3k3"));
  EXPECT_TRUE(absl::StartsWith(missing, "HTTP/1.1 400 ")) << missing;
  EXPECT_TRUE(absl::StrContains(missing, "missing parameter 'position'"));
}

TEST_F(HttpServerTest, AnswersPipelinedRequestsInOrderAndHeadWithoutBody) {
  const std::string keep_alive =
      "GET /api/position?game=3x3k3&position=......... HTTP/1.1\r\n"
      "Host: x\r\n\r\n";
  const std::string answer =
      Exchange(keep_alive + "HEAD /api/games HTTP/1.1\r\nHost: x\r\n\r\n" +
               Get("/api/position?game=3x3k3&position=X.O/X.X/OO."));
  const size_t first = answer.find("\"position\":\".../.../...\"");
  const size_t last = answer.find("\"position\":\"X.O/X.X/OO.\"");
  ASSERT_NE(first, std::string::npos) << answer;
  ASSERT_NE(last, std::string::npos) << answer;
  EXPECT_LT(first, last);
  // Three answers, the HEAD's without the list.
  size_t statuses = 0;
  for (size_t at = 0;
       (at = answer.find("HTTP/1.1 200", at)) != std::string::npos; ++at) {
    ++statuses;
  }
  EXPECT_EQ(statuses, 3u);
  EXPECT_FALSE(absl::StrContains(answer, "\"id\":\"3x3k3\"")) << answer;
}

TEST(HttpServerStartTest, ABadAddressOrATakenPortIsRefused) {
  Catalog games;
  const StaticFiles web = StaticFiles::Builtin();
  HttpOptions options;
  options.bind = "localhost";
  absl::StatusOr<std::unique_ptr<HttpServer>> bad =
      HttpServer::Start(games, web, options);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(),
            "localhost: expected an IPv4 or IPv6 address, such as 127.0.0.1 "
            "or ::1");
  options.bind = "127.0.0.1";
  options.log = false;
  absl::StatusOr<std::unique_ptr<HttpServer>> first =
      HttpServer::Start(games, web, options);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE((*first)->loopback());
  options.port = (*first)->port();
  absl::StatusOr<std::unique_ptr<HttpServer>> second =
      HttpServer::Start(games, web, options);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StartsWith(
      second.status().message(),
      absl::StrCat("cannot listen on 127.0.0.1 port ", options.port, ": ")))
      << second.status();
  options.port = 0;
  options.searches = 0;
  EXPECT_EQ(HttpServer::Start(games, web, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mnk
