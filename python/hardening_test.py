"""The Python module under threads, signals and odd values (pytest): many
threads making a game's first answer at once, a table closed while other
threads are inside it, Ctrl-C during a search and a solve, a progress
callback that raises, and the limits and messages every binding shares."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import mnk

C4 = dict(width=7, height=6, k=4, gravity=True)
# Searched in well under a second; one of 12 stones, past the opening
# table, that takes most of a second; and the start of 8x7 Connect Four, a
# search of far longer than any test waits.
LATE = "......./......./...O.../..XX.O./.OOXXX./OXXOOXO"
HARD = "......./......./.X...../.OO..../XOX.O../XXO.X.O"
C8X7 = dict(width=8, height=7, k=4, gravity=True)
LONG = "/".join(["." * 8] * 7)


def run_together(threads, work):
    """Runs work(i) on `threads` threads released at once; their
    exceptions, if any."""
    barrier = threading.Barrier(threads)
    errors = []

    def worker(i):
        barrier.wait()
        try:
            work(i)
        except Exception as e:  # pylint: disable=broad-except
            errors.append(e)

    ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errors


def test_first_answers_of_a_new_game_from_many_threads():
    # 300 rounds of 4 threads, each the first call of a fresh game.
    for _ in range(300):
        g = mnk.Game()
        results = []
        assert run_together(4, lambda i: results.append(
            g.analyse("X.O/X.X/OO."))) == []
        assert [r.best_move for r in results] == [4, 4, 4, 4]
        assert len(set(map(repr, results))) == 1


def test_a_searched_game_opens_once_for_many_threads():
    g = mnk.Game(**C4)
    results = []
    assert run_together(4, lambda i: results.append(g.analyse(LATE))) == []
    assert [r.best_move for r in results] == [16] * 4


def test_close_while_other_threads_probe():
    # 200 rounds: 3 threads inside probe_many / probe / analyse while the
    # fourth closes the table; each call answers right or says "closed".
    positions = ["..../..../..../....", "..../..../..../X...",
                 "..../..../O.../X...", "..../..../.X../.OX."] * 250
    want = [r.best_move for r in mnk.Game(4, 4, 4, gravity=True).table()
            .probe_many(positions[:4])] * 250
    for _ in range(200):
        t = mnk.Game(4, 4, 4, gravity=True).table()

        def work(i, t=t):
            try:
                if i == 0:
                    time.sleep(0.0005)
                    t.close()
                elif i == 1:
                    assert [r.best_move for r in t.probe_many(positions)] == \
                        want
                else:
                    for p in positions[:40]:
                        r = t.probe(p) if i == 2 else t.analyse(p)
                        assert r.best_move == want[positions.index(p)]
            except ValueError as e:
                assert "the table is closed" in str(e)

        assert run_together(4, work) == []


def test_close_during_a_search():
    with mnk.Game(**C8X7).table() as t:
        errors = []

        def search():
            try:
                t.analyse(LONG, max_seconds=0.5)
            except mnk.SearchStopped as e:
                errors.append(e)

        th = threading.Thread(target=search)
        th.start()
        time.sleep(0.1)
    th.join()  # the search kept its source until it stopped
    assert len(errors) == 1 and "took more than 0.5 s" in str(errors[0])
    with pytest.raises(ValueError, match="the table is closed"):
        t.analyse(LONG)


def interrupted(script, after=1.0):
    """Runs `script` (which prints 'started' before its long call) in a
    fresh Python, sends it SIGINT `after` seconds later; its output and the
    seconds from the signal to its end."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    child = subprocess.Popen([sys.executable, "-c", script], env=env,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "started\n"
    time.sleep(after)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    return child.returncode, out, time.monotonic() - sent


def test_ctrl_c_stops_a_search():
    code, out, took = interrupted(f"""
import threading, mnk
g = mnk.Game(7, 6, 4, gravity=True)
g.analyse('{LATE}')
print('started', flush=True)
try:
    mnk.Game(8, 7, 4, gravity=True).analyse('{LONG}')
    print('answered')
except KeyboardInterrupt:
    print('interrupted', threading.active_count())
""")
    assert (code, out) == (0, "interrupted 1\n")
    assert took < 5  # within a second, with room for a loaded machine


