# Helpers shared by the end-to-end shell tests: source it, check, then
# `finish NAME` (exit 1 naming the count when a check failed).
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect_eq NAME EXPECTED ACTUAL
expect_eq() { [ "$2" == "$3" ] || fail "$1: expected [$2], got [$3]"; }
# expect_contains NAME NEEDLE HAYSTACK
expect_contains() {
  case "$3" in *"$2"*) ;; *) fail "$1: [$2] not in: [$3]" ;; esac
}
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all $1 checks passed"
}

# Open MPI for the tests that run mpirun: CI runs as root; its session files
# go to the test's own folder ($1); under AddressSanitizer, MPI's own
# allocations at exit are not this project's leaks.
use_mpi() {
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export TMPDIR="$1" OMPI_MCA_btl=self,vader OMPI_MCA_plm=isolated
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

# The project installed into $1 (bazel run //install) for programs built
# outside Bazel, and $version, the version it says. Skips the test (exit 0)
# in a sanitizer build, whose libmnk.so needs a runtime such a program does
# not load.
install_for_outside_builds() {
  if grep -qa __asan_init "$TEST_SRCDIR/mnk/api/libmnk.so"; then
    echo "note: sanitizer build; the install is not used from outside"
    exit 0
  fi
  "$TEST_SRCDIR/mnk/install/install" "$1" > "$TMP/install.out"
  expect_eq "install exit" 0 $?
  version=$(sed -n 's/.*kVersion\[\] = "\(.*\)";/\1/p' \
    "$TEST_SRCDIR/mnk/base/version/version.h")
}

# run_killed FIRST_S MAX_MS OUT ERR CMD...: CMD killed with SIGKILL after
# FIRST_S seconds ("" for random), then after 10 to MAX_MS ms, each time run
# again with --resume, until it ends by itself (at most 40 kills; a busy
# machine gets a last uninterrupted run). Sets `kills` and `status`.
run_killed() {
  local first=$1 max=$2 out=$3 err=$4 resume="" pid
  shift 4
  kills=0 status=1
  for attempt in $(seq 1 40); do
    "$@" $resume > "$out" 2> "$err" &
    pid=$!
    if [ "$attempt" -eq 1 ] && [ -n "$first" ]; then sleep "$first"; else
      sleep "$(printf '0.%03d' $((RANDOM % (max - 10) + 10)))"; fi
    if kill -KILL "$pid" 2> /dev/null; then
      kills=$((kills + 1))
      wait "$pid" 2> /dev/null
    else
      wait "$pid"
      status=$?
      return
    fi
    resume=--resume
  done
  "$@" $resume > "$out" 2> "$err"
  status=$?
}

# The boards the tests of solves in tiers solve, free and gravity, every
# layout, misère; their tables are numbered 1 to 5 in this order
# (plain1.mnk ...).
tier_games=("--k=3"
            "--width=4 --height=4 --k=3 --misere"
            "--width=4 --height=4 --k=3 --gravity --layout=compact"
            "--width=5 --height=4 --k=4 --gravity --layout=compressed"
            "--width=4 --height=4 --k=4 --layout=compressed --remoteness=no")
