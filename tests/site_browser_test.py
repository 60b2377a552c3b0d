"""The static site (//wasm:site) in headless Chromium, from a plain static file
server (Python's http.server): no `serve`, every answer from the module in
a web worker.

Plays whole games by clicks, the computer starting with either side:
tic-tac-toe and misère tic-tac-toe (every legal cell's value and remoteness
checked against the native `play` at every step) and Connect Four 7x6 (each
column's label against `play`, the person playing play's best moves); the
best line and the tree against `play`; whole games at levels 1, 5 and 10,
each of the computer's moves the native server's (`serve`'s /api/choose
with the same seed); a
390x844 window with no horizontal scrolling; the "thinking" state of a
search and its cancel when the person moves on; the JavaScript API's time
budget, node budget and cancel (wasm/mnk_player.mjs), and the example of
docs/javascript.md from the npm package (//wasm:npm, unpacked under
node_modules/mnk/) in a plain page with an import map. Prints the time
from the page's request to the first move.
"""

import functools
import glob
import http.server
import json
import os
import re
import subprocess
import sys
import tarfile
import threading
import time
import unittest
from urllib.parse import urlencode

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from browser import browser
from web_server import WebServer

SITE = "wasm/site"
# Connect Four off the perfect lines, before the opening table's frontier
# (11 stones): six stones, and nine.
OFF_LINES = "......./......./......./......./...O.X./.XOO.X."
NINE_STONES = "......./......./......./......./..OO.X./XXOXOX."
GAME_FLAGS = {
    "3x3k3": ["--width=3", "--height=3", "--k=3"],
    "3x3k3m": ["--width=3", "--height=3", "--k=3", "--misere"],
    "7x6k4g": ["--width=7", "--height=6", "--k=4", "--gravity"],
}


def doc_example():
    """The browser example of docs/javascript.md (its ```javascript block)."""
    with open("docs/javascript.md") as f:
        return re.search(r"^```javascript\n(.*?)^```$", f.read(),
                         re.M | re.S).group(1)


def unpacked_package():
    """The npm package's files, unpacked: {name: bytes}."""
    with tarfile.open(glob.glob("wasm/mnk-*.tgz")[0]) as tgz:
        return {m.name[len("package/"):]: tgz.extractfile(m).read()
                for m in tgz.getmembers() if m.isfile()}


# A page that runs the example, its console.log lines kept in window.out,
# the package's names mapped as a page without a bundler maps them.
EXAMPLE_PAGE = b"""<!doctype html><link rel="icon" href="data:,">
<script type="importmap">
{"imports": {"mnk": "./node_modules/mnk/mnk.mjs",
             "mnk/player": "./node_modules/mnk/mnk_player.mjs"}}
</script>
<script type="module">
window.out = [];
console.log = (...a) => window.out.push(a.join(' '));
import('./example.mjs').then(() => { window.done = true; },
                             (e) => { window.done = String(e); });
</script>"""


class Site(http.server.SimpleHTTPRequestHandler):
    """The site's files, the example's page at /example.html and the npm
    package under /node_modules/mnk/."""

    package = {}
    opening_requests = 0  # of Connect Four's opening table
    opening_blocked = False  # answered with a 404 while True

    def do_GET(self):
        if self.path == "/7x6k4g-opening.mnk":
            Site.opening_requests += 1
            if Site.opening_blocked:
                return self.send_error(404)
        pages = {"/example.html": ("text/html", EXAMPLE_PAGE),
                 "/example.mjs": ("text/javascript",
                                  doc_example().encode())}
        kinds = {".mjs": "text/javascript", ".wasm": "application/wasm"}
        for name, data in self.package.items():
            kind = kinds.get(os.path.splitext(name)[1], "text/plain")
            pages["/node_modules/mnk/" + name] = (kind, data)
        if self.path not in pages:
            return super().do_GET()
        kind, body = pages[self.path]
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    """Quiet when the page drops a request it no longer needs (a new game
    cancels a fetch under way); any other error is printed as usual."""

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def static_server():
    """Serves the site's folder on a free port of 127.0.0.1."""
    Site.package = unpacked_package()
    handler = functools.partial(Site, directory=SITE)
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def native(game, position):
    """The native player's answer (play --json), remembered."""
    key = (game, position)
    if key not in native.answers:
        out = subprocess.run(["player/play", "--json", "--position=" + position]
                             + GAME_FLAGS[game], check=True,
                             capture_output=True, text=True).stdout
        native.answers[key] = json.loads(out)
    return native.answers[key]


