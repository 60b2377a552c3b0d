#!/usr/bin/env bash
# docs/api.md's complete example, compiled as the page says (gcc -std=c99
# against libmnk.so) and run: its output must be the one the page shows.
set -u
cd "$TEST_SRCDIR/mnk"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
# The first ```c block and the ```text block after it.
awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on' docs/api.md > "$TMP/example.c"
awk '/^```text$/ {on = 1; next} on && /^```$/ {exit} on' docs/api.md > "$TMP/expected"
[ -s "$TMP/example.c" ] && [ -s "$TMP/expected" ] || { echo "FAIL: no example"; exit 1; }
lib="$(dirname "$(readlink -f api/libmnk.so)")"
gcc -std=c99 -Wall -Werror -I. "$TMP/example.c" -L"$lib" -lmnk -o "$TMP/example" || exit 1
LD_LIBRARY_PATH="$lib" "$TMP/example" > "$TMP/got" || { echo "FAIL: exit $?"; exit 1; }
if ! cmp -s "$TMP/got" "$TMP/expected"; then
  echo "FAIL: the example printed:"; cat "$TMP/got"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "1 passed, 0 failed"
