#!/usr/bin/env bash
# bazel run //install:npm, //install:site and //install:mpi copy their
# files into the folder given (made if missing), programs executable, the
# others not; more than one folder is refused.
set -u
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"
version=$(sed -n 's/.*kVersion\[\] = "\(.*\)";/\1/p' \
  "$TEST_SRCDIR/mnk/base/version/version.h")
for t in npm site mpi; do
  out=$("$TEST_SRCDIR/mnk/install/$t" "$TMP/$t/new" 2>&1)
  expect_eq "$t exit" 0 $?
  expect_contains "$t" "installed the " "$out"
done
expect_eq "npm tarball" "mnk-$version.tgz" "$(ls "$TMP/npm/new")"
expect_eq "site" "7x6k4g-opening.mnk app.js index.html mnk.mjs mnk_core.mjs mnk_core.wasm mnk_player.mjs mnk_worker.mjs style.css" \
  "$(ls "$TMP/site/new" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "site file mode" 644 "$(stat -c %a "$TMP/site/new/index.html")"
expect_eq "mpi program mode" 755 "$(stat -c %a "$TMP/mpi/new/solve_mpi")"
"$TEST_SRCDIR/mnk/install/npm" "$TMP/a" "$TMP/b" > "$TMP/two" 2>&1
expect_eq "two folders exit" 1 $?
expect_contains "two folders" "expected at most one folder" "$(cat "$TMP/two")"
finish copy_install
