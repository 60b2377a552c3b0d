#!/usr/bin/env python3
"""Measures the project's figures and writes them into docs/figures.md.

  python3 docs/figures.py                   # every area; minutes
  python3 docs/figures.py --areas=solves    # one area (solves, tables,
                                            # python, web, connect)
  python3 docs/figures.py --long            # also 6x5 gravity (8 GB)
  python3 docs/figures.py --dry-run         # print the tables, write nothing

It builds the tools, runs the project's own benchmarks and tools (whole
processes timed here, Google Benchmark's medians), and rewrites each table
of docs/figures.md between its markers (<!-- figures: AREA --> and
<!-- end figures -->): a row a figure, with the command that measures it,
the machine and the commit. A row it did not measure this time (another
area, --long, or one that needs a program from outside the project) is
kept as it was, with its own machine and commit.

Run it on a quiet machine: every figure is a median of several runs, and
where two programs are compared they run alternately in the same run.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES_MD = os.path.join(ROOT, "docs", "figures.md")
TARGETS = [
    "//solver:solve", "//solver:naive_dfs", "//verify:verify", "//player:play",
    "//bench:table_benchmark", "//player:play_benchmark",
    "//install", "//search:connect_benchmark",
    "//player:games_benchmark", "//bench:connect_goals",
]


def bin_path(target):
    """bazel-bin/solver/solve for //solver:solve."""
    package, name = target[2:].split(":")
    return os.path.join("bazel-bin", package, name)


def machine():
    """"2 cores, 23 GiB, Debian GNU/Linux 12 (bookworm)"."""
    with open("/proc/meminfo") as f:
        kib = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
    system = "Linux"
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            m = re.search(r'PRETTY_NAME="([^"]*)"', f.read())
            system = m.group(1) if m else system
    return "%d cores, %d GiB, %s" % (os.cpu_count(), round(kib / 2**20),
                                     system)


