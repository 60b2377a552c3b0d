#!/usr/bin/env bash
# The npm package as a user gets it: `npm install --offline` of its tarball
# into an empty folder, then, from there, docs/javascript.md's node example
# (importing 'mnk' by its name) prints what its comments say, and the
# package's files and exports are the ones package.json names.
set -euo pipefail
src="$TEST_SRCDIR/mnk"
app="$TEST_TMPDIR/app"
rm -rf "$app" && mkdir -p "$app"
cd "$app"
export npm_config_cache="$TEST_TMPDIR/npm-cache" HOME="$TEST_TMPDIR"
echo '{"name": "app", "version": "0.0.0", "private": true, "type": "module"}' > package.json
npm install --offline --no-audit --no-fund -s "$src"/wasm/mnk-*.tgz

sed -n '/^```js$/,/^```$/p' "$src/docs/javascript.md" | sed '1d;$d' > example.mjs
got=$(node example.mjs)
want=$(grep -o '// .*' example.mjs | grep -v '^// In a' | cut -c4-)
[ "$got" = "$want" ] || {
  echo "docs/javascript.md's example printed:"; echo "$got"
  echo "its comments say:"; echo "$want"; exit 1; }
echo "docs/javascript.md: the example prints what it says"

node --input-type=module -e "
import {load} from 'mnk';
import {Player} from 'mnk/player';
import {createRequire} from 'node:module';
const pkg = createRequire(import.meta.url)('mnk/package.json');
const mnk = await load();
if (mnk.version !== pkg.version) throw new Error(mnk.version + ' != ' + pkg.version);
if (typeof Player.start !== 'function') throw new Error('no Player.start');
console.log('mnk ' + pkg.version + ': imported by name; version agrees');
"
for f in mnk.mjs mnk_core.mjs mnk_core.wasm mnk_player.mjs mnk_worker.mjs \
         mnk.d.ts mnk_player.d.ts README.md LICENSE package.json; do
  [ -f "node_modules/mnk/$f" ] || { echo "FAIL: the package has no $f"; exit 1; }
done
echo "the package holds its modules, wasm, types, README and licence"
