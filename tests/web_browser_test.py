"""The web page in a real browser: headless Chromium driven by Selenium.

Plays whole games by clicks as X and as O (the perfect player never loses),
checks every legal cell's data-value and data-remoteness against the API at
every step, the values in letters (the page in greyscale), cell numbers,
the best line and the tree against the API, undo and redo, a gravity board
(its column labels against the API, clicks on discs), the keyboard, the
stones and status against the position, the games' names and the legend,
no horizontal scrolling on a 390x844 screen with the move list and value
history in view, and bad positions in the URL and the editor. Saves
screenshots (page.png, page-grey.png) among the test's outputs and prints
the page's load time.
"""

import os
import random
import sys
import time
import unittest
import urllib.parse

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from browser import browser
from web_server import WebServer


class PageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = WebServer(tables={"4x4k4g.mnk": "data/4x4k4g.mnk"})
        cls.driver = browser()
        cls.rng = random.Random(4)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        assert cls.server.stop() == 0, "serve did not stop cleanly on SIGTERM"

    # --- Helpers -----------------------------------------------------------

    def open(self, query=""):
        """The page at `query`, once its first answer is drawn."""
        self.driver.get(self.server.url + "/" + query)
        self.wait(lambda d: not self.status().startswith(("Loading",
                                                          "Thinking")))

    def wait(self, condition, timeout=10):
        return WebDriverWait(self.driver, timeout).until(condition)

    def status(self):
        return self.driver.find_element(By.ID, "status").text

    def message(self):
        return self.driver.find_element(By.ID, "message").text

    def position(self):
        return self.driver.find_element(By.ID, "position").get_attribute(
            "value")

    def cell(self, n):
        return self.driver.find_element(By.CSS_SELECTOR,
                                        '#board [data-cell="%d"]' % n)

    def click_cell(self, n):
        """Clicks cell n, found again if an answer redrew the board between
        finding it and clicking it."""
        def clicked(d):
            try:
                self.cell(n).click()
                return True
            except StaleElementReferenceException:
                return False
        self.wait(clicked)

    def settled(self):
        """True once the page waits for the person or the game is over."""
        s = self.status()
        return "(your turn)" in s or s.startswith("Game over") or (
            "computer" not in s and "to move" in s)

    def new_game(self, game, side):
        """A new game of `game` with the person playing `side`: X (first),
        O (the computer opens) or both."""
        Select(self.driver.find_element(By.ID, "game")).select_by_value(game)
        self.wait(lambda d: self.settled() and self.game_id() == game)
        Select(self.driver.find_element(By.ID, "side")).select_by_value(side)
        self.driver.find_element(By.ID, "new").click()
        self.wait(lambda d: self.settled() and (
            side != "X" or "." * 3 in self.position()))

    def game_id(self):
        query = urllib.parse.urlparse(self.driver.current_url).query
        return urllib.parse.parse_qs(query).get("game", [""])[0]

    def check_cells(self, game):
        """Every cell's data attributes against the API's answer."""
        answer = self.server.position(game, self.position())
        moves = {m["cell"]: m for m in answer["moves"]}
        cells = self.driver.find_elements(By.CSS_SELECTOR,
                                          "#board [data-cell]")
        self.assertEqual(len(cells), answer["game"]["width"] *
                         answer["game"]["height"])
        for element in cells:
            n = int(element.get_attribute("data-cell"))
            value = element.get_attribute("data-value")
            remoteness = element.get_attribute("data-remoteness")
            if n in moves:
                self.assertEqual(value, moves[n]["value"], (n, answer))
                self.assertEqual(int(remoteness), moves[n]["remoteness"])
            else:
                self.assertIsNone(value, (n, answer))
                self.assertIsNone(remoteness)
        return answer

    def play_game(self, game, side):
        """A whole game by clicks; returns the final status."""
        self.new_game(game, side)
        plies = 0
        while True:
            answer = self.check_cells(game)
            if not answer["moves"]:
                return self.status()
            self.assertIn("(your turn)", self.status())
            # Often the best move, sometimes any: varied games.
            move = answer["best_move"] if self.rng.random() < 0.5 else \
                self.rng.choice(answer["moves"])["cell"]
            before = self.position()
            if answer["game"]["gravity"]:
                # Click the top cell of the column: the stone drops.
                self.click_cell(move % answer["game"]["width"])
            else:
                self.click_cell(move)
            self.wait(lambda d: self.position() != before and self.settled())
            plies += 1
            self.assertLess(plies, 40)

    # --- Tests ---------------------------------------------------------------

    def test_load_time(self):
        start = time.perf_counter()
        self.open()
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR,
                                            "#board [data-cell]"))
        ready = time.perf_counter() - start
        timing = self.driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [n.domContentLoadedEventEnd, n.loadEventEnd];")
        print("page: DOMContentLoaded %.0f ms, load %.0f ms, board drawn "
              "(first API answer) %.0f ms after the request" %
              (timing[0], timing[1], ready * 1000), file=sys.stderr)
        self.wait(lambda d: self.status() == "X to move (your turn): draw in 9")

    def test_never_loses_as_x_or_o(self):
        self.open()
        for game, side in [("3x3k3", "X"), ("3x3k3", "O"), ("3x3k3m", "X"),
                           ("3x3k3m", "O")]:
            for _ in range(3):
                final = self.play_game(game, side)
                self.assertTrue(final.startswith("Game over"), final)
                self.assertNotIn("You win", final, (game, side))

    def test_gravity_board(self):
        self.open("?game=4x4k4g")
        # A click high in column 2 drops the stone to the bottom (cell 14).
        self.click_cell(2)
        self.wait(lambda d: self.position() != "..../..../..../...." and
                  self.settled())
        self.assertEqual(self.position()[-2], "X")
        self.check_cells("4x4k4g")
        # A click on a disc plays its column too: the next stone lands on it.
        column = lambda: sum(row[2] != "." for row in self.position().split("/"))
        before, stones = self.position(), column()
        self.click_cell(14)
        self.wait(lambda d: self.position() != before and self.settled())
        self.assertGreater(column(), stones, self.position())
        final = self.play_game("4x4k4g", "O")
        self.assertNotIn("You win", final)

    def test_gravity_discs_and_every_move_listed(self):
        self.open("?game=4x4k4g")
        self.new_game("4x4k4g", "O")  # the computer opens, as X
        self.wait(lambda d: self.position() != "..../..../..../....")
        items = self.driver.find_elements(By.CSS_SELECTOR, "#moves li")
        self.assertEqual(len(items), 1, "the computer's opening move")
        self.assertIn("column", items[0].text)
        # Discs, not letters: round, the first player's red.
        discs = self.driver.find_elements(By.CSS_SELECTOR, "[data-stone]")
        self.assertEqual(len(discs), 1)
        self.assertEqual(discs[0].text, "")
        self.assertEqual(discs[0].value_of_css_property("border-radius"),
                         "50%")
        self.assertEqual(discs[0].value_of_css_property("background-color"),
                         "rgba(214, 40, 40, 1)")
        empty = self.cell(0)
        self.assertEqual(empty.value_of_css_property("border-radius"), "50%")
        # A reply and the computer's answer: three moves listed.
        before = self.position()
        self.click_cell(1)
        self.wait(lambda d: self.position().count("X") == 2 and
                  self.settled())
        items = self.driver.find_elements(By.CSS_SELECTOR, "#moves li")
        self.assertEqual([i.text.split(":")[0] for i in items],
                         ["X column %d" % (before.replace("/", "").index("X")
                                           % 4),
                          "O column 1",
                          items[2].text.split(":")[0]])
        self.assertEqual(len(self.driver.find_elements(
            By.CSS_SELECTOR, '[data-stone="O"]')), 1)
        # Without gravity the stones stay letters.
        self.open("?game=3x3k3&position=" + urllib.parse.quote("X../.O./..."))
        self.assertEqual(self.cell(0).text, "X")

    def test_undo_redo(self):
        self.open("?game=3x3k3")
        self.new_game("3x3k3", "X")
        self.click_cell(4)
        self.wait(lambda d: self.position().count("O") == 1 and self.settled())
        after_one = self.position()
        self.click_cell(0 if after_one[0] == "." else 2)
        self.wait(lambda d: self.position().count("O") == 2 and self.settled())
        after_two = self.position()
        undo = self.driver.find_element(By.ID, "undo")
        redo = self.driver.find_element(By.ID, "redo")
        undo.click()
        self.wait(lambda d: self.position() == after_one)
        self.check_cells("3x3k3")
        undo.click()
        self.wait(lambda d: self.position() == ".../.../...")
        self.assertFalse(undo.is_enabled())
        redo.click()
        self.wait(lambda d: self.position() == after_one)
        # The keyboard: r redoes, u undoes.
        self.driver.find_element(By.TAG_NAME, "body").send_keys("r")
        self.wait(lambda d: self.position() == after_two)
        self.assertFalse(redo.is_enabled())
        self.driver.find_element(By.TAG_NAME, "body").send_keys("u")
        self.wait(lambda d: self.position() == after_one)
        self.assertIn("position=" + urllib.parse.quote(after_one, safe=""),
                      self.driver.current_url.replace("%2F", "%2F"))
        # A move after undo drops the redo line.
        self.click_cell(self.server.position("3x3k3", after_one)["best_move"])
        self.wait(lambda d: self.position().count("O") == 2 and self.settled())
        self.assertFalse(redo.is_enabled())

    def test_keyboard(self):
        self.open("?game=3x3k3")
        self.new_game("3x3k3", "X")
        self.cell(0).send_keys(Keys.ARROW_RIGHT)
        self.assertEqual(self.driver.switch_to.active_element.get_attribute(
            "data-cell"), "1")
        self.driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait(lambda d: self.position()[5] == "X" and self.settled())

    def test_url_opens_and_follows_a_position(self):
        self.open("?game=3x3k3&position=" + urllib.parse.quote("XO./.X./..O"))
        self.assertEqual(self.position(), "XO./.X./..O")
        self.assertEqual(self.message(), "")
        self.assertIn("X to move (your turn): win in", self.status())
        self.check_cells("3x3k3")
        self.click_cell(6)
        self.wait(lambda d: self.position() != "XO./.X./..O" and
                  self.settled())
        self.assertIn(urllib.parse.quote(self.position(), safe=""),
                      self.driver.current_url)

    def test_bad_positions_get_a_message(self):
        self.open("?game=3x3k3&position=XXX/OOO/...")
        self.wait(lambda d: "The position in the URL" in self.message())
        self.assertIn("XXX/OOO/...", self.message())
        self.assertEqual(self.position(), ".../.../...")
        self.open("?game=nope")
        self.wait(lambda d: "The URL names no game 'nope'" in self.message())
        self.open("?game=3x3k3")
        editor = self.driver.find_element(By.ID, "position")
        editor.clear()
        editor.send_keys("XO/..", Keys.ENTER)
        self.wait(lambda d: self.message().startswith("That position"))
        editor.clear()
        editor.send_keys("XO./.../...", Keys.ENTER)
        self.wait(lambda d: self.message() == "" and
                  self.position() == "XO./.../...")

    def test_stones_and_status_agree(self):
        # The computer opens as X: its stone is drawn X, as the position says.
        self.open("?game=3x3k3")
        self.new_game("3x3k3", "O")
        self.wait(lambda d: self.position().count("X") == 1)
        cell = self.position().replace("/", "").index("X")
        self.assertEqual(self.cell(cell).text.split("\n")[0], "X")
        self.assertTrue(self.status().startswith("O to move (your turn)"),
                        self.status())

    def test_game_titles_and_legend(self):
        self.open("?game=4x4k4g")
        options = [o.text for o in Select(self.driver.find_element(
            By.ID, "game")).options]
        self.assertEqual(options, ["Tic-tac-toe", "Mis\u00e8re tic-tac-toe",
                                   "Connect-style 4x4", "Connect Four"])
        legend = self.driver.find_element(By.ID, "legend").text
        for words in ["win", "draw", "loss", "plies to the end",
                      "perfect player's move", "above the columns"]:
            self.assertIn(words, legend)

    def test_gravity_values_above_the_columns(self):
        self.open("?game=4x4k4g")
        answer = self.server.position("4x4k4g", self.position())
        labels = self.driver.find_elements(By.CSS_SELECTOR, ".colvalue")
        self.assertEqual(len(labels), 4)
        by_column = {m["column"]: m for m in answer["moves"]}
        for label in labels:
            move = by_column[int(label.get_attribute("data-col"))]
            self.assertEqual(label.get_attribute("data-value"), move["value"])
            self.assertEqual(label.text, "%s %d" % (move["value"],
                                                    move["remoteness"]))
        # The holes stay white: a value is never drawn like a disc.
        for move in answer["moves"]:
            self.assertEqual(self.cell(move["cell"]).value_of_css_property(
                "background-color"), "rgba(255, 255, 255, 1)")
        # A label plays its column.
        labels[1].click()
        self.wait(lambda d: self.position()[-3] == "X" and self.settled())

    def test_phone_width(self):
        self.driver.set_window_size(390, 844)
        try:
            self.open("?game=7x6k4g")
            width = self.driver.execute_script(
                "return document.documentElement.clientWidth")
            scroll = self.driver.execute_script(
                "return document.documentElement.scrollWidth")
            self.assertLessEqual(scroll, width)
            board = self.driver.find_element(By.ID, "board").rect
            self.assertLessEqual(board["x"] + board["width"], width)
            self.assertLess(board["y"], 844 / 2, board)
            self.assertEqual(len(self.driver.find_elements(
                By.CSS_SELECTOR, "#board [data-cell]")), 42)
        finally:
            self.driver.set_window_size(1100, 1000)

    def test_values_read_without_colour(self):
        # Each legal cell says its value in a letter (W, D, L) beside its
        # remoteness, so that the page reads the same in greyscale; a
        # greyscale screenshot is saved among the outputs (page-grey.png).
        self.open("?game=3x3k3&position=XO./.X./...")
        answer = self.server.position("3x3k3", "XO./.X./...")
        shown = {}
        for move in answer["moves"]:
            rem = self.cell(move["cell"]).find_element(By.CLASS_NAME, "rem")
            shown[move["cell"]] = rem.text
        self.assertEqual(shown, {m["cell"]: m["value"][0].upper() +
                                 str(m["remoteness"])
                                 for m in answer["moves"]})
        self.assertEqual(shown[8], "L4")
        self.driver.execute_script(
            "document.documentElement.style.filter = 'grayscale(1)'")
        out = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR", ".")
        self.assertTrue(self.driver.save_screenshot(
            os.path.join(out, "page-grey.png")))
        self.driver.execute_script(
            "document.documentElement.style.filter = ''")

    def test_cell_numbers_on_request(self):
        self.open("?game=3x3k3&position=XO./.X./...")
        numbers = lambda: [e.text for e in self.driver.find_elements(
            By.CSS_SELECTOR, "#board .num")]
        self.assertEqual(numbers(), [""] * 9)  # hidden by default
        self.driver.find_element(By.ID, "show-cells").click()
        self.wait(lambda d: numbers() == [str(n) for n in range(9)])
        self.assertEqual(self.cell(0).text.split("\n"), ["0", "X"])
        self.driver.find_element(By.ID, "show-cells").click()
        self.wait(lambda d: numbers() == [""] * 9)

    def test_best_line(self):
        self.open("?game=3x3k3&position=XO./.X./...")
        self.driver.find_element(By.ID, "pv-button").click()
        pv = lambda: self.driver.find_element(By.ID, "pv").text
        self.wait(lambda d: pv().endswith("."))
        self.assertEqual(pv(), "O cell 8, X cell 3, O cell 2, X cell 5.")
        # A move clears it.
        self.click_cell(3)
        self.wait(lambda d: self.position() != "XO./.X./..." and
                  self.settled())
        self.assertEqual(pv(), "")

    def tree_level(self, level):
        """The moves of a .level of #tree as /api/tree gives them."""
        return [(int(li.get_attribute("data-cell")),
                 li.get_attribute("data-value"),
                 int(li.get_attribute("data-remoteness")),
                 int(li.get_attribute("data-score")),
                 li.get_attribute("data-best") == "true")
                for li in level.find_elements(By.XPATH, "./ul/li")]

    def api_tree(self, position):
        root = self.server.get_json("/api/tree?" + urllib.parse.urlencode(
            {"game": "3x3k3", "position": position, "depth": 1}))
        return [(c["cell"], c["value"], c["remoteness"], c["score"],
                 c["best"]) for c in root["children"]]

    def test_tree_against_the_api(self):
        position = "XO./XO./..."
        self.open("?game=3x3k3&position=" + position)
        self.driver.find_element(By.ID, "show-tree").click()
        level = self.wait(lambda d: d.find_element(
            By.CSS_SELECTOR, "#tree > .level"))
        self.assertEqual(level.get_attribute("data-position"), position)
        self.assertEqual(self.tree_level(level), self.api_tree(position))
        self.assertIn("X to move (win in 1) keeps the highest score for X",
                      level.text)
        kept = level.find_element(By.CSS_SELECTOR, 'li[data-best="true"]')
        self.assertIn("score +9", kept.text)
        self.assertIn("minimax keeps this", kept.text)
        # Open the draw (cell 7): O's replies, scored for O.
        item = level.find_element(By.CSS_SELECTOR, 'li[data-cell="7"]')
        item.find_element(By.TAG_NAME, "button").click()
        child = self.wait(lambda d: item.find_element(By.CLASS_NAME,
                                                      "level"))
        self.assertEqual(child.get_attribute("data-position"), "XO./XO./.X.")
        self.assertEqual(self.tree_level(child), self.api_tree("XO./XO./.X."))
        self.assertIn("O to move", child.text)
        # Closed again, and it follows the shown position.
        item.find_element(By.TAG_NAME, "button").click()
        self.assertEqual(item.find_elements(By.CLASS_NAME, "level"), [])
        self.click_cell(6)
        self.wait(lambda d: self.status().startswith("Game over"))
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#tree > .level")
                  .text == "The game is over.")
        self.driver.find_element(By.ID, "show-tree").click()

    def chosen(self, game, position, level, seed):
        """The position after the computer's move at `position`, as
        /api/choose gives it; `position` itself once the game is over."""
        if not self.server.position(game, position)["moves"]:
            return position
        return self.server.get_json("/api/choose?" + urllib.parse.urlencode(
            {"game": game, "position": position, "level": level,
             "seed": seed}))["position"]

    def test_levels_play_whole_games(self):
        """Whole games against the computer at levels 1, 5 and 10, a seed
        in the URL: each of its moves is /api/choose's at that level and
        seed, and at level 10 it never loses."""
        results = []
        for game, level, seed in [("3x3k3", 1, 11), ("3x3k3", 5, 12),
                                  ("3x3k3", 10, 13), ("4x4k4g", 1, 14),
                                  ("4x4k4g", 5, 15), ("4x4k4g", 10, 16)]:
            self.open("?game=%s&level=%d&seed=%d" % (game, level, seed))
            self.assertEqual(Select(self.driver.find_element(By.ID, "level"))
                             .first_selected_option.get_attribute("value"),
                             str(level))
            self.new_game(game, "X")
            while True:
                position = self.position()
                answer = self.server.position(game, position)
                if not answer["moves"]:
                    break
                cell = self.rng.choice(answer["moves"])["cell"]
                width = answer["game"]["width"]
                at = cell // width * (width + 1) + cell % width
                played = position[:at] + answer["to_move"] + position[at + 1:]
                want = self.chosen(game, played, level, seed)
                self.click_cell(cell % width if answer["game"]["gravity"]
                                else cell)
                self.wait(lambda d: self.position() not in (position, played)
                          or self.status().startswith("Game over"))
                self.assertEqual(self.position(), want, (game, level, seed))
                self.wait(lambda d: self.settled())
            # The URL keeps the level (but the default 10) and the seed.
            self.assertIn(("level=%d&" % level if level != 10 else "") +
                          "seed=%d" % seed, self.driver.current_url)
            final = self.status()
            results.append(final)
            self.assertTrue(final.startswith("Game over"), final)
            if level == 10:
                self.assertNotIn("You win", final, (game, seed))
        # A bad level or seed in the URL gets a message.
        self.open("?game=3x3k3&level=11&seed=x")
        self.assertEqual(self.message(),
                         "The URL's level '11': expected 1 (random) to 10 "
                         "(perfect) and seed 'x': expected a whole number.")
        print("levels 1, 5, 10 (tic-tac-toe, then 4x4 gravity), the person "
              "at random: %s" % results, file=sys.stderr)

    def test_phone_moves_and_history_in_view(self):
        self.driver.set_window_size(390, 844)
        try:
            self.open("?game=3x3k3")
            self.new_game("3x3k3", "X")
            before = self.position()
            self.click_cell(4)
            self.wait(lambda d: self.position() != before and self.settled())
            height = self.driver.execute_script("return window.innerHeight")
            for selector in ("#moves li", "#history"):
                rect = self.driver.find_element(By.CSS_SELECTOR,
                                                selector).rect
                self.assertLessEqual(rect["y"] + rect["height"], height,
                                     selector)
        finally:
            self.driver.set_window_size(1100, 1000)

    def test_screenshot(self):
        self.open("?game=3x3k3")
        self.new_game("3x3k3", "X")
        for cell in (4, 0):
            before = self.position()
            if before[cell + cell // 3] != ".":
                cell = 2
            self.click_cell(cell)
            self.wait(lambda d: self.position() != before and self.settled())
        out = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR", ".")
        path = os.path.join(out, "page.png")
        self.assertTrue(self.driver.save_screenshot(path))
        self.assertGreater(os.path.getsize(path), 10000)


if __name__ == "__main__":
    unittest.main()