def commit():
    """The short commit, with "+" when the work tree differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "*.cc",
                            "*.h", "BUILD", "*/BUILD"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return head + ("+" if dirty else "")


def run_timed(command, env=None):
    """Runs `command` (a shell line) and returns (seconds, peak bytes,
    standard output): the wall time and the child's peak resident memory."""
    start = time.perf_counter()
    p = subprocess.Popen(command, shell=True, cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read().decode()
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("figures: `%s` failed (exit %d)" % (command, p.returncode))
    return seconds, usage.ru_maxrss * 1024, out


def median_runs(commands, runs):
    """Each command `runs` times, alternating: their median seconds and
    median peak bytes, in the order given."""
    times = [[] for _ in commands]
    peaks = [[] for _ in commands]
    for _ in range(runs):
        for i, command in enumerate(commands):
            seconds, peak, _ = run_timed(command)
            times[i].append(seconds)
            peaks[i].append(peak)
    return [(statistics.median(t), statistics.median(p))
            for t, p in zip(times, peaks)]


def benchmark_medians(binary, pattern, env=None):
    """Google Benchmark's median real time of each benchmark matching
    `pattern`, in nanoseconds, by name."""
    out = subprocess.run(
        [binary, "--benchmark_filter=" + pattern, "--benchmark_repetitions=9",
         "--benchmark_report_aggregates_only", "--benchmark_format=json"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
    return {b["run_name"].replace("/real_time", ""):
            b["real_time"] * scale[b["time_unit"]]
            for b in json.loads(out)["benchmarks"]
            if b.get("aggregate_name") == "median"}


def seconds_text(s):
    return "%.2f s" % s if s < 100 else "%.0f s" % s


def gb_text(b):
    return "%.2f GB" % (b / 1e9) if b >= 1e9 else "%.0f MB" % (b / 1e6)


def ns_text(ns):
    if ns >= 1e9:
        return "%.2f s" % (ns / 1e9)
    if ns >= 1e6:
        return "%.1f ms" % (ns / 1e6)
    return "%.2f µs" % (ns / 1e3) if ns >= 1e3 else "%.1f ns" % ns


def printed_seconds_text(text):
    """A time a benchmark printed in seconds with 4 decimals: "< 0.1 ms"
    for 0.0000."""
    seconds = float(text)
    return "< 0.1 ms" if seconds == 0 else ns_text(seconds * 1e9)


def solves(args, scratch):
    """Whole solves, two threads, medians of 5 (3 for 5,4,4)."""
    solve, naive = bin_path("//solver:solve"), bin_path("//solver:naive_dfs")
    rows = []
    naive_cmd = naive + " --width=4 --height=4 --k=4"
    solve_cmd = solve + " --width=4 --height=4 --k=4 --quiet --threads=2"
    (n, _), (s, _) = median_runs([naive_cmd, solve_cmd], 5)
    rows.append(("4,4,4, `naive_dfs`", seconds_text(n), naive_cmd))
    rows.append(("4,4,4, `solve`, against `naive_dfs`",
                 "%s (%.1fx)" % (seconds_text(s), n / s), solve_cmd))
    table = os.path.join(scratch, "5x4k4.mnk")
    cmd = solve + " --width=5 --height=4 --k=4 --quiet --threads=2 --out=" + table
    [(s, peak)] = median_runs([cmd], 3)
    rows.append(("5,4,4, compressed, with writing",
                 "%s, peak %s" % (seconds_text(s), gb_text(peak)),
                 cmd.replace(table, "T.mnk")))
    verify = bin_path("//verify:verify") + " --quiet --threads=2 --table=" + table
    [(s, peak)] = median_runs([verify], 3)
    rows.append(("5,4,4, `verify` of that table",
                 "%s, peak %s" % (seconds_text(s), gb_text(peak)),
                 verify.replace(table, "T.mnk")))
    rows.append(("5,4,4, compressed table size",
                 gb_text(os.path.getsize(table)), "ls -l T.mnk"))
    for w, h in ((4, 5), (5, 5), (6, 4)):
        cmd = "%s --width=%d --height=%d --k=4 --gravity --quiet --threads=2" % (
            solve, w, h)
        [(s, peak)] = median_runs([cmd], 5)
        rows.append(("%dx%d gravity" % (w, h),
                     "%s, peak %s" % (seconds_text(s), gb_text(peak)), cmd))
    if args.long:
        cmd = solve + " --width=6 --height=5 --k=4 --gravity --quiet --threads=2"
        [(s, peak)] = median_runs([cmd], 3)
        rows.append(("6x5 gravity, in memory",
                     "%s, peak %s" % (seconds_text(s), gb_text(peak)), cmd))
    return rows


def tables(args, scratch):
    """Probes (Google Benchmark medians of 9) and answers through `play`."""
    bench = bin_path("//bench:table_benchmark")
    rows = []
    m = benchmark_medians(bench, "BM_Probe$|BM_ValueOf$")
    cmd = bench + " --benchmark_filter='BM_Probe$|BM_ValueOf$'"
    rows.append(("tic-tac-toe, full table: value, remoteness and best move "
                 "(`BM_Probe`) / value (`BM_ValueOf`)",
                 "%s / %s" % (ns_text(m["BM_Probe"]), ns_text(m["BM_ValueOf"])),
                 cmd))
    table = os.path.join(scratch, "5x4k4.mnk")
    if not os.path.exists(table):
        subprocess.run([bin_path("//solver:solve"), "--width=5", "--height=4",
                        "--k=4", "--quiet", "--out=" + table], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ, MNK_TABLE=table)
    m = benchmark_medians(bench, "BM_Probe$|BM_ValueOf$", env)
    rows.append(("5,4,4, compressed table: value, remoteness and best move / "
                 "value", "%s / %s" % (ns_text(m["BM_Probe"]),
                                        ns_text(m["BM_ValueOf"])),
                 "MNK_TABLE=T.mnk " + bench +
                 " --benchmark_filter='BM_Probe$|BM_ValueOf$'"))
    play = bin_path("//player:play_benchmark")
    m = benchmark_medians(play, "BM_Play")
    rows.append(("one answer, whole process: `play --position` on "
                 "tic-tac-toe", ns_text(m["BM_PlayPosition"]),
                 play + " --benchmark_filter=BM_PlayPosition"))
    rows.append(("`play --batch`, the 4,520 tic-tac-toe positions not over, "
                 "through pipes", ns_text(m["BM_PlayBatch"]),
                 play + " --benchmark_filter=BM_PlayBatch"))
    return rows


def python(args, scratch):
    """The Python package, its wheel installed in a venv of Debian's
    python3, against the core and against `play --batch`."""
    prefix, venv = os.path.join(scratch, "prefix"), os.path.join(scratch, "venv")
    subprocess.run(["bazel", "run", "//install", "--", prefix], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["/usr/bin/python3", "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q",
                    "--no-index", "--find-links",
                    os.path.join(prefix, "share", "mnk", "python"), "mnk"],
                   check=True)
    cmd = "MNK_PLAY=PREFIX/bin/play VENV/bin/python python/benchmark.py"
    _, _, out = run_timed(cmd.replace("PREFIX", prefix).replace("VENV", venv))
    value = {k: v.replace(" us", " µs")
             for k, v in re.findall(r"^(.*?):\s+(\S+ ?\S*)$", out, re.M)}
    return [
        ("one `probe` call from Python 3.11, its wheel in a venv (4x4 "
         "gravity)",
         value["probe(), one call a position"], cmd),
        ("a position inside one `probe_many` call",
         value["probe_many(), a position"], cmd),
        ("`probe_many` over 100,000 positions / `play --batch --json` over "
         "the same", "%s / %s (%s)" % (value["probe_many(100,000)"],
                                      value["play --batch --json (100,000)"],
                                      value["ratio"]), cmd),
    ]


def connect(args, scratch):
    """Connect Four 7x6: the search on positions of random games (one
    thread, 50 a ply), whole games as `play` plays them, and both again as
    users meet them, a whole `play` process an answer (connect_goals)."""
    bench = bin_path("//search:connect_benchmark")
    cmd = bench + " --plies=8,10,12,14 --positions=50 --table_bits=22 --threads=1"
    _, _, out = run_timed(cmd)
    rows = []
    for ply, median, p90, top in re.findall(
            r"ply +(\d+): \d+ positions, median (\S+) s, p90 (\S+) s, "
            r"max (\S+) s", out):
        rows.append(("7x6, %s stones, one thread: median / p90 / max" % ply,
                     "%s / %s / %s" % tuple(printed_seconds_text(x)
                                            for x in (median, p90, top)),
                     cmd))
    games = bin_path("//player:games_benchmark")
    cmd = games + " --games=100"
    _, _, out = run_timed(cmd)
    for what, p50, p99, top in re.findall(
            r"^(.*?): \d+ moves .*?p50 (\S+) s, p99 (\S+) s, max (\S+) s",
            out, re.M):
        rows.append(("7x6 games, the perfect player's moves (%s): p50 / p99 "
                     "/ max" % what,
                     "%s / %s / %s" % tuple(printed_seconds_text(x)
                                            for x in (p50, p99, top)),
                     cmd))
    goals = bin_path("//bench:connect_goals")
    cmd = goals + " --games=100"
    _, _, out = run_timed(cmd)
    m = re.search(r"games against a random opponent: .*?(\d+) moves of the "
                  r"perfect player, .*?p50 (\S+) ms, p99 (\S+) ms, max (\S+) "
                  r"ms", out)
    if m is None:
        sys.exit("figures: no games line in connect_goals' output")
    rows.append(("7x6 games against a random opponent (50 a side), each of "
                 "the perfect player's moves a whole `play` process: moves; "
                 "p50 / p99 / max",
                 "%s; %s ms / %s ms / %s ms" % m.groups(), cmd))
    for ply, threads, median, p90 in re.findall(
            r"ply +(\d+), (\d+) thread\(s\), \d+ positions: play median "
            r"(\S+) s, p90 (\S+) s", out):
        rows.append(("7x6, %s stones, every move's value, a whole `play` "
                     "process, %s thread(s): median / p90" % (ply, threads),
                     "%s / %s" % tuple(printed_seconds_text(x)
                                       for x in (median, p90)),
                     cmd))
    cmd = goals + " --games=0 --plies= --random_positions=1000"
    _, _, out = run_timed(cmd)
    for label, pattern in [
            ("7x6, 1,000 positions of random games (0 to 30 stones), every "
             "move's value, a whole `play` process each: p50 / p99 / max",
             r"^\d+ positions of random games .*?p50 (\S+) ms, p99 (\S+) "
             r"ms, max (\S+) ms"),
            ("of them, those with fewer than 11 stones (the opening "
             "table's): p50 / p99 / max",
             r"of them with fewer than 11 stones .*?p50 (\S+) ms, p99 (\S+) "
             r"ms, max (\S+) ms"),
            ("of them, those with 11 stones or more: p50 / p99 / max",
             r"of them with 11 stones or more: p50 (\S+) ms, p99 (\S+) ms, "
             r"max (\S+) ms"),
            ("the same 1,000 in WebAssembly under node, the opening table "
             "loaded: p50 / p99 / max",
             r"^the same positions in WebAssembly .*?p50 (\S+) ms, p99 (\S+) "
             r"ms, max (\S+) ms")]:
        m = re.search(pattern, out, re.M)
        if m is None:
            sys.exit("figures: no line for %r in connect_goals' output" %
                     label)
        rows.append((label, "%s ms / %s ms / %s ms" % m.groups(), cmd))
    return rows


def web(args, scratch):
    """The web server, as its tests measure it: three runs, the median of
    each figure."""
    cmd = ("bazel test //tests:web_api_test //tests:web_hardening_test "
           "//tests:web_browser_test //tests:web_load_test --test_output=all "
           "--cache_test_results=no")
    figures = {
        "API latency, one client, 500 requests in a row: p50 / p99":
            (r"one client: 500 requests, latency p50 (\S+) ms, p99 (\S+) ms",
             "%.3f ms / %.3f ms"),
        "API under load, 2,000 requests from 32 clients: requests a second; "
        "latency p50 / p99":
            (r"load: \d+ requests from \d+ clients .*?: (\S+) requests/s, "
             r"latency p50 (\S+) ms, p99 (\S+) ms", "%.0f; %.1f ms / %.1f ms"),
        "200 connections trickling a byte now and then: the slowest of 30 "
        "other answers":
            (r"the slowest of 30 other answers took (\S+) ms", "%.1f ms"),
        "30 clients asking off-book 7x6 positions for 8 s: the slowest table "
        "answer; searched requests answered / refused (503)":
            (r"load: \d+ table/book/list answers, all 200: True, slowest "
             r"(\S+) s; \d+ searched requests: (\d+) answered .*?, (\d+) "
             r"refused", "%.3f s; %.0f / %.0f"),
        "page in headless Chromium: DOMContentLoaded / load / board drawn":
            (r"page: DOMContentLoaded (\S+) ms, load (\S+) ms, board drawn "
             r"\(first API answer\) (\S+) ms", "%.0f / %.0f / %.0f ms"),
    }
    runs = [run_timed(cmd + " 2>&1")[2] for _ in range(3)]
    rows = []
    for label, (pattern, form) in figures.items():
        found = [re.search(pattern, out) for out in runs]
        if not all(found):
            sys.exit("figures: no line for %r in the tests' output" % label)
        numbers = zip(*[[float(x) for x in m.groups()] for m in found])
        rows.append((label, form % tuple(statistics.median(n)
                                         for n in numbers), cmd))
    return rows


AREAS = {"solves": solves, "tables": tables, "python": python, "web": web,
         "connect": connect}


def cell(text):
    """A table cell's text: a '|' inside it escaped (GitHub's tables)."""
    return text.replace("|", "\\|")


def shown(command):
    """A command as the docs show it: a built binary run directly
    (bazel-bin/solver/solve) as `bazel run //solver:solve --`, the same
    program, which a reader runs from a checkout."""
    return re.sub(r"bazel-bin/([\w/]+)/(\w+)", r"bazel run //\1:\2 --",
                  command)


def table_text(rows):
    lines = ["| figure | value | command | machine | commit |",
             "|---|---|---|---|---|"]
    for label, value, command, where, commit_id in rows:
        lines.append("| %s | %s | `%s` | %s | %s |" % (
            cell(label), cell(value), cell(shown(command)), where, commit_id))
    return "\n".join(lines)


def merge(old_table, rows):
    """The rows of the table already in figures.md, each replaced by the
    new row of its figure, and new figures appended."""
    kept = []
    for line in old_table.splitlines():
        cells = [c.strip().replace("\\|", "|")
                 for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 5 and cells[0] not in ("figure", "---"):
            kept.append((cells[0], cells[1], cells[2].strip("`"), cells[3],
                         cells[4]))
    new = {r[0]: r for r in rows}
    merged = [new.pop(r[0], r) for r in kept]
    return merged + [r for r in rows if r[0] in new]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--areas", default=",".join(AREAS))
    parser.add_argument("--long", action="store_true")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    areas = args.areas.split(",")
    for area in areas:
        if area not in AREAS:
            sys.exit("figures: no area %r: expected %s" % (area,
                                                           ", ".join(AREAS)))
    subprocess.run(["bazel", "build", "-c", "opt"] + TARGETS, cwd=ROOT,
                   check=True)
    where = (machine(), commit())
    with open(FIGURES_MD) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as scratch:
        for area in areas:
            rows = [r + where for r in AREAS[area](args, scratch)]
            pattern = re.compile(r"(<!-- figures: %s -->\n)(.*?)(\n<!-- end "
                                 r"figures -->)" % area, re.S)
            m = pattern.search(text)
            if m is None:
                sys.exit("figures: docs/figures.md has no table for %s" % area)
            table = table_text(merge(m.group(2), rows))
            print(table + "\n")
            text = text[:m.start(2)] + table + text[m.end(2):]
    if not args.dry_run:
        with open(FIGURES_MD, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
