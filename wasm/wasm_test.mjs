// wasm_test.sh's checks in node: the module's answers, line for line,
// against the native play's (DIR/*.native for the positions DIR/*.txt),
// then a table opened from bytes and the errors. Exits 1 at the first
// difference, saying where.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {load} from './mnk.mjs';

const [dir, table] = process.argv.slice(2);
const mnk = await load({wasmBinary: fs.readFileSync(
    new URL('./mnk_core.wasm', import.meta.url))});
const lines = (file) =>
  fs.readFileSync(`${dir}/${file}`, 'utf8').split('\n').slice(0, -1);

// Each position's answer (or error) as play --batch --json writes it.
function compare(name, game) {
  const native = lines(`${name}.native`);
  const positions = lines(`${name}.txt`);
  assert.equal(native.length, positions.length);
  positions.forEach((position, i) => {
    let got;
    try {
      got = JSON.stringify(game.analyse(position));
    } catch (error) {
      got = JSON.stringify({input: position, error: error.message});
    }
    assert.equal(got, native[i], `${name}: position ${position}`);
  });
  console.log(`${name}: ${positions.length} answers as play's`);
}

assert.equal(mnk.version, lines('version')[0], 'the version, as play\'s');

const ttt = mnk.openGame({width: 3, height: 3, k: 3});
assert.equal(ttt.title, 'Tic-tac-toe');
compare('ttt', ttt);
assert.throws(() => ttt.analyse('XXX/OOO/...'),
              {message: /both players have 3 in a row/,
               code: 'INVALID_ARGUMENT'});

// The rules calls, levels and the principal variation: whole games played
// through them alone, X at one level and O at another (seeded).
function playGame(game, levels, seed) {
  let position = game.fromMoves([]);
  const moves = [];
  while (!game.isOver(position)) {
    const level = levels[game.toMove(position) === 'X' ? 0 : 1];
    const cell = game.choose(position, {level, seed});
    assert.ok(game.legalMoves(position).includes(cell));
    position = game.play(position, cell);
    moves.push(cell);
  }
  assert.deepEqual(game.legalMoves(position), []);
  return [game.winner(position), moves];
}
assert.deepEqual(ttt.legalMoves('X../.O./...'), [1, 2, 3, 5, 6, 7, 8]);
assert.equal(ttt.play('X../.O./...', 8), 'X../.O./..X');
assert.equal(ttt.winner('XXX/OO./...'), 'X');
assert.equal(ttt.winner('X../.O./...'), null);
assert.equal(ttt.toMove('X../.O./...'), 'X');
assert.equal(ttt.fromMoves([4, 0, 8]), 'O../.X./..X');
assert.equal(ttt.toMoves('O../.X./..X'), '4 0 8');
assert.throws(() => ttt.play('X../.O./...', 4),
              {message: 'cell 4 is taken', code: 'INVALID_ARGUMENT'});
assert.throws(() => ttt.fromMoves('4453', {notation: 'digits'}),
              {message: /only a game with gravity/, code: 'INVALID_ARGUMENT'});
assert.throws(() => ttt.choose('.........', {level: 11}), RangeError);
const [drawn, perfect] = playGame(ttt, [10, 10], 1);
assert.equal(drawn, 'draw');
assert.deepEqual(perfect, ttt.pv('.........'));
let xWins = 0;
for (let seed = 0; seed < 100; ++seed) {
  const [winner] = playGame(ttt, [10, 1], seed);
  assert.notEqual(winner, 'O');
  xWins += winner === 'X';
}
assert.ok(xWins > 80, `perfect X won ${xWins} of 100 against random`);
const openings = new Set();
for (let seed = 0; seed < 200; ++seed) {
  openings.add(ttt.choose('.........', {vary: true, seed}));
}
assert.equal(openings.size, 9);
const tree = ttt.tree('O.X/X.X/.OO', {depth: 2});
assert.deepEqual([tree.value, tree.score, tree.sign], ['win', 9, 1]);
assert.deepEqual(tree.children.map((c) => [c.cell, c.score, c.best]),
                 [[1, -8, false], [4, 9, true], [6, -8, false]]);
assert.throws(() => ttt.tree('.........', {depth: 9}),
              {message: /more than 100000 nodes/,
               code: 'RESOURCE_EXHAUSTED'});
console.log('ttt: rules, levels, pv and tree');
ttt.close();
assert.deepEqual(mnk.games().map((g) => [g.id, g.title, g.cells]), [
  ['3x3k3', 'Tic-tac-toe', 9], ['3x3k3m', 'Misère tic-tac-toe', 9],
  ['4x4k4g', 'Connect-style 4x4', 16], ['7x6k4g', 'Connect Four', 42]]);

