"""Connect Four 7x6 as its users meet it, each answer a whole `play` process.

Prints four figures:
  1. whole games against a random opponent from the empty board (half of
     them as X, half as O): each of the perfect player's moves is one
     `play --position=P --json` process (the built-in book, then the search
     with play's defaults), timed from start to exit: p50, p99, max;
  2. positions drawn from random games (connect_benchmark --list) at the
     given plies: every move's value and remoteness by one `play` process a
     position (its defaults but --threads: 1, then 2): median, p90, total;
  3. with --c4=DIR (a checkout of github.com/ChristopheSteininger/c4), the
     search alone on the same positions, ours (connect_benchmark --stdin)
     and c4's (bench/c4_driver.cc, built against the checkout), each inside
     its own process with the same threads and a 64 MiB table emptied
     before each position, the two taking turns position by position: the
     totals, c4's over ours, and the median of the positions' ratios. Every
     column's value and remoteness from c4 must agree with play's;
  4. with --random_positions=N (1000 for the goals), N positions as people
     reach them: each drawn from a random game stopped after a number of
     stones uniform from 0 to 30 (a finished game drawn again), the same
     every run for the same --seed; every move's value and remoteness by
     one `play` process a position (its defaults): p50, p99, max, and the
     slowest position, then the same of those with fewer than 11 stones
     (answered from the opening table) and of the others; then the same
     positions through the WebAssembly module under node
     (wasm/wasm_benchmark.mjs: one game after the opening table, its search
     kept from position to position, as a page keeps it once it has
     fetched the table): p50, p99, max.

  bazel run //bench:connect_goals -- [--games=100] [--plies=8,10,12,14]
      [--positions=50] [--threads=1,2] [--c4=DIR] [--random_positions=0]
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

GAME = ["--width=7", "--height=6", "--k=4", "--gravity"]
FRONTIER = 11  # the opening table's deepest layer (data/README.md)
WIDTH, HEIGHT = 7, 6
C4_TABLE_ENTRIES = 8388617  # a prime; 8 bytes an entry: 64 MiB


def percentile(values, q):
    """The q-quantile as the C++ benchmarks take it (no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def answer(play, position, flags=()):
    """(seconds, play's JSON answer) of one `play --position` process."""
    start = time.perf_counter()
    done = subprocess.run(
        [play, *GAME, f"--position={position}", "--json", *flags],
        capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"connect_goals: play failed on {position}: {done.stderr}")
    return seconds, json.loads(done.stdout)


def place(position, cell, mark):
    """The position string with `mark` at `cell` (rows from the top)."""
    index = cell // WIDTH * (WIDTH + 1) + cell % WIDTH
    return position[:index] + mark + position[index + 1:]


def random_position(rng):
    """A position of a random game stopped after 0 to 30 stones (uniform),
    the game still going on there."""
    while True:
        heights, rows = [0] * WIDTH, [["."] * WIDTH for _ in range(HEIGHT)]
        stones = rng.randint(0, 30)
        for i in range(stones):
            col = rng.choice([c for c in range(WIDTH) if heights[c] < HEIGHT])
            rows[HEIGHT - 1 - heights[col]][col] = "XO"[i % 2]
            heights[col] += 1
            if won(rows, HEIGHT - 1 - (heights[col] - 1), col):
                break
        else:
            return "/".join("".join(r) for r in rows), stones


def won(rows, row, col):
    """Whether the stone at (row, col) completes four in a row."""
    mark = rows[row][col]
    for dr, dc in [(0, 1), (1, 0), (1, 1), (1, -1)]:
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < HEIGHT and 0 <= c < WIDTH and rows[r][c] == mark:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        if run >= 4:
            return True
    return False


def time_random_positions(args, work):
    """Prints play's and the WebAssembly module's times on positions of
    random games."""
    rng = random.Random(args.seed)
    drawn = [random_position(rng) for _ in range(args.random_positions)]
    seconds = [(answer(args.play, p)[0], p, n) for p, n in drawn]
    times = [t for t, _, _ in seconds]
    slowest = max(seconds)
    print(f"{len(drawn)} positions of random games (0 to 30 stones), every "
          f"move's value, each a play process: p50 "
          f"{1e3 * percentile(times, 0.5):.1f} ms, p99 "
          f"{1e3 * percentile(times, 0.99):.1f} ms, max "
          f"{1e3 * slowest[0]:.1f} ms ({slowest[1]}, {slowest[2]} stones)",
          flush=True)
    for name, part in [
            (f"fewer than {FRONTIER} stones (the opening table's)",
             [t for t, _, n in seconds if n < FRONTIER]),
            (f"{FRONTIER} stones or more",
             [t for t, _, n in seconds if n >= FRONTIER])]:
        if part:
            print(f"  {len(part)} of them with {name}: p50 "
                  f"{1e3 * percentile(part, 0.5):.1f} ms, p99 "
                  f"{1e3 * percentile(part, 0.99):.1f} ms, max "
                  f"{1e3 * max(part):.1f} ms", flush=True)
    listing = os.path.join(work, "random_positions")
    with open(listing, "w") as f:
        f.writelines(p + "\n" for p, _ in drawn)
    # The runfiles are links: the module is found beside the links.
    out = subprocess.run(["node", "--preserve-symlinks",
                          "--preserve-symlinks-main",
                          "wasm/wasm_benchmark.mjs", listing,
                          str(16 << 20), "data/7x6k4g-opening.mnk"],
                         capture_output=True, text=True, check=True).stdout
    wasm = [float(s) for s in out.split()]
    print(f"the same positions in WebAssembly under node (one game after the "
          f"opening table, as the page once it has fetched it, 16 MiB): "
          f"p50 {1e3 * percentile(wasm, 0.5):.1f} ms, p99 "
          f"{1e3 * percentile(wasm, 0.99):.1f} ms, max "
          f"{1e3 * max(wasm):.1f} ms", flush=True)


def play_games(play, games, seed):
    """Times the perfect player's moves in `games` games; prints them."""
    rng = random.Random(seed)
    times = []  # (seconds, stones before the move)
    for game in range(games):
        perfect = "XO"[game % 2]
        position = "/".join(["." * WIDTH] * HEIGHT)
        stones = 0
        while True:
            seconds, a = answer(play, position)
            if not a["moves"]:
                break
            if a["to_move"] == perfect:
                times.append((seconds, stones))
                cell = a["best_move"]
            else:
                cell = rng.choice(a["moves"])["cell"]
            position = place(position, cell, a["to_move"])
            stones += 1
    seconds = [t for t, _ in times]
    slowest = max(times)
    print(f"games against a random opponent: {games} ({(games + 1) // 2} as "
          f"X, {games // 2} as O), {len(times)} moves of the perfect player, "
          f"each a play process: p50 {1e3 * percentile(seconds, 0.5):.1f} ms, "
          f"p99 {1e3 * percentile(seconds, 0.99):.1f} ms, max "
          f"{1e3 * slowest[0]:.1f} ms (after {slowest[1]} stones)",
          flush=True)


def build_c4(checkout, threads, work):
    """c4_driver built against `checkout` with `threads` threads."""
    src = os.path.join(work, f"c4-{threads}")
    shutil.copytree(os.path.join(checkout, "src"), src)
    settings = os.path.join(src, "solver", "settings.h")
    with open(settings) as f:
        text = f.read()
    for name, value in [("BOARD_WIDTH", WIDTH), ("BOARD_HEIGHT", HEIGHT),
                        ("NUM_THREADS", threads),
                        ("NUM_TABLE_ENTRIES", C4_TABLE_ENTRIES)]:
        text, n = re.subn(rf"({name} = )\d+;", rf"\g<1>{value};", text)
        if n != 1:
            sys.exit(f"connect_goals: {settings} sets no {name}: expected "
                     "c4's settings.h")
    with open(settings, "w") as f:
        f.write(text)
    driver = os.path.join(work, f"c4_driver-{threads}")
    sources = [os.path.join(root, name)
               for root, _, names in os.walk(os.path.join(src, "solver"))
               for name in names if name.endswith(".cpp")]
    try:
        subprocess.run(["g++", "-std=c++20", "-O3", "-flto", "-DNDEBUG",
                        "-march=x86-64-v2", "-pthread", f"-I{src}", "-o",
                        driver, os.path.join("bench", "c4_driver.cc"),
                        *sources], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"connect_goals: cannot build c4 from {checkout}: {e}")
    return driver


def outcome(score, stones):
    """(value, remoteness) of a move of c4's `score` (for the side that
    makes it) from a position of `stones` stones: a win or loss ends with
    the stone numbered m, where score = 1 + (cells - m) // 2, m of the
    winner's parity."""
    if score == 0:
        return "draw", WIDTH * HEIGHT - stones
    m = WIDTH * HEIGHT + 2 - 2 * abs(score)
    winner_parity = (stones + 1) % 2 if score > 0 else stones % 2
    if m % 2 != winner_parity:
        m -= 1
    return "win" if score > 0 else "loss", m - stones


def c4_outcomes(line):
    """Each column's (value, remoteness) from a line of c4_driver."""
    fields = line.split()
    return {c: outcome(int(s), len(fields[0]))
            for c, s in enumerate(fields[1:WIDTH + 1]) if s != "."}


def summary(seconds):
    return (f"median {percentile(seconds, 0.5):.4f} s, p90 "
            f"{percentile(seconds, 0.9):.4f} s, total {sum(seconds):.2f} s")


def turns(args, threads, driver, sequences, answers):
    """Our search's and c4's seconds on each position, inside their own
    processes (each with `threads` threads and a 64 MiB table emptied
    before each position), taking turns position by position, so that
    whatever else the machine does falls on both alike. Ours is
    connect_benchmark --stdin --every_move; every column's value and
    remoteness from c4 must agree with play's."""
    ours = subprocess.Popen(
        [args.benchmark, "--stdin", "--every_move", "--table_bits=22",
         f"--threads={threads}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    theirs = subprocess.Popen([driver], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)

    def ask(process, sequence):
        process.stdin.write(sequence + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            sys.exit(f"connect_goals: {process.args[0]} ended at {sequence}")
        return line

    seconds = ([], [])
    for i, (sequence, answer) in enumerate(zip(sequences, answers)):
        # Each goes first on every other position.
        for process in (ours, theirs) if i % 2 == 0 else (theirs, ours):
            line = ask(process, sequence)
            if process is theirs and c4_outcomes(line) != answer:
                sys.exit(f"connect_goals: {sequence}: c4's outcomes "
                         f"{c4_outcomes(line)}, play's {answer}")
            # "... 0.0123 s" from ours, "... 0.0123" from c4's.
            fields = line.split()
            seconds[process is theirs].append(
                float(fields[-1] if process is theirs else fields[-2]))
    for process in (ours, theirs):
        process.stdin.close()
        process.wait()
    return seconds


def time_positions(args, work):
    """Prints play's times on each ply's positions (and, with c4, both
    searches' inside their processes)."""
    drivers = {t: build_c4(args.c4, t, work) for t in args.threads} \
        if args.c4 else {}
    for ply in args.plies:
        listing = [args.benchmark, "--list", f"--plies={ply}",
                   f"--positions={args.positions}", f"--seed={ply}"]
        boards = subprocess.run(listing, capture_output=True, text=True,
                                check=True).stdout.split()
        sequences = subprocess.run(listing + ["--sequences"],
                                   capture_output=True, text=True,
                                   check=True).stdout.split()
        for threads in args.threads:
            seconds, answers = [], []
            for board in boards:
                s, a = answer(args.play, board, [f"--threads={threads}"])
                seconds.append(s)
                answers.append({m["column"]: (m["value"], m["remoteness"])
                                for m in a["moves"]})
            line = (f"ply {ply:2d}, {threads} thread(s), {len(boards)} "
                    f"positions: play {summary(seconds)}")
            if threads in drivers:
                ours, theirs = turns(args, threads, drivers[threads],
                                     sequences, answers)
                # (A position ours solves in under 0.1 ms counts 0 s.)
                ratios = [t / o for o, t in zip(ours, theirs) if o > 0]
                line += (f" | in one process each, taking turns, 64 MiB: ours "
                         f"{sum(ours):.2f} s, c4 {sum(theirs):.2f} s, c4/ours "
                         f"{sum(theirs) / sum(ours):.2f} (median of the "
                         f"positions' {percentile(ratios, 0.5):.2f})")
            print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", default="8,10,12,14")
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--c4", help="a checkout of Steininger's c4")
    parser.add_argument("--random_positions", type=int, default=0)
    args = parser.parse_args()
    try:
        args.plies = [int(p) for p in args.plies.split(",") if p]
        args.threads = [int(t) for t in args.threads.split(",") if t]
    except ValueError:
        parser.error("--plies and --threads take numbers: 8,10 or 1,2")
    if args.c4:
        # Relative to where `bazel run` was called.
        args.c4 = os.path.join(os.environ.get("BUILD_WORKING_DIRECTORY", ""),
                               args.c4)
        if not os.path.isdir(os.path.join(args.c4, "src", "solver")):
            parser.error(f"--c4={args.c4}: expected a checkout of c4 (with "
                         "src/solver)")
    args.play = os.path.abspath("player/play")
    args.benchmark = os.path.abspath("search/connect_benchmark")
    print("Connect Four 7x6, whole play processes", flush=True)
    if args.games > 0:
        play_games(args.play, args.games, args.seed)
    with tempfile.TemporaryDirectory() as work:
        time_positions(args, work)
        if args.random_positions > 0:
            time_random_positions(args, work)


if __name__ == "__main__":
    main()
