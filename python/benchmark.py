"""What the Python module costs over the C++ core, same run, medians:

  bazel run //install -- /tmp/mnk && python3 -m venv /tmp/venv
  /tmp/venv/bin/pip install --no-index --find-links /tmp/mnk/share/mnk/python mnk
  MNK_PLAY=/tmp/mnk/bin/play /tmp/venv/bin/python python/benchmark.py

1. One `probe` call against the same positions answered inside one
   `probe_many` call (the core's own cost, results built in C++): the
   difference is what a call from Python adds.
2. `probe_many` over 100,000 positions against `play --batch --json` over
   the same (a whole process, through pipes), both on Connect-style 4x4's
   built-in table (161,029 positions).
"""

import os
import random
import statistics
import subprocess
import sys
import time

# The installed package, not its sources beside this script.
sys.path.remove(os.path.dirname(os.path.abspath(__file__)))
import mnk  # noqa: E402

PLAY = os.environ.get("MNK_PLAY", "play")


def random_positions(count, seed=1):
    """Positions in play of 4x4 with gravity, from random games cut at
    random plies."""
    rng = random.Random(seed)
    t = mnk.Game(4, 4, 4, gravity=True).table()
    out = []
    while len(out) < count:
        position = "..../..../..../...."
        for _ in range(rng.randrange(0, 16)):
            r = t.probe(position)
            if r.best_move is None:
                break
            cell = rng.choice(r.moves).cell
            row, column = divmod(cell, 4)
            i = row * 5 + column  # with the '/' of each row before it
            position = position[:i] + r.to_move + position[i + 1:]
        if t.probe(position).best_move is not None:
            out.append(position)
    return out


def median_of(runs, measure):
    return statistics.median(measure() for _ in range(runs))


def main():
    positions = random_positions(100_000)
    t = mnk.Game(4, 4, 4, gravity=True).table()

    def one_call_each():
        start = time.perf_counter()
        for p in positions[:20_000]:
            t.probe(p)
        return (time.perf_counter() - start) / 20_000

    def inside_one_call():
        start = time.perf_counter()
        t.probe_many(positions[:20_000])
        return (time.perf_counter() - start) / 20_000

    probe = median_of(9, one_call_each)
    core = median_of(9, inside_one_call)
    print("probe(), one call a position:  %.2f us" % (probe * 1e6))
    print("probe_many(), a position:      %.2f us" % (core * 1e6))
    print("a call from Python adds:       %.2f us" % ((probe - core) * 1e6))

    def many():
        start = time.perf_counter()
        t.probe_many(positions)
        return time.perf_counter() - start

    text = "\n".join(positions) + "\n"

    def batch():
        start = time.perf_counter()
        subprocess.run([PLAY, "--batch", "--json", "--width=4", "--height=4",
                        "--k=4", "--gravity"], input=text,
                       capture_output=True, text=True, check=True)
        return time.perf_counter() - start

    many_s = median_of(9, many)
    batch_s = median_of(9, batch)
    print("probe_many(100,000):           %.3f s" % many_s)
    print("play --batch --json (100,000): %.3f s" % batch_s)
    print("ratio:                         %.2fx" % (many_s / batch_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
