#!/usr/bin/env bash
# End to end: what an adversarial pass found (hardening round 2), one check
# per class: special files as targets and tables, memory and thread limits,
# write errors on standard output, the value section in verify, huge
# non-tables, signals during a write, and the smaller ones.
set -u
SOLVE="$TEST_SRCDIR/mnk/solver/solve"
PLAY="$TEST_SRCDIR/mnk/player/play"
VERIFY="$TEST_SRCDIR/mnk/verify/verify"
BENCH="$TEST_SRCDIR/mnk/search/connect_benchmark"
TABLE="$TEST_SRCDIR/mnk/data/3x3k3.mnk"
TMP="$(mktemp -d "${TEST_TMPDIR:-/tmp}/hardening.XXXXXX")"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# --- 1. solve --out never replaces what is not a regular file.
mkfifo "$TMP/fifo"
"$SOLVE" --quiet --out="$TMP/fifo" > /dev/null 2> "$TMP/err"
expect_eq "fifo target exit" 3 $?
expect_contains "fifo target" "is a FIFO, not a regular file: refusing to replace it" "$(cat "$TMP/err")"
[ -p "$TMP/fifo" ] || fail "fifo target: the FIFO was replaced"
echo keep > "$TMP/kept"
ln -s "$TMP/kept" "$TMP/link"
"$SOLVE" --quiet --out="$TMP/link" > /dev/null 2> "$TMP/err"
expect_eq "symlink target exit" 3 $?
[ -L "$TMP/link" ] && [ "$(cat "$TMP/kept")" == keep ] || fail "symlink target touched"
if mknod "$TMP/null" c 1 3 2> /dev/null; then
  "$SOLVE" --quiet --out="$TMP/null" > /dev/null 2> "$TMP/err"
  expect_eq "device target exit" 3 $?
  expect_contains "device target" "is a character device" "$(cat "$TMP/err")"
  [ -c "$TMP/null" ] || fail "device target: the device node was replaced"
else
  echo "note: mknod not permitted here; the device target case is skipped"
fi
# An existing table keeps its mode; a new one honours the umask.
"$SOLVE" --quiet --out="$TMP/mode.mnk" > /dev/null
chmod 600 "$TMP/mode.mnk"
"$SOLVE" --quiet --out="$TMP/mode.mnk" > /dev/null
expect_eq "mode kept" 600 "$(stat -c %a "$TMP/mode.mnk")"
(umask 027 && "$SOLVE" --quiet --out="$TMP/umask.mnk" > /dev/null)
expect_eq "umask honoured" 640 "$(stat -c %a "$TMP/umask.mnk")"

# --- 2. No uncaught exception: memory and thread limits are messages.
"$SOLVE" --threads=100000 --quiet > /dev/null 2> "$TMP/err"
expect_eq "solve threads exit" 1 $?
expect_contains "solve threads" "--threads=100000: expected 0 (one per core) to 256" "$(cat "$TMP/err")"
"$VERIFY" --table="$TABLE" --threads=100000 > /dev/null 2> "$TMP/err"
expect_eq "verify threads exit" 1 $?
# (Not under AddressSanitizer: its shadow memory cannot start under a
# small address-space limit.)
if grep -qa AddressSanitizer "$SOLVE"; then
  echo "note: sanitizer build; the memory-limit cases are skipped"
else
  (ulimit -v 20000 && exec "$SOLVE" --width=4 --height=4 --k=4 --quiet) > /dev/null 2> "$TMP/err"
  expect_eq "solve memory exit" 4 $?
  expect_contains "solve memory" "solve: solving 4,4,4 ran out of memory: it needs about" "$(cat "$TMP/err")"
  "$SOLVE" --width=4 --height=4 --k=4 --quiet --out="$TMP/444.mnk" > /dev/null
  # (The table is mapped: 20 MB of address space is too little for its 23.)
  (ulimit -v 20000 && exec "$PLAY" --table="$TMP/444.mnk" --position=................) > /dev/null 2> "$TMP/err"
  expect_eq "play memory exit" 4 $?
  expect_contains "play memory" "not enough memory to map" "$(cat "$TMP/err")"
fi

