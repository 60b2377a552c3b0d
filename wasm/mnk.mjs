// The perfect player in JavaScript: the project's C++ compiled to
// WebAssembly (mnk_core.mjs, mnk_core.wasm), for browsers, web workers and
// node. Every answer is the one `play --position=P --json` gives.
//
//   import {load} from './mnk.mjs';
//   const mnk = await load();                 // mnk_core.wasm from beside it
//   const game = mnk.openGame({width: 3, height: 3, k: 3});
//   game.title;                               // "Tic-tac-toe"
//   const a = game.analyse('X.O/X.X/OO.');
//   a.value, a.remoteness, a.best_move;       // "win", 1, 4
//   a.moves;                                  // [{cell, value, remoteness}]
//   game.play('.../.../...', 4);             // '.../.X./...'
//   game.choose('.../.X./...', {level: 5, seed: 1});  // a cell
//   game.pv('.../.X./...');                   // the cells to the end
//   game.close();
//   mnk.games();                              // the built-in games
//   mnk.version;                              // "1.0.0"
//
// Each call runs on the calling thread until its answer or its limits: a
// page runs searches in a web worker instead (mnk_player.mjs), where they
// can also be cancelled.
//
// A browser fetches mnk_core.wasm; node reads it from the file (or pass the
// module's bytes: await load({wasmBinary: bytes})).
//
// Arguments are checked before they reach the module: a board size a whole
// number, gravity and misere booleans, searchMemory a whole number of bytes
// from 1 and maxNodes one from 0 (0: no limit), each at most 2^53 - 1, and
// timeLimit a number of ms from 0
// (Number.MAX_SAFE_INTEGER); a table's bytes a Uint8Array, another typed
// array or DataView, or an ArrayBuffer. Anything else throws a TypeError or
// RangeError with `code` 'INVALID_ARGUMENT' naming the argument.
import MnkCore from './mnk_core.mjs';

// An Error of the module's kinds: `kind` (TypeError, RangeError, Error)
// with `code` as the C library and Python name it.
function failure(kind, message, code = 'INVALID_ARGUMENT') {
  return Object.assign(new kind(message), {code});
}

// `value` when it is a whole number from `min` to `max`, else a throw
// naming `name`.
function whole(name, value, min, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== 'number') {
    throw failure(TypeError, `${name} ${String(value).slice(0, 200)}: ` +
                  `expected a whole number from ${min} to ${max}`);
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw failure(RangeError, `${name} ${value}: expected a whole number ` +
                  `from ${min} to ${max}`);
  }
  return value;
}

// `value` when it is a string, else a TypeError naming `name`.
function text(name, value) {
  if (typeof value !== 'string') {
    throw failure(TypeError, `${name} ${String(value).slice(0, 200)}: ` +
                  'expected a string');
  }
  return value;
}

function flag(name, value) {
  if (typeof value !== 'boolean') {
    throw failure(TypeError, `${name} ${String(value).slice(0, 200)}: ` +
                  'expected true or false');
  }
  return value;
}

// A time limit in ms as the module's seconds: 0 (none) for 0, Infinity and
// anything past 2^31 - 1 ms (as setTimeout), else a throw naming it.
export function timeLimitSeconds(timeLimit) {
  if (typeof timeLimit !== 'number' || !(timeLimit >= 0)) {
    throw failure(RangeError, `timeLimit ${String(timeLimit).slice(0, 200)}: ` +
                  'expected a number of ms, 0 or more (0: no limit)');
  }
  return timeLimit <= 2 ** 31 - 1 ? timeLimit / 1000 : 0;
}

// Deletes the module's side of a Game a program dropped without close().
const dropped = new FinalizationRegistry((game) => game.delete());

// Loads the module; `options` go to emscripten (wasmBinary, locateFile).
// In node, which cannot fetch a file: URL, the bytes are read from the
// file beside this module.
export async function load(options = {}) {
  const inNode = typeof process === 'object' && process.versions?.node;
  if (inNode && !options.wasmBinary && !options.locateFile) {
    const {readFile} = await import('node:fs/promises');
    const wasmBinary = await readFile(new URL('mnk_core.wasm', import.meta.url));
    options = {...options, wasmBinary};
  }
  return new Mnk(await MnkCore(options));
}

class Mnk {
  constructor(core) {
    this.core = core;
    this.tables = 0;
    // "1.0.0": the project's version, as the C library and Python say it.
    this.version = core.version();
  }

