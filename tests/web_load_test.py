"""//serve:serve while Connect Four searches run (hardening round 4): 30
clients asking off-book 7x6 positions never hold up the answers from tables
and the book; the searches' answers equal `play`'s; a search past the
thread pool is refused at once (503, Retry-After); SIGTERM cancels a long
search and serve exits within 2 s; bad search flags are refused.
"""

import json
import random
import signal
import subprocess
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

from web_server import SERVE, WebServer

PLAY = "player/play"
C4 = ["--width=7", "--height=6", "--k=4", "--gravity"]
# Off the perfect lines, and long to search with their book alone (serve
# --book=LINES): over 20 s.
SLOW = "......./......./......./......./X....../O.....X"
LINES = "--book=data/7x6k4g-book.mnk"


def random_positions(count, stones, seed):
    """7x6 positions after `stones` random moves in which nobody has won."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        heights = [0] * 7
        rows = [["."] * 7 for _ in range(6)]
        for i in range(stones):
            column = rng.choice([c for c in range(7) if heights[c] < 6])
            rows[5 - heights[column]][column] = "XO"[i % 2]
            heights[column] += 1
        text = "/".join("".join(r) for r in rows)
        found.append(text)
    answers = subprocess.run(
        [PLAY, "--batch", "--json"] + C4, input="\n".join(found) + "\n",
        capture_output=True, text=True, check=True).stdout.splitlines()
    # Keep the positions in play (a line already made is an error line).
    return {p: json.loads(a) for p, a in zip(found, answers)
            if "error" not in json.loads(a) and json.loads(a)["moves"]}


def get(url, timeout=20):
    """(status, seconds, body, headers) of a GET."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, time.monotonic() - start, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, time.monotonic() - start, e.read(), e.headers


def position_path(game, position):
    return "/api/position?" + urllib.parse.urlencode(
        {"game": game, "position": position})


class LoadTest(unittest.TestCase):
    def test_searches_never_hold_up_other_answers(self):
        expected = random_positions(24, 12, seed=45)
        self.assertGreaterEqual(len(expected), 12)
        server = WebServer()
        stop = time.monotonic() + 8
        searched = []  # (status, seconds)
        wrong = []

        def client(seed):
            rng = random.Random(seed)
            while time.monotonic() < stop:
                p = rng.choice(sorted(expected))
                status, seconds, body, headers = get(
                    server.url + position_path("7x6k4g", p))
                searched.append((status, seconds))
                if status == 200 and json.loads(body) != expected[p]:
                    wrong.append(p)
                if status == 503:
                    if headers.get("Retry-After") != "1":
                        wrong.append("no Retry-After on a 503")
                    time.sleep(0.02)

        clients = [threading.Thread(target=client, args=(i,))
                   for i in range(30)]
        for c in clients:
            c.start()
        time.sleep(0.5)
        others = []  # (path, status, seconds) of table, book, list answers
        while time.monotonic() < stop - 0.5:
            for path in ("/api/games", position_path("3x3k3", "X../.O./..."),
                         position_path("7x6k4g", "." * 42),
                         position_path("4x4k4g", "..../..../..../.X..")):
                status, seconds, _, _ = get(server.url + path)
                others.append((path, status, seconds))
            time.sleep(0.1)
        for c in clients:
            c.join()
        self.assertEqual(server.stop(), 0)
        self.assertEqual(wrong, [])
        slowest = max(s for _, _, s in others)
        answered = sorted(s for status, s in searched if status == 200)
        busy = sum(1 for status, _ in searched if status == 503)
        print("load: %d table/book/list answers, all 200: %s, slowest "
              "%.3f s; %d searched requests: %d answered (median %.3f s, "
              "slowest %.3f s), %d refused (503)" % (
                  len(others), all(st == 200 for _, st, _ in others),
                  slowest, len(searched), len(answered),
                  answered[len(answered) // 2] if answered else 0,
                  answered[-1] if answered else 0, busy))
        self.assertTrue(all(status == 200 for _, status, _ in others),
                        others)
        self.assertLess(slowest, 1.0)
        self.assertGreater(len(answered), 0)
        self.assertGreater(busy, 0)

    def test_sigterm_cancels_a_long_search(self):
        server = WebServer(flags=["--search_nodes=2000000000",
                                  "--search_seconds=9", LINES])
        reply = []
        asker = threading.Thread(target=lambda: reply.append(
            get(server.url + position_path("7x6k4g", SLOW))))
        asker.start()
        time.sleep(1)
        self.assertEqual(reply, [])  # still searching
        start = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        self.assertEqual(server.process.wait(timeout=10), 0)
        self.assertLess(time.monotonic() - start, 2.0)
        asker.join()
        status, _, body, _ = reply[0]
        self.assertEqual(status, 503)
        self.assertEqual(json.loads(body),
                         {"error": "the server is stopping"})

    def test_a_search_past_its_deadline_is_a_503(self):
        server = WebServer(flags=["--search_nodes=2000000000",
                                  "--search_seconds=0.5", LINES])
        status, seconds, body, headers = get(
            server.url + position_path("7x6k4g", SLOW))
        self.assertEqual(server.stop(), 0)
        self.assertEqual(status, 503)
        self.assertLess(seconds, 2.0)
        self.assertIn("took more than 0.5 s, this answer's limit", body.decode())
        self.assertEqual(headers.get("Retry-After"), "1")

    def test_bad_search_flags_are_refused(self):
        for flag, message in (
                ("--search_nodes=0", "--search_nodes=0: expected at least 1"),
                ("--searches=0", "--searches=0: expected 1 to 64"),
                ("--search_seconds=20", "--search_seconds=20: expected 0.1"),
                ("--search_memory=1", "--search_memory=1 is too little: "
                 "expected at least 32 KiB (2 searches of 16 KiB)")):
            run = subprocess.run([SERVE, "--port=0", flag],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 1, flag)
            self.assertIn(message, run.stderr)

    def test_a_bad_book_is_refused(self):
        for book, message in (
                ("missing.mnk", "serve: cannot open missing.mnk: No such "
                 "file or directory"),
                ("/dev/null", "serve: /dev/null is a character device, not a "
                 "regular file: expected a table file")):
            run = subprocess.run([SERVE, "--port=0", "--book=" + book],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 3, book)
            self.assertEqual(run.stderr, message + "\n")


if __name__ == "__main__":
    unittest.main()
