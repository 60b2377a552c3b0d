// The perfect player in JavaScript: the project's C++ compiled to
// WebAssembly (mnk_core.mjs, mnk_core.wasm), for browsers, web workers and
// node. Every answer is the one `play --position=P --json` gives.
//
//   import {load} from './mnk.mjs';
//   const mnk = await load();                 // fetches mnk_core.wasm
//   const game = mnk.openGame({width: 3, height: 3, k: 3});
//   game.title;                               // "Tic-tac-toe"
//   const a = game.analyse('X.O/X.X/OO.');
//   a.value, a.remoteness, a.best_move;       // "win", 1, 4
//   a.moves;                                  // [{move, value, remoteness}]
//   game.close();
//   mnk.games();                              // the built-in games
//
// Each call runs to its end on the calling thread: a page runs searches in
// a web worker instead (mnk_player.mjs), where they can be cancelled.
//
// Without a browser's fetch (node), pass the module's bytes:
//   await load({wasmBinary: fs.readFileSync('mnk_core.wasm')});
import MnkCore from './mnk_core.mjs';

// Loads the module; `options` go to emscripten (wasmBinary, locateFile).
export async function load(options = {}) {
  return new Mnk(await MnkCore(options));
}

class Mnk {
  constructor(core) {
    this.core = core;
    this.tables = 0;
  }

  // The games openGame answers with no table: [{id, name, title, width,
  // height, k, gravity, misere, cells}] (serve's /api/games lists them with
  // the same fields).
  games() {
    return JSON.parse(this.core.games());
  }

  // A game of the family: its built-in table, or, on a Connect-style board
  // too big for one, the exact search after the built-in opening book
  // (searchMemory bytes for its transposition table). Throws an Error
  // saying why for a game it cannot answer.
  openGame({width, height, k, gravity = false, misere = false},
           {searchMemory = 16 * 2 ** 20} = {}) {
    return this.open_(width, height, k, gravity, misere, '', searchMemory);
  }

  // A table file's bytes (a Uint8Array or ArrayBuffer, as fetched): its
  // game's answers. Throws an Error for bytes that are not a whole, intact
  // table.
  openTable(bytes) {
    const path = `/table-${++this.tables}.mnk`;
    this.core.FS.writeFile(path, new Uint8Array(bytes));
    try {
      return this.open_(0, 0, 0, false, false, path, 0);
    } catch (error) {
      this.core.FS.unlink(path);
      throw error;
    }
  }

  open_(width, height, k, gravity, misere, path, searchMemory) {
    const game = new this.core.Game(width, height, k, gravity, misere, path,
                                    searchMemory);
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
  }

  // The position (rows from the top, X, O or . a cell, / between rows):
  // {game, position, to_move, value, remoteness, best_move, moves: [{move,
  // value, remoteness}]} (with gravity also best_column and each move's
  // column). A search visits at most `maxNodes` positions (0: no limit)
  // and calls onProgress(movesDone, moves) as it goes. Throws an Error
  // saying what is wrong, its `code` "INVALID_ARGUMENT" for a bad position,
  // "RESOURCE_EXHAUSTED" for a search over its budget.
  analyse(position, {maxNodes = 0, onProgress} = {}) {
    const answer = JSON.parse(this.game.answer(position, maxNodes, onProgress));
    if ('error' in answer) {
      throw Object.assign(new Error(answer.error), {code: answer.code});
    }
    return answer;
  }

  // Lets go of the game's memory (its table, its search).
  close() {
    this.game.delete();
  }
}
