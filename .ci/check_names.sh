#!/usr/bin/env bash
# One name per concept: the bindings' public surfaces (the C header, C#,
# Python's stubs, JavaScript and its types, the JSON the tools and serve
# write) name each thing as the others do, each in its language's case:
#
#   a move's number          cell (row * width + column); best_move
#   with gravity             column; best_column
#   whose turn               to_move (ToMove, toMove)
#   plies to the end         remoteness
#   the rules' moves         legal_moves (LegalMoves, legalMoves)
#   the best line            pv (Pv)
#
# Prints each synonym found and fails; with --self-test, checks that a
# file using a synonym is caught.
set -euo pipefail
cd "$(dirname "$0")/.."

surfaces=(answer/text.h api/mnk.h api/csharp/Mnk.cs python/mnk/__init__.pyi
          wasm/mnk.mjs wasm/npm/mnk.d.ts serve/server.h)
# Perl regexes of names the surfaces must not use (comments included: they
# are the surfaces' documentation).
banned=(
  '"move"'                        # JSON: a move's number is "cell"
  '(?<![A-Za-z_])move\??:'        # TypeScript field: cell
  '(?i)\bbest_?(cell|col|square)\b'
  '(?i)\b(square|col|idx)\b'      # cell, column
  '(?i)\b(side|player)_?to_?move\b'
  '(?i)\b(turn|mover)\b'          # to_move
  '(?i)\b(distance|dtm|depth_?to_?(end|mate)|plies_?left)\b'  # remoteness
  '(?i)\b(valid|possible|available)_?moves\b'                 # legal_moves
  '(?i)\b(best_?line|principal_?variation)\b'                 # pv
)

check() {
  local failed=0
  for pattern in "${banned[@]}"; do
    if grep -nHP -- "$pattern" "$@"; then failed=1; fi
  done
  return "$failed"
}

if [[ "${1:-}" == --self-test ]]; then
  tmp=$(mktemp)
  trap 'rm -f "$tmp"' EXIT
  for line in '{"move": 4}' 'interface A { move?: number; }' 'best_cell'       \
      'int side_to_move;' 'def valid_moves(self): ...' 'bestLine(p)'           \
      'distance: number'; do
    echo "$line" > "$tmp"
    if check "$tmp" > /dev/null; then
      echo "check_names: '$line' was not caught" >&2
      exit 1
    fi
  done
  echo '{"cell": 4, "to_move": "X"} legalMoves pv remoteness' > "$tmp"
  check "$tmp"
  echo "check_names: self-test passed"
  exit 0
fi

if ! check "${surfaces[@]}"; then
  echo "check_names: a synonym above; use the one name (.ci/check_names.sh)" >&2
  exit 1
fi
echo "check_names: one name per concept in ${#surfaces[@]} surfaces"