  // The games openGame answers with no table: [{id, name, title, width,
  // height, k, gravity, misere, cells}] (serve's /api/games lists them with
  // the same fields).
  games() {
    return JSON.parse(this.core.games());
  }

  // A game of the family: its built-in table, or, on a Connect-style board
  // too big for one, the exact search after an opening book: `book`'s bytes
  // (as openTable takes them: a book file, as the `book` tool or `solve
  // --layout=book` writes it), else the built-in one; searchMemory bytes for
  // the search's transposition table. Throws an Error saying why for a game
  // it cannot answer or a book that is not one of its game.
  openGame({width, height, k, gravity = false, misere = false} = {},
           {searchMemory = 16 * 2 ** 20, book} = {}) {
    const size = 2 ** 31 - 1;  // what the module's int holds
    const spec = [whole('width', width, 1, size),
                  whole('height', height, 1, size), whole('k', k, 1, size),
                  flag('gravity', gravity), flag('misere', misere)];
    const memory = whole('searchMemory', searchMemory, 1);
    if (book === undefined) return this.open_(...spec, '', memory, '');
    return this.withFile_('book', book,
                          (path) => this.open_(...spec, '', memory, path));
  }

  // A table file's bytes (a Uint8Array, another typed array or DataView,
  // or an ArrayBuffer, as fetched): its game's answers, read into the
  // module's memory (the bytes given are not kept). Throws an Error for
  // bytes that are not a whole, intact table.
  openTable(bytes) {
    return this.withFile_('openTable', bytes,
                          (path) => this.open_(0, 0, 0, false, false, path, 0,
                                               ''));
  }

  // open(path) on `bytes` written to a file of the module's file system,
  // removed once the module has read it whole; a TypeError naming `name`
  // for anything but bytes.
  withFile_(name, bytes, open) {
    const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes)
        : ArrayBuffer.isView(bytes)
        ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        : null;
    if (view === null) {
      throw failure(TypeError, `${name}: ${Object.prototype.toString.call(
          bytes)} is not a table's bytes: expected a Uint8Array or an ` +
          'ArrayBuffer');
    }
    const path = `/table-${++this.tables}.mnk`;
    this.core.FS.writeFile(path, view);
    try {
      return open(path);
    } finally {
      this.core.FS.unlink(path);
    }
  }

  open_(width, height, k, gravity, misere, path, searchMemory, bookPath) {
    const game = new this.core.Game(width, height, k, gravity, misere, path,
                                    searchMemory, bookPath);
    const error = game.error();
    if (error !== '') {
      game.delete();
      throw new Error(error);
    }
    return new Game(game);
  }
}

class Game {
  constructor(game) {
    this.game = game;
    this.title = game.title();
    dropped.register(this, game, this);
  }