# --- 3. Write errors on standard output end the program (exit 6).
"$PLAY" --position=......... > /dev/full 2> "$TMP/err"
expect_eq "play /dev/full exit" 6 $?
expect_contains "play /dev/full" "cannot write to standard output: No space left on device" "$(cat "$TMP/err")"
"$SOLVE" --quiet > /dev/full 2> /dev/null
expect_eq "solve /dev/full exit" 6 $?
"$VERIFY" --table="$TABLE" --quiet > /dev/full 2> /dev/null
expect_eq "verify /dev/full exit" 6 $?
yes X........ | head -n 100000 | "$PLAY" --batch > /dev/full 2> /dev/null
expect_eq "batch /dev/full exit" 6 $?
# SIGPIPE ignored by the caller: the batch still ends when the reader goes.
status=$( (trap '' PIPE; yes X........ | timeout 20 "$PLAY" --batch 2> /dev/null | head -n 1 > /dev/null; echo "${PIPESTATUS[1]}") )
expect_eq "batch closed pipe exit" 6 "$status"

# --- 4. verify checks the 2-bit value section too.
cp "$TABLE" "$TMP/values.mnk"
/usr/bin/python3 - "$TMP/values.mnk" << 'PY'
import sys, zlib
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
values = (6046 + 3) // 4
for i in range(64, 64 + values):
    data[i] ^= 0x55          # every value changed, the records not
# Every checksum made again: the pages' (table.h), then the file's.
end = 64 + values + 2 * 6046
for page in range((end + 4095) // 4096):
    crc = zlib.crc32(bytes(data[4096 * page:min(4096 * (page + 1), end)]))
    data[end + 4 * page:end + 4 * page + 4] = crc.to_bytes(4, "little")
data[-4:] = zlib.crc32(bytes(data[:-4])).to_bytes(4, "little")
open(path, "wb").write(data)
PY
out=$("$VERIFY" --table="$TMP/values.mnk" --quiet)
expect_eq "value section exit" 5 $?
expect_contains "value section" "the value section says" "$out"

# --- 5. A huge non-table is refused from its header, in milliseconds.
truncate -s 2G "$TMP/big"
start=$(now_ms)
"$PLAY" --table="$TMP/big" --position=......... 2> "$TMP/err"
expect_eq "big exit" 3 $?
elapsed=$(($(now_ms) - start))
[ "$elapsed" -lt 2000 ] || fail "big: refused after $elapsed ms"
expect_contains "big" "is not a table file" "$(cat "$TMP/err")"
/usr/bin/time -f %M -o "$TMP/rss" "$VERIFY" --table="$TMP/big" > /dev/null 2>&1
rss=$(tail -n 1 "$TMP/rss")
[ "$rss" -lt 100000 ] || fail "big: verify used $rss KB"

# --- 6. FIFOs and devices as tables: refused at once, saying so.
timeout 10 "$PLAY" --table="$TMP/fifo" --position=......... 2> "$TMP/err"
expect_eq "fifo table exit" 3 $?
expect_contains "fifo table" "is a FIFO, not a regular file: expected a table file" "$(cat "$TMP/err")"
"$VERIFY" --table=/dev/null 2> "$TMP/err" > /dev/null
expect_eq "device table exit" 3 $?
expect_contains "device table" "/dev/null is a character device, not a regular file" "$(cat "$TMP/err")"
"$PLAY" --table=/proc/self/status --position=......... 2> "$TMP/err"
expect_eq "proc table exit" 3 $?
expect_contains "proc table" "is not a table file: it starts with" "$(cat "$TMP/err")"

# --- 7. Signals during a write leave no temporary file.
(ulimit -f 100 && exec "$SOLVE" --width=4 --height=4 --k=3 --quiet --out="$TMP/limit.mnk") > /dev/null 2> "$TMP/err"
expect_eq "file size limit exit" 3 $?
expect_contains "file size limit" "File too large" "$(cat "$TMP/err")"
hits=0
for i in 1 2 3 4 5 6; do
  "$SOLVE" --width=4 --height=4 --k=4 --quiet --out="$TMP/term.mnk" > /dev/null 2>&1 &
  pid=$!
  while kill -0 "$pid" 2> /dev/null && ! ls "$TMP" | grep -q '^term.mnk.tmp-'; do sleep 0.002; done
  ls "$TMP" | grep -q '^term.mnk.tmp-' && hits=$((hits + 1))
  kill -TERM "$pid" 2> /dev/null
  wait "$pid"
done
expect_eq "SIGTERM temp files" 0 "$(ls "$TMP" | grep -c '\.tmp-')"
echo "SIGTERM landed during the write $hits times of 6"
# What SIGKILL leaves (an unlocked PATH.tmp-XXXXXX) is removed by the next
# solve to PATH; a temporary file locked by a live writer is not.
printf 'partial' > "$TMP/kill.mnk.tmp-AbC123"
flock "$TMP/kill.mnk.tmp-Live99" sleep 30 &
locker=$!
while ! [ -e "$TMP/kill.mnk.tmp-Live99" ]; do sleep 0.01; done
sleep 0.2
"$SOLVE" --quiet --out="$TMP/kill.mnk" > /dev/null
[ -e "$TMP/kill.mnk.tmp-AbC123" ] && fail "a stale temporary file was kept"
[ -e "$TMP/kill.mnk.tmp-Live99" ] || fail "a live writer's temporary file was removed"
kill "$locker" 2> /dev/null
wait "$locker" 2> /dev/null

# --- 8. The smaller ones.
"$PLAY" --position='' < /dev/null 2> "$TMP/err"
expect_eq "empty position exit" 2 $?
"$PLAY" --width= --position=......... 2> "$TMP/err"
expect_eq "empty width exit" 1 $?
expect_contains "empty width" "--width= is empty: expected a number" "$(cat "$TMP/err")"
start=$(now_ms)
"$SOLVE" --width=5 --height=4 --k=4 --quiet --out=/nonexistent/x.mnk > /dev/null 2> "$TMP/err"
expect_eq "out checked first exit" 3 $?
elapsed=$(($(now_ms) - start))
[ "$elapsed" -lt 2000 ] || fail "out checked first: after $elapsed ms"
long=$(printf 'a%.0s' $(seq 1 250))
"$SOLVE" --quiet --out="$TMP/$long" > /dev/null 2> "$TMP/err"
expect_eq "250-byte name exit" 0 $?
"$PLAY" --position="$(printf 'X\001%.0s' $(seq 1 50000))" 2> "$TMP/err"
expect_eq "control bytes exit" 2 $?
[ "$(wc -c < "$TMP/err")" -lt 2000 ] || fail "control bytes: $(wc -c < "$TMP/err") bytes of message"
expect_contains "control bytes" 'X\x01X\x01' "$(cat "$TMP/err")"
expect_contains "control bytes cut" "(100000 bytes)" "$(cat "$TMP/err")"
mkdir "$TMP/dir"
"$SOLVE" --quiet --out="$TMP/dir/" > /dev/null 2> "$TMP/err"
expect_eq "out dir/ exit" 3 $?
expect_contains "out dir/" "names a directory: expected a file name for the table" "$(cat "$TMP/err")"
"$SOLVE" --k=9 --quiet 2> "$TMP/err"
case "$(cat "$TMP/err")" in *INVALID_ARGUMENT*|*UNAVAILABLE*) fail "Abseil code name in: $(cat "$TMP/err")" ;; esac
"$PLAY" --batch < "$TMP/dir" > /dev/null 2> "$TMP/err"
expect_eq "batch from a directory exit" 1 $?
expect_contains "batch from a directory" "standard input is a directory" "$(cat "$TMP/err")"

