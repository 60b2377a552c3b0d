#!/usr/bin/env bash
# Writes the npm package's tarball (npm pack's form: a gzipped tar of
# package/): package.json for VERSION, the modules, the wasm file, Connect
# Four's opening table, their types, the README and the licence. //wasm:npm runs it.
#
#   pack.sh OUT.tgz VERSION FILE...
set -euo pipefail
out=$1 version=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/package"
cp "$@" "$dir/package/"
cat > "$dir/package/package.json" <<JSON
{
  "name": "mnk",
  "version": "$version",
  "description": "The perfect player of tic-tac-toe and its family (m,n,k-games, gravity, misere) in WebAssembly: solved tables and exact search",
  "license": "MIT",
  "keywords": ["tic-tac-toe", "connect-four", "minimax", "solver", "m,n,k-game", "webassembly"],
  "type": "module",
  "main": "./mnk.mjs",
  "types": "./mnk.d.ts",
  "exports": {
    ".": {"types": "./mnk.d.ts", "default": "./mnk.mjs"},
    "./player": {"types": "./mnk_player.d.ts", "default": "./mnk_player.mjs"},
    "./mnk_core.wasm": "./mnk_core.wasm",
    "./7x6k4g-opening.mnk": "./7x6k4g-opening.mnk",
    "./package.json": "./package.json"
  },
  "files": ["*.mjs", "*.d.ts", "mnk_core.wasm", "7x6k4g-opening.mnk",
            "README.md", "LICENSE"],
  "engines": {"node": ">=16"}
}
JSON
chmod 0644 "$dir/package/"*
tar --sort=name --mtime=@315532800 --owner=0 --group=0 --numeric-owner \
  -C "$dir" -czf "$out" package
