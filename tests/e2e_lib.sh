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
