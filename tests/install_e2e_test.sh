#!/usr/bin/env bash
# The installed tools (bazel run //install) work from any folder with
# nothing beside them: play answers from its built-in tables and Connect
# Four's book at once, serve serves its page, solve and verify work.
set -u
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"
out=$("$TEST_SRCDIR/mnk/install/install" "$TMP/prefix")
expect_eq "install exit" 0 $?
expect_contains "install" "installed play, serve, sample, solve, verify and book in $TMP/prefix/bin" "$out"
for tool in play serve sample solve verify book; do
  [ -x "$TMP/prefix/bin/$tool" ] || fail "$tool not installed"
done
# Elsewhere, with no runfiles and no data folder.
mkdir -p "$TMP/elsewhere" && cd "$TMP/elsewhere"
unset RUNFILES_DIR RUNFILES_MANIFEST_FILE TEST_SRCDIR
bin="$TMP/prefix/bin"
out=$(timeout 10 "$bin/play" --position=X.O/X.X/OO.)
expect_eq "installed play exit" 0 $?
expect_contains "installed play" "win in 1" "$out"
out=$(timeout 10 "$bin/play" --misere --position=.........)
expect_contains "installed play misère" "draw in 9" "$out"
# Connect Four's empty board comes from the book at once (searching it takes
# minutes).
out=$(timeout 10 "$bin/play" --width=7 --height=6 --k=4 --gravity \
  --position=......./......./......./......./......./....... --json)
expect_eq "installed play, Connect Four exit" 0 $?
expect_contains "installed play, Connect Four" '"value":"win","remoteness":41,"best_move":38' "$out"
"$bin/solve" --width=4 --height=3 --k=3 --quiet --out=t.mnk > /dev/null
expect_eq "installed solve exit" 0 $?
"$bin/verify" --table=t.mnk --quiet > /dev/null
expect_eq "installed verify exit" 0 $?
"$bin/serve" --port=0 > serve.out 2> serve.err &
serve=$!
for _ in $(seq 100); do [ -s serve.out ] && break; sleep 0.1; done
url=$(awk '{print $NF}' serve.out)
page=$(/usr/bin/python3 -c "import urllib.request,sys; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())" "$url")
expect_contains "installed serve page" "<html" "$page"
kill -TERM $serve
wait $serve
expect_eq "installed serve exit" 0 $?
finish install_e2e
