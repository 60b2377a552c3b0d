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
