"""The Python module `mnk` (pytest): answers equal `play`'s, every error's
exception and message, a table solved from Python and opened again, the
search's limits, threads sharing one table, and the objects' reprs."""

import json
import os
import subprocess
import sys
import threading

import pytest

import mnk

PLAY = os.path.join(os.environ["TEST_SRCDIR"], "mnk", "player", "play")
TMP = os.environ.get("TEST_TMPDIR", "/tmp")


def play_answers(flags, positions):
    """play --batch --json's answers, one a position."""
    out = subprocess.run([PLAY, "--batch", "--json"] + flags,
                         input="\n".join(positions) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def as_play(result):
    """A Result in the terms of play's JSON (value, remoteness, moves)."""
    return {
        "position": result.position,
        "to_move": result.to_move,
        "value": result.value,
        "remoteness": result.remoteness,
        "best_move": result.best_move,
        "moves": [{"cell": m.cell, "value": m.value,
                   "remoteness": m.remoteness} for m in result.moves],
    }


def all_tictactoe_positions():
    """Every position of tic-tac-toe reached from the empty board."""
    seen, todo = set(), ["........."]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        board = list(p)
        lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7),
                 (2, 5, 8), (0, 4, 8), (2, 4, 6)]
        if any(board[a] != "." and board[a] == board[b] == board[c]
               for a, b, c in lines):
            continue
        mover = "X" if board.count("X") == board.count("O") else "O"
        for i, c in enumerate(board):
            if c == ".":
                todo.append(p[:i] + mover + p[i + 1:])
    return sorted(seen)