# --- Round 3: a damaged page met by a batch. A table over 1 MiB is checked
# page by page; the empty board's record (index 0 of the details section,
# after the header and the values, V = ceil(E / 4) bytes) is damaged: its
# line is an error line, the others are answered, and the exit status is 3.
"$SOLVE" --quiet --width=5 --height=4 --k=4 --gravity --layout=full \
  --out="$TMP/big.mnk" > /dev/null
entries=$(od -An -t u8 -j 24 -N 8 "$TMP/big.mnk" | tr -d ' ')
details=$((64 + (entries + 3) / 4))
printf '\xff' | dd of="$TMP/big.mnk" bs=1 seek=$((details + 1)) conv=notrunc 2> /dev/null
printf '...../...../...../.....\n...../...../OXOXO/XOXOX\n' \
  | "$PLAY" --table="$TMP/big.mnk" --batch > "$TMP/out" 2> "$TMP/err"
expect_eq "damaged batch exit" 3 $?
expect_eq "damaged batch lines" 2 "$(wc -l < "$TMP/out")"
expect_contains "damaged batch error line" "error: " "$(head -1 "$TMP/out")"
expect_contains "damaged batch error line" "is corrupt: page" "$(head -1 "$TMP/out")"
expect_contains "damaged batch answers the rest" "value=" "$(tail -1 "$TMP/out")"
expect_contains "damaged batch message" "fails its checksum" "$(cat "$TMP/err")"
"$PLAY" --table="$TMP/big.mnk" --position=...../...../...../..... > /dev/null 2> "$TMP/err"
expect_eq "damaged position exit" 3 $?