def test_ctrl_c_stops_a_solve(tmp_path):
    for progress in ("None", "lambda *a: None"):
        path = tmp_path / "5x4k4.mnk"
        code, out, took = interrupted(f"""
import os, threading, mnk
print('started', flush=True)
try:
    mnk.Game(5, 4, 4).solve('{path}', progress={progress}, threads=2)
    print('solved')
except KeyboardInterrupt:
    print('interrupted', threading.active_count(), os.path.exists('{path}'))
""")
        assert (code, out) == (0, "interrupted 1 False\n"), progress
        assert took < 5


def test_a_progress_callback_that_raises_stops_the_solve(tmp_path):
    path = str(tmp_path / "5x4k4.mnk")
    calls = []

    def progress(phase, layer, done, total):
        calls.append(phase)
        if len(calls) == 2:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="^enough$"):
        mnk.Game(5, 4, 4).solve(path, progress=progress, threads=2)
    assert len(calls) == 2
    assert not os.path.exists(path)


def test_time_limits():
    g = mnk.Game(**C4)
    for seconds in (float("inf"), 1e10, 1e300, sys.float_info.max, 0):
        assert g.analyse(LATE, max_seconds=seconds).best_move == 16
    for seconds in (float("nan"), -1, float("-inf")):
        with pytest.raises(ValueError, match="max_seconds .*: expected a "
                           "number of seconds, 0 or more"):
            g.analyse(HARD, max_seconds=seconds)


def test_node_budgets_and_threads_are_range_checked(tmp_path):
    g = mnk.Game(**C4)
    for nodes in (-1, 2 ** 64, 0.5, "5"):
        with pytest.raises(TypeError):
            g.analyse(HARD, max_nodes=nodes)
    for threads in (-1, 257, 2 ** 31 - 1):
        with pytest.raises(ValueError, match=f"threads {threads}: expected 0 "
                           r"\(one per core\) to 256"):
            mnk.Game().solve(str(tmp_path / "t.mnk"), threads=threads)


def test_search_memory_is_range_checked():
    for memory in (2 ** 40, 2 ** 64 - 1):
        with pytest.raises(ValueError, match="is more than a search's table "
                           "takes: expected at most 64 GiB"):
            mnk.Game(**C4).table(search_memory=memory)
    with pytest.raises(ValueError, match="too little"):
        mnk.Game(**C4).table(search_memory=0)


def test_messages_quote_user_text():
    t = mnk.Game().table()
    with pytest.raises(ValueError) as e:
        t.probe("X" * (1 << 20))
    assert len(str(e.value)) < 400 and "(1048576 bytes)" in str(e.value)
    with pytest.raises(ValueError) as e:
        t.probe("X\x1b[31m\n")
    assert "position 'X\\x1b[31m\\n'" in str(e.value)
    with pytest.raises(ValueError) as e:
        t.probe_many([".........", "\x07" * 5000])
    assert len(str(e.value)) < 1200
    assert all(" " <= c <= "~" for c in str(e.value))


def test_paths_with_nul_bytes_are_refused(tmp_path):
    real = str(tmp_path / "3x3k3.mnk")
    mnk.Game().solve(real)
    assert mnk.open_table(real).probe(".........").value == "draw"
    with pytest.raises(ValueError, match="has a NUL byte"):
        mnk.open_table(real + "\0junk")
    with pytest.raises(ValueError, match="has a NUL byte"):
        mnk.Game().table(real + "\0junk")
    with pytest.raises(ValueError, match="has a NUL byte"):
        mnk.Game().solve(real + "\0junk")


def test_out_of_memory_says_how_much(tmp_path):
    # A solve under an address-space limit: MemoryError with its size.
    code = subprocess.run([sys.executable, "-c", f"""
import resource, mnk
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
try:
    mnk.Game(5, 4, 4).solve('{tmp_path}/t.mnk', threads=1, layout='full')
except MemoryError as e:
    print(e)
"""], env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
                          capture_output=True, text=True)
    assert code.returncode == 0, code.stderr
    assert code.stdout.startswith(
        "solving 5,4,4 ran out of memory: it needs about "), code.stdout


def test_results_compare_by_value():
    t = mnk.Game().table()
    a, b = t.probe("X.O/X.X/OO."), mnk.Game().analyse("X.O/X.X/OO.")
    assert a == b and a is not b
    assert a.moves[0] == b.moves[0]
    assert a != t.probe(".........")
    assert a != "X.O/X.X/OO."