const c4x4 = mnk.openGame({width: 4, height: 4, k: 4, gravity: true});
compare('c4x4', c4x4);
assert.equal(c4x4.fromMoves('3312', {notation: 'digits'}),
             '..../..../..O./XOX.');
assert.equal(c4x4.drop('..../..../..../....', 2), '..../..../..../..X.');
assert.deepEqual(c4x4.legalMoves('..../..../..O./XOX.'), [8, 9, 6, 15]);
assert.equal(c4x4.toMoves('..../..../..O./XOX.', {notation: 'columns'}),
             '2 2 0 1');
for (let seed = 0; seed < 20; ++seed) playGame(c4x4, [10, 3], seed);
c4x4.close();

// The same table from its bytes, as a page fetches it.
const bytes = fs.readFileSync(table);
const fromBytes = mnk.openTable(bytes);
assert.equal(fromBytes.title, 'Connect-style 4x4');
compare('c4x4', fromBytes);
fromBytes.close();
assert.throws(() => mnk.openTable(bytes.subarray(0, 1000)), /table/);

const c7x6 = mnk.openGame({width: 7, height: 6, k: 4, gravity: true});
assert.equal(c7x6.title, 'Connect Four');
// Off the built-in book of the perfect lines (no opening table is loaded
// here): a search, its progress reported move by move, and over a budget of
// 1,000 positions a RESOURCE_EXHAUSTED error.
const offBook = '......./......./......./...O.../.O.XO../XXOXO.X';
assert.throws(() => c7x6.analyse(offBook, {maxNodes: 1000}),
              {code: 'RESOURCE_EXHAUSTED'});
const progress = [];
const searched = c7x6.analyse(offBook,
                              {onProgress: (...p) => progress.push(p)});
assert.deepEqual(progress, [1, 2, 3, 4, 5, 6, 7].map((done) => [done, 7]));
assert.equal(JSON.stringify(searched),
             lines('c7x6.native').at(-1), 'the search as play\'s');
compare('c7x6', c7x6);
// Asking for less: the value, remoteness and best move alone.
const bestOnly = c7x6.analyse(offBook, {bestOnly: true});
assert.deepEqual(
    [bestOnly.value, bestOnly.remoteness, bestOnly.best_move, bestOnly.moves],
    [searched.value, searched.remoteness, searched.best_move, []]);
assert.throws(() => c7x6.analyse(offBook, {bestOnly: 1}),
              {code: 'INVALID_ARGUMENT', message: /bestOnly 1/});

// An onProgress that throws ends that search with its error; the game's
// search is given back, so the next answers come (a book position, and the
// same search again).
assert.throws(() => c7x6.analyse(offBook, {onProgress: () => {
  throw new Error('enough');
}}), /^Error: enough$/);
assert.equal(JSON.stringify(c7x6.analyse(lines('c7x6.txt')[0])),
             lines('c7x6.native')[0]);
assert.equal(JSON.stringify(c7x6.analyse(offBook)), lines('c7x6.native').at(-1));

// Limits: a node budget is a whole number from 0 (none) to 2^53 - 1.
for (const maxNodes of [-1, 0.5, NaN, 1e30, Infinity, 2 ** 63, 2 ** 64, '5',
                        null]) {
  assert.throws(() => c7x6.analyse(offBook, {maxNodes}),
                {message: /^maxNodes .*: expected a whole number from 0 to/,
                 code: 'INVALID_ARGUMENT'}, `maxNodes ${maxNodes}`);
}
// A time limit ends the search inside the module (DEADLINE_EXCEEDED), and
// the game answers on; 0 and Infinity are none, others are refused.
const hard = '......./......./......./.O....O/.XX...X/OOX.O.X';
assert.throws(() => c7x6.analyse(hard, {timeLimit: 20}),
              {code: 'DEADLINE_EXCEEDED',
               message: /^the search of .* took more than 0.02 s/});
assert.equal(JSON.stringify(c7x6.analyse(offBook, {timeLimit: Infinity})),
             lines('c7x6.native').at(-1));
for (const timeLimit of [-1, NaN, '5', null]) {
  assert.throws(() => c7x6.analyse(offBook, {timeLimit}),
                {message: /^timeLimit .*: expected a number of ms, 0 or more/,
                 code: 'INVALID_ARGUMENT'}, `timeLimit ${timeLimit}`);
}
assert.throws(() => c7x6.analyse(42), {code: 'INVALID_ARGUMENT'});
assert.throws(() => c7x6.analyse(offBook, {onProgress: 'yes'}),
              {code: 'INVALID_ARGUMENT'});