def test_the_version_is_plays():
    out = subprocess.run([PLAY, "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out == f"play {mnk.__version__}\n"

def test_every_tictactoe_position_as_play_answers_it():
    positions = all_tictactoe_positions()
    assert len(positions) == 5478
    with mnk.Game().table() as t:
        results = t.probe_many(positions)
        assert [as_play(t.probe(p)) for p in positions[:50]] == \
            [as_play(r) for r in results[:50]]
    expected = play_answers([], positions)
    for got, want in zip(results, expected):
        mine = as_play(got)
        assert mine["value"] == want["value"], got.position
        assert mine["remoteness"] == want["remoteness"], got.position
        assert mine["best_move"] == want["best_move"], got.position
        assert mine["moves"] == [{k: m[k] for k in ("cell", "value",
                                                    "remoteness")}
                                 for m in want["moves"]], got.position


def test_result_objects():
    t = mnk.Game(3, 3, 3).table()
    r = t.probe("X.O/X.X/OO.")
    assert (r.to_move, r.value, r.remoteness, r.best_move) == ("X", "win", 1,
                                                               4)
    assert [(m.cell, m.column, m.value, m.remoteness) for m in r.moves] == \
        [(1, 1, "loss", 2), (4, 1, "win", 1), (8, 2, "loss", 2)]
    assert repr(r) == ("Result(position='X.O/X.X/OO.', to_move='X', "
                       "value='win', remoteness=1, best_move=4, moves=3)")
    assert repr(r.moves[1]) == "Move(cell=4, value='win', remoteness=1)"
    over = t.probe("XXX/OO./...")
    assert (over.value, over.remoteness, over.best_move, over.moves) == \
        ("loss", 0, None, [])
    assert repr(t) == "<mnk.Table 3,3,3: full table, 5478 positions, built-in>"
    assert repr(mnk.Game(4, 4, 4, gravity=True)) == \
        "mnk.Game(width=4, height=4, k=4, gravity=True, misere=False)"
    g = mnk.Game(width=5, height=4, k=4, gravity=True)
    assert (g.width, g.height, g.k, g.gravity, g.misere) == (5, 4, 4, True,
                                                             False)
    t.close()
    assert repr(t) == "<mnk.Table closed>"
    with pytest.raises(ValueError, match="the table is closed"):
        t.probe(".........")


def test_the_package_and_its_terminal_game():
    assert mnk.Table.__module__ == "mnk" and mnk.Result.__module__ == "mnk"
    assert mnk.__file__.endswith(os.path.join("site-packages", "mnk",
                                              "__init__.py"))
    with mnk.Game().table() as t:
        with pytest.raises(ValueError, match="mark 'Z': expected X or O"):
            t.play_in_terminal(mark="Z")
    # The game in the terminal, from a process of its own: the person (X)
    # takes 4, then the lowest free cells; the table wins.
    game = subprocess.run([sys.executable, "-m", "mnk"],
                          input="4\n0\n1\n2\n3\n5\n6\n7\n8\nn\n",
                          capture_output=True, text=True, check=True,
                          cwd=TMP).stdout
    assert "I play cell 0 (" in game and "I win." in game
    bad = subprocess.run([sys.executable, "-m", "mnk", "--width", "9",
                          "--height", "9", "--k", "5"],
                         capture_output=True, text=True, cwd=TMP)
    assert bad.returncode == 2
    assert bad.stderr == ("python -m mnk: board 9x9 has too many cells: at "
                          "most 64\n")


def test_errors():
    t = mnk.Game().table()
    with pytest.raises(ValueError, match="position 'XXXX': position has 4"):
        t.probe("XXXX")
    with pytest.raises(ValueError, match="position 1 'bad'"):
        t.probe_many([".........", "bad"])
    with pytest.raises(ValueError, match="k"):
        mnk.Game(3, 3, 0)
    with pytest.raises(mnk.MissingTableError,
                       match=r"no built-in table for 4,4,4 misère: mnk\.Game\(4, 4, 4, "
                       r"misere=True\)\.solve\(FILE\) makes one \(`solve --width=4 "
                       r"--height=4 --k=4 --misere --estimate` says what it takes\), "
                       r"and mnk\.open_table\(FILE\) opens it$"):
        mnk.Game(4, 4, 4, misere=True).table()
    with pytest.raises(mnk.MissingTableError):
        mnk.open_table("/nonexistent/t.mnk")
    with pytest.raises(ValueError, match="path is empty"):
        mnk.open_table("")
    with pytest.raises(mnk.WrongGameError, match="directory"):
        mnk.open_table(TMP)
    junk = os.path.join(TMP, "junk.mnk")
    with open(junk, "w") as f:
        f.write("x" * 100)
    with pytest.raises(mnk.DamagedTableError, match="not a table file"):
        mnk.open_table(junk)
    assert issubclass(mnk.MissingTableError, mnk.TableError)
    assert issubclass(mnk.DamagedTableError, mnk.TableError)
    assert issubclass(mnk.WrongGameError, mnk.TableError)
    with pytest.raises(ValueError, match="too little"):
        mnk.Game(7, 6, 4, gravity=True).table(search_memory=1024)


def test_solve_then_open(tmp_path):
    path = str(tmp_path / "4x4k3.mnk")
    seen = []
    mnk.Game(4, 4, 3).solve(path, progress=lambda *a: seen.append(a),
                            threads=2)
    assert seen and seen[-1][2] == seen[-1][3]  # done == total at the end
    with mnk.open_table(path) as t:
        r = t.probe("..../..../..../....")
        assert (r.value, r.remoteness, r.best_move) == ("win", 5, 5)
    with mnk.Game(4, 4, 3).table(path) as t:
        assert t.probe("X.../..../..../....").to_move == "O"
    with pytest.raises(mnk.WrongGameError, match="not for the game asked"):
        mnk.Game(4, 4, 4).table(path)
    with pytest.raises(ValueError, match="path is empty"):
        mnk.Game().solve("")
    with pytest.raises(MemoryError, match="solving 7,6,4 needs"):
        mnk.Game(7, 6, 4).solve(str(tmp_path / "no.mnk"))



def test_solve_writes_every_layout_and_estimates(tmp_path):
    g = mnk.Game(4, 4, 4, gravity=True)
    e = g.estimate()
    assert (e["layout"], e["remoteness"], e["indices"]) == ("full", True,
                                                           201755)
    assert e["refusal"] is None and e["memory"] <= e["max_memory"]
    assert e["seconds"][0] <= e["seconds"][1]
    refused = mnk.Game(4, 4, 4).estimate(memory=1 << 20)
    assert "needs 4.84 MiB; the limit is 1.00 MiB" in refused["refusal"]
    path = str(tmp_path / "4x4.mnk")
    done = g.solve(path, layout="compressed", remoteness=False,
                   work_dir=str(tmp_path / "work"), tier_indices=4096)
    assert (done["layout"], done["start_value"]) == ("compressed", "draw")
    with mnk.open_table(path) as t:
        r = t.probe("..../..../..../....")
        assert (r.value, r.remoteness) == ("draw", None)
    with pytest.raises(ValueError, match="full tables always keep remoteness"):
        g.estimate(layout="full", remoteness=False)
    with pytest.raises(ValueError, match="layout 'tiny': expected auto"):
        g.solve(path, layout="tiny")
    with pytest.raises(MemoryError, match="needs 4.84 MiB"):
        mnk.Game(4, 4, 4).solve(path, memory=1 << 20)

# Past the opening table (12 stones): most of a second of search.
HARD = "......./......./.X...../.OO..../XOX.O../XXO.X.O"


def test_connect_four_search_and_limits():
    with mnk.Game(7, 6, 4, gravity=True).table(search_memory=64 << 20) as c4:
        start = c4.probe("." * 42)  # from the book
        assert (start.value, start.remoteness, start.best_move) == ("win",
                                                                    41, 38)
        late = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO"
        want = play_answers(["--width=7", "--height=6", "--k=4",
                             "--gravity"], [late])[0]
        got = as_play(c4.probe(late))
        for key in ("value", "remoteness", "best_move"):
            assert got[key] == want[key]
        assert got["moves"] == [{k: m[k] for k in ("cell", "value",
                                                   "remoteness")}
                                for m in want["moves"]]
        # Asking for less: the value, remoteness and best move alone.
        off_book = "......./......./......./...O.../.OXXO.O/XXOXO.X"
        best, full = c4.analyse(off_book, best_only=True), c4.probe(off_book)
        assert (best.value, best.remoteness, best.best_move) == (
            full.value, full.remoteness, full.best_move)
        assert (len(best.moves), len(full.moves)) == (0, 7)
        with pytest.raises(mnk.SearchStopped, match="1000 positions"):
            c4.analyse(HARD, max_nodes=1000)
        with pytest.raises(mnk.SearchStopped, match="took more than 0.2 s"):
            c4.analyse(HARD, max_seconds=0.2)
        with pytest.raises(ValueError):
            c4.analyse(HARD, max_seconds=-1)


def test_game_analyse_keeps_its_own_source():
    g = mnk.Game(7, 6, 4, gravity=True)
    late = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO"
    assert g.analyse(late).best_move == 16
    with pytest.raises(mnk.SearchStopped, match="500 positions"):
        g.analyse(HARD, max_nodes=500)
    assert mnk.Game().analyse("X.O/X.X/OO.").best_move == 4


def test_threads_share_a_table():
    t = mnk.Game(4, 4, 4, gravity=True).table()
    positions = ["..../..../..../....", "..../..../..../X...",
                 "..../..../O.../X...", "..../..../.X../.OX."]
    want = [repr(r) + repr(r.moves) for r in t.probe_many(positions)]
    wrong = []

    def worker():
        for _ in range(200):
            got = [repr(r) + repr(r.moves) for r in t.probe_many(positions)]
            if got != want:
                wrong.append(got)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert wrong == []