  // The position (rows from the top, X, O or . a cell, / between rows):
  // {game, position, to_move, value, remoteness, best_move, moves: [{cell,
  // value, remoteness}]} (with gravity also best_column and each move's
  // column). A search visits at most `maxNodes` positions and runs at most
  // `timeLimit` ms (0: no limit; Infinity and more than 2^31 - 1 ms: none),
  // both checked inside the search, and calls onProgress(movesDone, moves)
  // as it goes. Throws an Error saying what is wrong, its `code`
  // "INVALID_ARGUMENT" for a bad position, "RESOURCE_EXHAUSTED" for a
  // search over its budget, "DEADLINE_EXCEEDED" past its time,
  // "FAILED_PRECONDITION" once the game is closed. An onProgress that
  // throws ends the search: analyse throws what it threw, and the game
  // stays usable. `bestOnly`: the value, remoteness and best move alone,
  // `moves` empty when a search answered (far sooner than every move's).
  analyse(position,
          {maxNodes = 0, timeLimit = 0, onProgress, bestOnly = false} = {}) {
    if (this.game === null) {
      throw failure(Error, 'the game is closed', 'FAILED_PRECONDITION');
    }
    if (typeof position !== 'string') {
      throw failure(TypeError, `position ${String(position).slice(0, 200)}: ` +
                    'expected a string');
    }
    whole('maxNodes', maxNodes, 0);
    const seconds = timeLimitSeconds(timeLimit);
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw failure(TypeError, 'onProgress: expected a function');
    }
    let thrown = null;
    const report = onProgress && ((done, total) => {
      try {
        onProgress(done, total);
        return true;
      } catch (error) {
        thrown = error;
        return false;  // stops the search
      }
    });
    flag('bestOnly', bestOnly);
    const answer = JSON.parse(
        this.game.answer(position, maxNodes, seconds, report, bestOnly));
    if (thrown !== null) throw thrown;
    if ('error' in answer) throw failure(Error, answer.error, answer.code);
    return answer;
  }

  // The rules, for a position (each throws an Error saying why, `code`
  // 'INVALID_ARGUMENT', for a bad position or move): the legal moves'
  // cells in board order (with gravity, columns left to right), the
  // position after the side to move plays `cell` or drops a stone in
  // `column`, whether the game is over, its winner ('X', 'O', 'draw';
  // null while it goes on) and the side to move.
  legalMoves(position) {
    return this.call_('rules', text('position', position)).moves;
  }
  play(position, cell) {
    return this.call_('play', text('position', position),
                      whole('cell', cell, 0, 2 ** 31 - 1)).position;
  }
  drop(position, column) {
    return this.call_('drop', text('position', position),
                      whole('column', column, 0, 2 ** 31 - 1)).position;
  }
  isOver(position) {
    return this.call_('rules', text('position', position)).over;
  }
  winner(position) {
    return this.call_('rules', text('position', position)).winner;
  }
  toMove(position) {
    return this.call_('rules', text('position', position)).to_move;
  }

  // The position after `moves` from the empty board: an array of cells,
  // or a string in `notation`: 'cells' ('4 0 8'), 'columns' ('3 3 4',
  // from 0) or 'digits' ('4453', columns from 1, as Pons' solver writes
  // them); toMoves writes a sequence that builds `position`.
  fromMoves(moves, {notation = 'cells'} = {}) {
    if (Array.isArray(moves)) {
      if (notation !== 'cells') {
        throw failure(TypeError, `moves as an array are cells: write ` +
                      `${String(notation).slice(0, 200)} as a string`);
      }
      moves = moves.map((cell) => whole('cell', cell, 0, 2 ** 31 - 1))
          .join(' ');
    }
    return this.call_('fromMoves', text('moves', moves),
                      text('notation', notation)).position;
  }
  toMoves(position, {notation = 'cells'} = {}) {
    return this.call_('toMoves', text('position', position),
                      text('notation', notation)).moves;
  }

  // The cell a player of `level` plays (1: a random move .. 10: the
  // perfect one; docs/python.md's table): the same for the same `seed`
  // (a whole number), level and position; `vary`: level 10 picks among
  // equally good moves at random. A search keeps to maxNodes and
  // timeLimit (ms), as in analyse.
  choose(position, {level = 10, seed, vary = false, maxNodes = 0,
                    timeLimit = 0} = {}) {
    return this.call_('choose', text('position', position),
                      whole('level', level, 1, 10), flag('vary', vary),
                      seed === undefined ? -1 : whole('seed', seed, 0),
                      whole('maxNodes', maxNodes, 0),
                      timeLimitSeconds(timeLimit)).cell;
  }

  // The principal variation: the cells both sides play under perfect play
  // to the end; a search's line stops early at maxNodes (each move) or
  // timeLimit (the whole line).
  pv(position, {maxNodes = 0, timeLimit = 0} = {}) {
    return this.call_('pv', text('position', position),
                      whole('maxNodes', maxNodes, 0),
                      timeLimitSeconds(timeLimit)).pv;
  }

  // The game tree of `position` to `depth` plies, for teaching minimax:
  // {cell (absent at the root), position, to_move, value, remoteness,
  // best (the child minimax keeps), score (the seeds' +10 - plies, -10 +
  // plies or 0, for the root's side to move), sign (+1, 0, -1),
  // children}.
  tree(position, {depth = 1, maxNodes = 0, timeLimit = 0} = {}) {
    return this.call_('tree', text('position', position),
                      whole('depth', depth, 0, 64),
                      whole('maxNodes', maxNodes, 0),
                      timeLimitSeconds(timeLimit));
  }

  // The module's `name` called with `args`: its JSON reply, or a throw of
  // its error.
  call_(name, ...args) {
    if (this.game === null) {
      throw failure(Error, 'the game is closed', 'FAILED_PRECONDITION');
    }
    const reply = JSON.parse(this.game[name](...args));
    if ('error' in reply) throw failure(Error, reply.error, reply.code);
    return reply;
  }

  // Lets go of the game's memory (its table, its search); again: nothing.
  close() {
    if (this.game === null) return;
    dropped.unregister(this);
    this.game.delete();
    this.game = null;
  }
}