# A table overwritten in place while a batch uses it: the batch stops with
# a message (exit 3) instead of answering from the new bytes.
cp "$TABLE" "$TMP/live.mnk" && chmod u+w "$TMP/live.mnk"
mkfifo "$TMP/in"
"$PLAY" --table="$TMP/live.mnk" --batch < "$TMP/in" > "$TMP/out" 2> "$TMP/err" &
player=$!
exec 7> "$TMP/in"
echo "X.O/X.X/OO." >&7
for _ in $(seq 50); do [ -s "$TMP/out" ] && break; sleep 0.1; done
dd if="$TEST_SRCDIR/mnk/data/3x3k3m.mnk" of="$TMP/live.mnk" conv=notrunc 2> /dev/null
echo "X.O/X.X/OO." >&7
exec 7>&-
wait $player
expect_eq "changed table exit" 3 $?
expect_eq "changed table answers" 1 "$(wc -l < "$TMP/out")"
expect_contains "changed table first answer" "value=win" "$(cat "$TMP/out")"
expect_contains "changed table message" "was changed while in use" "$(cat "$TMP/err")"
# mv over the path is no change: the open table stays the one answering.
cp "$TABLE" "$TMP/moved.mnk" && chmod u+w "$TMP/moved.mnk"
rm -f "$TMP/in" && mkfifo "$TMP/in"
"$PLAY" --table="$TMP/moved.mnk" --batch < "$TMP/in" > "$TMP/out" 2> "$TMP/err" &
player=$!
exec 7> "$TMP/in"
echo "X.O/X.X/OO." >&7
for _ in $(seq 50); do [ -s "$TMP/out" ] && break; sleep 0.1; done
cp "$TEST_SRCDIR/mnk/data/3x3k3m.mnk" "$TMP/other.mnk"
mv "$TMP/other.mnk" "$TMP/moved.mnk"
echo "X.O/X.X/OO." >&7
exec 7>&-
wait $player
expect_eq "moved table exit" 0 $?
expect_eq "moved table answers" 2 "$(grep -c 'value=win' "$TMP/out")"

# --- connect_benchmark's counts and plies: a usage error naming the flag,
# never an exception, a crash or random games drawn forever.
while read -r flags message; do
  "$BENCH" $flags > /dev/null 2> "$TMP/err"
  expect_eq "connect_benchmark $flags exit" 1 $?
  expect_contains "connect_benchmark $flags" "$message" "$(cat "$TMP/err")"
done << 'FLAGS'
--plies=eight --plies: 'eight' is not a ply: expected 0 to 41 (stones on the board)
--plies=42 --plies: '42' is not a ply: expected 0 to 41
--plies=-1 --plies: '-1' is not a ply
--positions=-1 --positions=-1: expected 0 or more positions per ply
--games=-2 --games=-2: expected 0 or more games
--from_ply=42 --from_ply=42: expected 0 to 41
--game_answers=fast --game_answers: 'fast' is not best_move or every_move
FLAGS
# On 2x2 with k = 1 the first stone ends every game.
"$BENCH" --width=2 --height=2 --k=1 --gravity --plies=1 --list > /dev/null 2> "$TMP/err"
expect_eq "connect_benchmark unreachable ply exit" 1 $?
expect_contains "connect_benchmark unreachable ply" "--plies: 10,000 random games of 2,2,1 gravity all ended before ply 1" "$(cat "$TMP/err")"
out=$("$BENCH" --positions=0 --table_bits=10 --threads=1 2> "$TMP/err")
expect_eq "connect_benchmark no positions exit" 0 $?
expect_eq "connect_benchmark no positions" "7,6,4 gravity, table 2^10 entries, 1 thread(s)" "$out"
out=$("$BENCH" --list --plies=0,2 --positions=1 --sequences --seed=3)
expect_eq "connect_benchmark --list lines" 2 "$(echo "$out" | wc -l)"
expect_eq "connect_benchmark --list empty board" "" "$(echo "$out" | head -1)"
expect_eq "connect_benchmark --list two stones" 2 "$(echo "$out" | tail -1 | tr -d '\n' | wc -c)"

rm -rf "$TMP"
finish "hardening"