native.answers = {}


class SiteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = static_server()
        cls.url = "http://127.0.0.1:%d/" % cls.server.server_address[1]
        cls.driver = browser()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.shutdown()

    # --- Helpers -----------------------------------------------------------

    def open(self, query=""):
        self.driver.get(self.url + query)
        self.wait(self.settled, timeout=30)

    def wait(self, condition, timeout=60):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(
            lambda d: condition())

    def status(self):
        return self.driver.find_element(By.ID, "status").text

    def position(self):
        return self.driver.find_element(By.ID, "position").get_attribute(
            "value")

    def settled(self):
        """True once the page waits for the person or the game is over."""
        s = self.status()
        return "(your turn)" in s or s.startswith("Game over") or (
            "to move:" in s and "computer" not in s)

    def new_game(self, game, side):
        Select(self.driver.find_element(By.ID, "game")).select_by_value(game)
        self.wait(self.settled)
        Select(self.driver.find_element(By.ID, "side")).select_by_value(side)
        self.driver.find_element(By.ID, "new").click()
        self.wait(lambda: self.settled() and (
            side == "O" or "X" not in self.position()))
        if side == "O":
            self.wait(lambda: "X" in self.position() and self.settled())

    def check_cells(self, game):
        """Every cell's value and remoteness against the native play."""
        answer = native(game, self.position())
        moves = {m["cell"]: m for m in answer["moves"]}
        for element in self.driver.find_elements(By.CSS_SELECTOR,
                                                 "#board [data-cell]"):
            n = int(element.get_attribute("data-cell"))
            shown = (element.get_attribute("data-value"),
                     element.get_attribute("data-remoteness"))
            want = (moves[n]["value"], str(moves[n]["remoteness"])) \
                if n in moves else (None, None)
            self.assertEqual(shown, want, (n, answer))
        return answer

    def check_columns(self, game):
        """Every column label's value and remoteness against the native
        play; the dashed one is play's best column."""
        answer = native(game, self.position())
        columns = {m["column"]: m for m in answer["moves"]}
        for label in self.driver.find_elements(By.CSS_SELECTOR, ".colvalue"):
            col = int(label.get_attribute("data-col"))
            if col in columns:
                m = columns[col]
                self.assertEqual(label.text, "%s %d" % (m["value"],
                                                        m["remoteness"]))
                self.assertEqual("best" in label.get_attribute("class"),
                                 col == answer["best_column"], answer)
            else:
                self.assertEqual(label.text, "")
        return answer

    def play_game(self, game, side, check):
        """A whole game by clicks, the person playing play's best moves;
        returns the final status."""
        self.new_game(game, side)
        while True:
            answer = check(game)
            if not answer["moves"]:
                return self.status()
            self.assertIn("(your turn)", self.status())
            before = self.position()
            if answer["game"]["gravity"]:
                self.driver.find_element(
                    By.CSS_SELECTOR,
                    '.colvalue[data-col="%d"]' % answer["best_column"]).click()
            else:
                self.driver.find_element(
                    By.CSS_SELECTOR,
                    '#board [data-cell="%d"]' % answer["best_move"]).click()
            self.wait(lambda: self.position() != before and self.settled())

    # --- Tests ---------------------------------------------------------------

    def test_first_move(self):
        """From a cold cache: the page's request to a Connect Four board
        with every column's value, then the computer's opening move (from
        the book), as play's."""
        self.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        start = time.perf_counter()
        self.open("?game=7x6k4g")
        load = time.perf_counter() - start
        self.assertEqual(self.status(), "X to move (your turn): win in 41")
        self.check_columns("7x6k4g")
        start = time.perf_counter()
        self.new_game("7x6k4g", "O")
        reply = time.perf_counter() - start
        empty = "/".join(["......."] * 6)
        self.assertEqual(self.position(), empty[:-4] + "X" + empty[-3:])
        self.assertEqual(native("7x6k4g", empty)["best_column"], 3)
        print("site: request to a playable Connect Four board %.0f ms (cold "
              "cache), the computer's first move %.0f ms after New game" %
              (load * 1000, reply * 1000), file=sys.stderr)

    def test_tictactoe_never_loses_either_side(self):
        self.open("?game=3x3k3")
        for game in ["3x3k3", "3x3k3m"]:
            for side in ["X", "O"]:
                final = self.play_game(game, side, self.check_cells)
                self.assertTrue(final.startswith("Game over: draw"),
                                (game, side, final))

    def test_connect_four_whole_games(self):
        self.open("?game=7x6k4g")
        # Perfect play both sides: the first player wins with the last
        # stones.
        for side, result in [("X", "Game over: X wins. You win."),
                             ("O", "Game over: X wins. The computer wins.")]:
            final = self.play_game("7x6k4g", side, self.check_columns)
            self.assertEqual(final, result)
            self.assertEqual(len(self.driver.find_elements(
                By.CSS_SELECTOR, "#moves li")), 41)

    def test_best_line_and_tree_from_the_module(self):
        """The best line and the tree, answered by the module, against
        the native play: the line replays play's best moves; each move of
        the tree has the value and remoteness of the position it leads to,
        the seeds' score for the side to move (+10 less the plies to its
        win, -10 plus the plies to its loss), and play's best move kept."""
        position = "XO./XO./..."
        self.open("?game=3x3k3&position=" + position)
        self.driver.find_element(By.ID, "pv-button").click()
        pv = lambda: self.driver.find_element(By.ID, "pv").text
        self.wait(lambda: pv().endswith("."))
        self.assertEqual(pv(), "X cell %d." % native("3x3k3",
                                                     position)["best_move"])
        self.driver.find_element(By.ID, "show-tree").click()
        level = self.wait(lambda: self.driver.find_element(
            By.CSS_SELECTOR, "#tree > .level"))
        answer = native("3x3k3", position)
        opposite = {"win": "loss", "loss": "win", "draw": "draw"}
        want = [(m["cell"], opposite[m["value"]], m["remoteness"] - 1,
                 {"win": 10 - m["remoteness"], "draw": 0,
                  "loss": -10 + m["remoteness"]}[m["value"]],
                 m["cell"] == answer["best_move"]) for m in answer["moves"]]
        shown = [(int(li.get_attribute("data-cell")),
                  li.get_attribute("data-value"),
                  int(li.get_attribute("data-remoteness")),
                  int(li.get_attribute("data-score")),
                  li.get_attribute("data-best") == "true")
                 for li in level.find_elements(By.XPATH, "./ul/li")]
        self.assertEqual(shown, want)
        self.driver.find_element(By.ID, "show-tree").click()

    def test_levels_as_the_native_server_chooses(self):
        """Whole games at levels 1, 5 and 10 with a seed in the URL, the
        person taking the lowest legal cell: every move the module chooses
        is the one the native server chooses with that level and seed."""
        server = WebServer()
        try:
            for game, level, seed in [("3x3k3", 1, 21), ("3x3k3", 5, 22),
                                      ("3x3k3", 10, 23), ("3x3k3m", 5, 24)]:
                self.open("?game=%s&level=%d&seed=%d" % (game, level, seed))
                self.new_game(game, "X")
                while True:
                    position = self.position()
                    answer = native(game, position)
                    if not answer["moves"]:
                        break
                    cell = answer["moves"][0]["cell"]
                    played = position[:cell + cell // 3] + answer["to_move"] + \
                        position[cell + cell // 3 + 1:]
                    want = played
                    if native(game, played)["moves"]:
                        want = server.get_json("/api/choose?" + urlencode(
                            {"game": game, "position": played,
                             "level": level, "seed": seed}))["position"]
                    self.driver.find_element(
                        By.CSS_SELECTOR,
                        '#board [data-cell="%d"]' % cell).click()
                    self.wait(lambda: self.position() not in (position, played)
                              or self.status().startswith("Game over"))
                    self.assertEqual(self.position(), want, (game, level))
                    self.wait(self.settled)
                self.assertTrue(self.status().startswith("Game over"))
                if level == 10:
                    self.assertNotIn("You win", self.status())
        finally:
            self.assertEqual(server.stop(), 0)
            server.log.close()

    def test_phone(self):
        self.driver.set_window_size(390, 844)
        try:
            for game, cells in [("7x6k4g", 42), ("3x3k3", 9)]:
                self.open("?game=" + game)
                width = self.driver.execute_script(
                    "return document.documentElement.clientWidth")
                self.assertLessEqual(self.driver.execute_script(
                    "return document.documentElement.scrollWidth"), width)
                board = self.driver.find_element(By.ID, "board").rect
                self.assertLessEqual(board["x"] + board["width"], width)
                self.assertLess(board["y"], 844 / 2, board)
                self.assertEqual(len(self.driver.find_elements(
                    By.CSS_SELECTOR, "#board [data-cell]")), cells)
        finally:
            self.driver.set_window_size(1100, 1000)

    def block_opening_table(self, blocked=True):
        """Blocks (or unblocks) the page's fetch of Connect Four's opening
        table (the server answers 404, the cached copy is dropped), so that
        positions off the built-in book take a search."""
        Site.opening_blocked = blocked
        self.driver.execute_cdp_cmd("Network.clearBrowserCache", {})

    def test_opening_table_fetched_once_then_looked_up(self):
        """Connect Four positions of up to 9 stones off the perfect lines,
        each column's outcome from the fetched table without a search."""
        self.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        before = Site.opening_requests
        start = time.perf_counter()
        self.open("?game=7x6k4g&position=" + OFF_LINES)
        load = time.perf_counter() - start
        self.check_columns("7x6k4g")
        self.assertEqual(Site.opening_requests - before, 1)
        outcomes = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const {Player} = await import('./mnk_player.mjs');
            const player = await Player.start();
            const outcome = (promise) => promise.then(
                (a) => `${a.value} ${a.remoteness} ${a.moves.length}`,
                (e) => `${e.name} ${e.code}`);
            const found = [];
            for (const p of arguments[0]) {
              found.push(await outcome(player.analyse('7x6k4g', p,
                                                      {maxNodes: 1})));
            }
            player.close();
            done(found);
        """, [OFF_LINES, NINE_STONES])
        for position, got in zip([OFF_LINES, NINE_STONES], outcomes):
            want = native("7x6k4g", position)
            self.assertEqual(got, "%s %d %d" % (
                want["value"], want["remoteness"], len(want["moves"])))
        print("site: a Connect Four position off the perfect lines, from "
              "the request to every column's outcome, %.0f ms (cold cache)"
              % (load * 1000), file=sys.stderr)

    def test_thinking_then_cancelled_by_a_new_game(self):
        self.block_opening_table()
        self.addCleanup(self.block_opening_table, False)
        self.open("?game=7x6k4g")
        self.new_game("7x6k4g", "both")
        self.assertEqual(self.status(), "X to move: win in 41")
        # X and O in column 0: off the built-in book (the opening table
        # blocked), a search of seconds.
        for stones in [1, 2]:
            self.driver.find_element(By.CSS_SELECTOR,
                                     '.colvalue[data-col="0"]').click()
            if stones == 1:
                self.wait(self.settled)
        self.wait(lambda: self.status().startswith("Thinking…"))
        board = self.driver.find_element(By.ID, "board")
        self.assertEqual(board.get_attribute("aria-busy"), "true")
        # The stones are drawn, no value yet, and no move can be made.
        self.assertEqual(len(self.driver.find_elements(
            By.CSS_SELECTOR, "[data-stone]")), 2)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR,
                                                   "[data-value]"), [])
        self.wait(lambda: " of 7 moves solved" in self.status())
        self.driver.find_element(By.ID, "new").click()
        self.wait(self.settled, timeout=2)
        self.assertEqual(self.status(), "X to move: win in 41")
        self.assertIsNone(board.get_attribute("aria-busy"))
        # The worker, replaced, answers the next search.
        self.open("?game=7x6k4g&position=" +
                  "......./......./......./...O.../.O.XO../XXOXO.X")
        self.check_columns("7x6k4g")

    def test_api_budgets_and_cancel(self):
        self.open()
        results = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const {Player} = await import('./mnk_player.mjs');
            const player = await Player.start({books: {}});
            const offBook = '......./......./......./...O.../.O.XO../XXOXO.X';
            const outcome = (promise) => promise.then(
                (a) => a.value, (e) => `${e.name} ${e.code} ${e.message}`);
            const stop = new AbortController();
            const cancelled = outcome(player.analyse('7x6k4g', offBook,
                                                     {signal: stop.signal}));
            setTimeout(() => stop.abort(), 50);
            const cancelledOutcome = await cancelled;
            const worker = player.worker;
            const timedOut = await outcome(player.analyse('7x6k4g', offBook,
                                                          {timeLimit: 50}));
            // A time limit ends the search inside the worker, which stays.
            const kept = player.worker === worker;
            done([
              cancelledOutcome,
              timedOut,
              await outcome(player.analyse('7x6k4g', offBook,
                                           {maxNodes: 1000})),
              await outcome(player.analyse('3x3k3', 'XXX/.../...')),
              await outcome(player.analyse('3x3k3', '.........')),
              await outcome(player.analyse('9x9k9', '.........')),
              await (async () => {
                player.close();
                return outcome(player.analyse('3x3k3', '.........'));
              })(),
              kept,
            ]);
        """)
        self.assertEqual(results[0], "AbortError 20 "
                         "the answer was cancelled")
        self.assertEqual(results[1], "TimeoutError 23 "
                         "no answer within 50 ms")
        self.assertTrue(results[2].startswith("Error RESOURCE_EXHAUSTED "),
                        results[2])
        self.assertTrue(results[3].startswith("Error INVALID_ARGUMENT "),
                        results[3])
        self.assertEqual(results[4], "draw")
        self.assertTrue(results[5].startswith(
            "Error NOT_FOUND no game '9x9k9': expected one of 3x3k3, "),
            results[5])
        self.assertEqual(results[6], "InvalidStateError 11 "
                         "the player is closed")
        self.assertIs(results[7], True)

    def test_doc_example(self):
        """docs/javascript.md's browser example prints what its comments
        on console.log lines say."""
        self.driver.get(self.url + "example.html")
        self.wait(lambda: self.driver.execute_script("return window.done"))
        self.assertIs(self.driver.execute_script("return window.done"), True)
        want = [line.split("// ", 1)[1] for line in doc_example().split("\n")
                if "console.log" in line]
        self.assertEqual(self.driver.execute_script("return window.out"),
                         want)

    def test_no_console_errors(self):
        self.driver.get_log("browser")  # what earlier tests left
        self.open("?game=3x3k3")
        errors = [e for e in self.driver.get_log("browser")
                  if e["level"] == "SEVERE"]
        self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