c7x6.close();
c7x6.close();  // again: nothing
assert.throws(() => c7x6.analyse(offBook), {code: 'FAILED_PRECONDITION'});
const connect4 = {width: 7, height: 6, k: 4, gravity: true};
for (const searchMemory of [0, -1, 0.5, NaN, 1e30, Infinity]) {
  assert.throws(() => mnk.openGame(connect4, {searchMemory}),
                {message: /^searchMemory .*: expected a whole number from 1/,
                 code: 'INVALID_ARGUMENT'}, `searchMemory ${searchMemory}`);
}
assert.throws(() => mnk.openGame(connect4, {searchMemory: 2 ** 40}),
              /^Error: searchMemory is more than a search's table takes: /);
for (const width of [2 ** 32 + 3, 3.7, -3, NaN, '3', undefined]) {
  assert.throws(() => mnk.openGame({width, height: 3, k: 3}),
                {message: /^width /, code: 'INVALID_ARGUMENT'},
                `width ${width}`);
}
assert.throws(() => mnk.openGame({width: 3, height: 3, k: 3, gravity: 1}),
              {message: /^gravity 1: expected true or false/});

// A table's bytes: refused unless bytes; freed from the module's file
// system at once, and its memory at close(): 2,000 tables opened and
// closed leave the module's memory as it was after the first 100.
for (const notBytes of [null, undefined, 'a string', 42, {}, [1, 2]]) {
  assert.throws(() => mnk.openTable(notBytes),
                {name: 'TypeError', code: 'INVALID_ARGUMENT'},
                `openTable(${notBytes})`);
}
const tableFiles = () =>
  mnk.core.FS.readdir('/').filter((f) => f.startsWith('table-'));
let heapAfter100 = 0;
for (let i = 1; i <= 2000; ++i) {
  const t = mnk.openTable(i % 2 ? bytes : bytes.buffer.slice(
      bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  t.close();
  if (i === 100) heapAfter100 = mnk.core.HEAP8.buffer.byteLength;
}
assert.deepEqual(tableFiles(), []);
assert.equal(mnk.core.HEAP8.buffer.byteLength, heapAfter100,
             'the module\'s memory grew over 2,000 tables opened and closed');
console.log(`2,000 tables opened and closed: ${tableFiles().length} files ` +
            `left, memory ${heapAfter100 / 2 ** 20} MiB throughout`);

// A book given as bytes: 5x4's empty board and a move of it answered from
// it alone (no search: not one node), as play --book answers them; without
// it, the search needs more than one node. A book of another game, a table
// given as a book and a book of a game with a table are refused.
const book5x4 = fs.readFileSync(`${dir}/5x4k4g-book.mnk`);
const spec5x4 = {width: 5, height: 4, k: 4, gravity: true};
const c5x4 = mnk.openGame(spec5x4, {book: book5x4});
lines('c5x4.txt').forEach((position, i) => assert.equal(
    JSON.stringify(c5x4.analyse(position, {maxNodes: 1})),
    lines('c5x4.native')[i], `5x4 ${position} from the book`));
c5x4.close();
assert.throws(() => mnk.openGame(spec5x4).analyse(lines('c5x4.txt')[0],
                                                  {maxNodes: 1}),
              {code: 'RESOURCE_EXHAUSTED'});
assert.throws(() => mnk.openGame({width: 6, height: 4, k: 4, gravity: true},
                                 {book: book5x4}),
              {message: new RegExp('is a table for 5,4,4 gravity, not for ' +
                                   'the game asked for, 6,4,4 gravity')});
assert.throws(() => mnk.openGame({width: 4, height: 4, k: 4, gravity: true},
                                 {book: book5x4}),
              {message: /a book applies to a game played by search/});
assert.throws(() => mnk.openGame(spec5x4, {book: 'a path'}),
              {name: 'TypeError', code: 'INVALID_ARGUMENT',
               message: /^book: .* expected a Uint8Array/});
assert.deepEqual(tableFiles(), []);
console.log('5x4: answered from a book given as bytes');

assert.throws(() => mnk.openGame({width: 5, height: 5, k: 4}),
              {message: 'no built-in table for 5,5,4: the `solve` tool ' +
               '(`solve --width=5 --height=5 --k=4 --out=FILE`) or Python\'s ' +
               'Game.solve(FILE) makes one, and mnk.openTable(bytes) opens ' +
               'its bytes'});
assert.throws(() => mnk.openGame({width: 0, height: 3, k: 3}), /width/);
console.log('wasm: all answers as play\'s');
