"""The web server's JSON API over HTTP (//serve:serve): answers equal to
`play --position --json`, every class of bad input, path traversal, and
2,000 requests from 32 concurrent clients.

Prints the latency figures (p50, p99) the README quotes.
"""

import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import threading
import time
import unittest
import urllib.parse

from web_server import WebServer

PLAY = "player/play"
C4 = "data/4x4k4g.mnk"


def raw_get(server, target, method="GET", body=None):
    """(status, body) for a request line sent exactly as given."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.putrequest(method, target, skip_accept_encoding=True)
    if body is not None:
        conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body.encode() if body is not None else None)
    r = conn.getresponse()
    data = r.read().decode()
    conn.close()
    return r.status, data


def play_answers(table, positions, flags=()):
    """`play --batch --json` on the positions: the reference answers."""
    args = [PLAY, "--batch", "--json"] + (["--table=" + table] if table else [])
    args += list(flags)
    out = subprocess.run(args, input="".join(p + "\n" for p in positions),
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


class ApiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # A small search budget: the empty 7x6 board is over it at once.
        cls.server = WebServer(tables={"4x4k4g.mnk": C4},
                               flags=["--search_nodes=200000"])

    @classmethod
    def tearDownClass(cls):
        assert cls.server.stop() == 0, "serve did not stop cleanly on SIGTERM"

    def error(self, target, status, contains=""):
        got, body = raw_get(self.server, target)
        self.assertEqual(got, status, (target, body))
        message = json.loads(body)["error"]
        self.assertIn(contains, message, target)
        return message

    def test_games(self):
        games = self.server.get_json("/api/games")
        self.assertEqual([g["id"] for g in games],
                         ["3x3k3", "3x3k3m", "4x4k4g", "7x6k4g"])
        self.assertEqual([g["title"] for g in games],
                         ["Tic-tac-toe", "Mis\u00e8re tic-tac-toe",
                          "Connect-style 4x4", "Connect Four"])
        searched = games[3]
        self.assertEqual((searched["width"], searched["height"], searched["k"],
                          searched["gravity"], searched["reachable"],
                          searched["layout"]), (7, 6, 4, True, None, "search"))
        c4 = games[2]
        self.assertEqual((c4["width"], c4["height"], c4["k"], c4["gravity"],
                          c4["misere"], c4["reachable"], c4["layout"]),
                         (4, 4, 4, True, False, 161029, "full"))
        self.assertEqual(games[0]["reachable"], 5478)
        self.assertTrue(games[1]["misere"])

    def test_position_is_what_play_says(self):
        for game, table, position in [
                ("3x3k3", None, "X.O/X.X/OO."),
                ("3x3k3", None, "XXX/OO./..."),
                ("3x3k3", None, "........."),
                ("4x4k4g", C4, "..../..../..../XO.."),
                ("4x4k4g", C4, "..../..../..../XXO.")]:
            got = self.server.position(game, position)
            self.assertEqual(got, play_answers(table, [position])[0], position)

    def test_connect_four_by_search(self):
        c4 = ["--width=7", "--height=6", "--k=4", "--gravity"]
        for position in ["......./......./...O.../..XX.O./.OOXXX./OXXOOXO",
                         "......./......./...X.../..OO.X./.XXOOO./XOOXXOX"]:
            got = self.server.position("7x6k4g", position)
            self.assertEqual(got, play_answers(None, [position], c4)[0])
        # Twelve stones, past the opening table: millions of positions of
        # search.
        early = "......./......./.X...../.OO..../XOX.O../XXO.X.O"
        self.error("/api/position?game=7x6k4g&position=" + early, 503,
                   "takes more than 200000 positions of search")

    def test_pv_is_what_play_says(self):
        c4 = ["--width=7", "--height=6", "--k=4", "--gravity"]
        late = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO"
        for game, flags, position in [
                ("3x3k3", [], "XO./.X./..."),
                ("3x3k3", [], "XXX/OO./..."),
                ("4x4k4g", ["--table=" + C4], "..../..../..../...."),
                ("7x6k4g", c4, late)]:
            got = self.server.get_json("/api/pv?" + urllib.parse.urlencode(
                {"game": game, "position": position}))
            want = json.loads(subprocess.run(
                [PLAY, "--position=" + position, "--pv", "--json"] + flags,
                capture_output=True, text=True, check=True).stdout)["pv"]
            self.assertEqual(got, {"pv": want, "complete": True}, position)
        got = self.server.get_json("/api/pv?game=3x3k3&position=XO./.X./...")
        self.assertEqual(got["pv"], [8, 3, 2, 5])
        self.error("/api/pv?game=3x3k3&position=XXX/OOO/...", 400,
                   "position 'XXX/OOO/...'")
        self.error("/api/pv?game=3x3k3", 400, "missing parameter 'position'")

    def test_choose(self):
        def choose(game, position, **level):
            return self.server.get_json("/api/choose?" + urllib.parse.urlencode(
                {"game": game, "position": position, **level}))
        self.assertEqual(choose("3x3k3", "XO./.X./..."),
                         {"cell": 8, "position": "XO./.X./..O"})
        # vary: every cell of the empty board is a perfect first move.
        firsts = {choose("3x3k3", ".../.../...", vary="true", seed=seed)["cell"]
                  for seed in range(100)}
        self.assertEqual(firsts, set(range(9)))
        self.assertEqual(choose("3x3k3", ".../.../...", vary="false",
                                seed=1)["cell"], 0)
        # A searched game: the built-in book's first move, then a search.
        c4 = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO"
        self.assertEqual(choose("7x6k4g", c4)["cell"],
                         self.server.position("7x6k4g", c4)["best_move"])
        self.error("/api/choose?game=3x3k3&position=.........&level=0", 400,
                   "level 0: expected a level from 1 (random) to 10")
        self.error("/api/choose?game=3x3k3&position=.........&vary=1", 400,
                   "vary '1': expected true or false")
        self.error("/api/choose?game=3x3k3&position=XXX/OO./...", 400,
                   "over")

    def test_best_only(self):
        # Off the book, within the server's 200,000 positions of search.
        off_book = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO"
        query = {"game": "7x6k4g", "position": off_book}
        best = self.server.get_json("/api/position?" + urllib.parse.urlencode(
            {**query, "best_only": "true"}))
        full = self.server.position("7x6k4g", off_book)
        self.assertEqual(best["moves"], [])
        self.assertEqual(len(full["moves"]), 7)
        self.assertEqual({**best, "moves": full["moves"]}, full)
        self.error("/api/position?game=3x3k3&position=.........&best_only=1",
                   400, "best_only '1': expected true or false")

    def check_tree(self, game, node, depth):
        """Each node of a tree from /api/tree against /api/position: its
        value and remoteness, its children the answer's moves in board
        order, the seeds' score for the root's side to move, one best."""
        answer = self.server.position(game, node["position"])
        for key in ("to_move", "value", "remoteness"):
            self.assertEqual(node[key], answer[key], node["position"])
        if depth == 0:
            self.assertEqual(node["children"], [])
            return
        self.assertEqual([c["cell"] for c in node["children"]],
                         [m["cell"] for m in answer["moves"]])
        best = [c["cell"] for c in node["children"] if c["best"]]
        self.assertEqual(best, [answer["best_move"]] if answer["moves"] else [])
        for child, move in zip(node["children"], answer["moves"]):
            self.assertEqual(child["value"], {"win": "loss", "loss": "win",
                                              "draw": "draw"}[move["value"]])
            self.assertEqual(child["remoteness"], move["remoteness"] - 1)
            self.check_tree(game, child, depth - 1)

    def test_tree(self):
        for game, position, depth in [("3x3k3", "XO./XO./...", 2),
                                      ("3x3k3", ".........", 1),
                                      ("4x4k4g", "..../..../..../XO..", 1)]:
            root = self.server.get_json("/api/tree?" + urllib.parse.urlencode(
                {"game": game, "position": position, "depth": depth}))
            self.check_tree(game, root, depth)
        # The seeds' scores, for the root's side to move: +10 less the plies
        # to its win, -10 plus the plies to its loss.
        root = self.server.get_json(
            "/api/tree?game=3x3k3&position=XO./XO./...&depth=1")
        self.assertEqual([(c["cell"], c["score"], c["sign"], c["best"])
                          for c in root["children"]],
                         [(2, -8, -1, False), (5, -8, -1, False),
                          (6, 9, 1, True), (7, 0, 0, False),
                          (8, -8, -1, False)])
        # Depth 1 by default; 0 the root alone.
        self.assertEqual(len(self.server.get_json(
            "/api/tree?game=3x3k3&position=.........")["children"]), 9)
        self.assertEqual(self.server.get_json(
            "/api/tree?game=3x3k3&position=.........&depth=0")["children"], [])
        # Connect Four by search.
        late = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO"
        root = self.server.get_json("/api/tree?" + urllib.parse.urlencode(
            {"game": "7x6k4g", "position": late}))
        self.check_tree("7x6k4g", root, 1)
        self.assertEqual([c["column"] for c in root["children"]],
                         list(range(7)))
        self.error("/api/tree?game=3x3k3&position=.........&depth=x", 400,
                   "depth")
        self.error("/api/tree?game=3x3k3&position=.........&depth=65", 400,
                   "depth")
        self.error("/api/tree?game=3x3k3&position=.........&depth=9", 400,
                   "more than 100000")

    def test_bad_input(self):
        self.error("/api/position?position=.........", 400,
                   "missing parameter 'game'")
        self.error("/api/position?game=3x3k3", 400,
                   "missing parameter 'position'")
        self.error("/api/position?game=3x3k3&position=", 400, "position ''")
        self.error("/api/position?game=3x3k3&position=XXX/OOO/...", 400,
                   "position 'XXX/OOO/...'")
        self.error("/api/position?game=3x3k3&position=" + "X" * 5000, 400)
        self.error("/api/position?game=3x3k3&position=%ff%00", 400)
        self.error("/api/position?game=nope&position=.........", 404,
                   "no game 'nope': expected one of 3x3k3, 3x3k3m, 4x4k4g, "
                   "7x6k4g")
        self.error("/api/nothing", 404, "no such path: /api/nothing")
        self.error("/index.htm", 404)
        got, body = raw_get(self.server, "/api/games", "POST", "x=1")
        self.assertEqual(got, 405, body)
        self.assertIn("method POST is not allowed", json.loads(body)["error"])
        got, _ = raw_get(self.server, "/api/games", "DELETE", "")
        self.assertEqual(got, 405)

    def test_no_path_traversal(self):
        for target in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                       "/..%2f..%2f..%2fetc%2fpasswd", "/%2E%2E%2F%2E%2E%2FBUILD",
                       "/..\\..\\BUILD", "/web/../BUILD", "//etc/passwd",
                       "/serve/web/index.html", "/./index.html/../BUILD",
                       "/index.html%00.png", "/%252e%252e/BUILD",
                       "/../data/3x3k3.mnk", "/serve", "/../MANIFEST"]:
            got, body = raw_get(self.server, target)
            self.assertIn(got, (400, 404), target)
            self.assertIn("error", json.loads(body), target)
            self.assertNotIn("root:", body)
        status, page = raw_get(self.server, "/")
        self.assertEqual(status, 200)
        self.assertIn('<script src="app.js">', page)

    def test_one_log_line_per_request(self):
        # The logger runs after the answer is sent: wait for the lines.
        games_bytes = len(self.server.get("/api/games")[1].encode())
        marker = "/api/nothing-%d" % time.monotonic_ns()
        self.server.get(marker)
        want = ["GET /api/games 200 %d" % games_bytes,
                "GET %s 404 " % marker]
        deadline = time.monotonic() + 5
        while True:
            lines = self.server.log_lines()
            mine = [l for l in lines if marker in l]
            if mine or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual(len(mine), 1, lines[-5:])
        self.assertTrue(mine[0].startswith(want[1]), mine)
        self.assertIn(want[0], lines)

    def test_load(self):
        # Positions from random games, answered first by `play`.
        rng = random.Random(9)
        cases = []
        for game, table, empty in [("3x3k3", None, ".../.../..."),
                                   ("4x4k4g", C4, "..../..../..../....")]:
            positions = set()
            for _ in range(60):
                p = empty
                while True:
                    positions.add(p)
                    a = self.server.position(game, p)
                    if not a["moves"]:
                        break
                    cell = rng.choice(a["moves"])["cell"]
                    row, col = divmod(cell, a["game"]["width"])
                    i = row * (a["game"]["width"] + 1) + col
                    p = p[:i] + a["to_move"] + p[i + 1:]
            positions = sorted(positions)
            cases += [(game, p, want) for p, want in
                      zip(positions, play_answers(table, positions))]
        requests = 2000
        clients = 32
        latencies = []
        wrong = []
        lock = threading.Lock()

        def client(c):
            conn = http.client.HTTPConnection(self.server.host,
                                              self.server.port, timeout=30)
            mine = []
            for n in range(c, requests, clients):
                game, p, want = cases[n % len(cases)]
                target = "/api/position?" + urllib.parse.urlencode(
                    {"game": game, "position": p})
                start = time.perf_counter()
                conn.request("GET", target)
                r = conn.getresponse()
                body = r.read()
                mine.append(time.perf_counter() - start)
                if r.status != 200 or json.loads(body) != want:
                    with lock:
                        wrong.append((p, r.status, body[:200]))
                if r.getheader("Connection") == "close":
                    conn.close()
            conn.close()
            with lock:
                latencies.extend(mine)

        start = time.perf_counter()
        threads = [threading.Thread(target=client, args=(c,))
                   for c in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        elapsed = time.perf_counter() - start
        self.assertFalse(any(t.is_alive() for t in threads), "clients hung")
        self.assertEqual(wrong, [])
        self.assertEqual(len(latencies), requests)
        self.assertLess(elapsed, 60)
        latencies.sort()
        p50 = latencies[len(latencies) // 2] * 1000
        p99 = latencies[int(len(latencies) * 0.99)] * 1000
        print("load: %d requests from %d clients (%d distinct positions) in "
              "%.2f s: %.0f requests/s, latency p50 %.2f ms, p99 %.2f ms" %
              (requests, clients, len(cases), elapsed, requests / elapsed,
               p50, p99), file=sys.stderr)
        self.assertTrue(self.server.alive())

    def test_latency_one_client(self):
        conn = http.client.HTTPConnection(self.server.host, self.server.port,
                                          timeout=10)
        latencies = []
        for n in range(500):
            start = time.perf_counter()
            conn.request("GET", "/api/position?game=3x3k3&position=" +
                         ["X.O/X.X/OO.", ".../.X./...", ".../.../..."][n % 3])
            r = conn.getresponse()
            r.read()
            latencies.append(time.perf_counter() - start)
            self.assertEqual(r.status, 200)
        latencies.sort()
        print("one client: 500 requests, latency p50 %.3f ms, p99 %.3f ms" %
              (latencies[250] * 1000, latencies[495] * 1000), file=sys.stderr)


class InMemoryTest(unittest.TestCase):
    """serve --in_memory: the same answers from a copy of the table read at
    start-up, which a later write to the file leaves alone."""

    def test_answers_survive_a_write_to_the_file(self):
        copy = os.path.join(os.environ["TEST_TMPDIR"], "in_memory.mnk")
        shutil.copyfile(C4, copy)
        server = WebServer(tables={"4x4k4g.mnk": copy}, flags=["--in_memory"])
        try:
            position = "..../..../..../XO.."
            want = play_answers(C4, [position])[0]
            self.assertEqual(server.position("4x4k4g", position), want)
            time.sleep(0.01)  # a later modification time
            with open(copy, "r+b") as f:
                f.write(open(C4, "rb").read())
            self.assertEqual(server.position("4x4k4g", position), want)
        finally:
            self.assertEqual(server.stop(), 0)


if __name__ == "__main__":
    unittest.main()
