// wasm_benchmark.sh's WebAssembly side: answers every position of a file
// (one a line) as the page does (every move's value), one search reused
// from position to position, and prints the seconds of each; with BOOK,
// after that book (as the page, once it has fetched the opening table).
//   node wasm_benchmark.mjs POSITIONS SEARCH_MEMORY_BYTES [BOOK]
import fs from 'node:fs';
import {performance} from 'node:perf_hooks';
import {load} from './mnk.mjs';

const [file, memory, book] = process.argv.slice(2);
const mnk = await load({wasmBinary: fs.readFileSync(
    new URL('./mnk_core.wasm', import.meta.url))});
const game = mnk.openGame(
    {width: 7, height: 6, k: 4, gravity: true},
    {searchMemory: Number(memory),
     book: book === undefined ? undefined : fs.readFileSync(book)});
for (const position of fs.readFileSync(file, 'utf8').split('\n')) {
  if (position === '') continue;
  const start = performance.now();
  game.analyse(position);
  console.log(((performance.now() - start) / 1000).toFixed(4));
}
game.close();
