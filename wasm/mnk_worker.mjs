// The web worker of mnk_player.mjs: answers its messages with the module
// (mnk.mjs), one at a time, off the page's thread. Started by Player, never
// by hand.
//
// Messages in:  {module, books}: the compiled mnk_core.wasm (a
//                 WebAssembly.Module) and the URLs of games' opening books
//                 ({id: url}), first and once;
//               {id, op: 'games'};
//               {id, op: 'analyse' | 'pv' | 'tree' | 'choose', game,
//                position, maxNodes, timeLimit, searchMemory, depth (tree
//                only), level, seed, vary (choose only), bestOnly (analyse
//                only)}
//                 (game: an id of games()); choose's result is
//                 {cell, position}: the move and the position after it.
// A game's opening book (books) is fetched when the game is first asked
// for; meanwhile the built-in book answers what it can, and a request
// that would take a search waits for the fetched book (or its failure).
// Messages out: {ready: true} or {failed: message}, once loaded;
//               {id, progress: [movesDone, moves]} while a search goes on;
//               {id, result} or {id, error: {message, code}}.
import {load} from './mnk.mjs';

let mnk = null;
let books = {};            // id -> the URL of its opening book
const games = new Map();   // id -> Game, opened on first use
const arriving = new Map();  // id -> its book's fetch, while under way

// The game `id`, opened on first use with its built-in book; a book in
// `books` is fetched then, and once it is here the game is opened again
// with it (between two requests: answers are never mixed).
function game(id, searchMemory) {
  if (!games.has(id)) {
    const spec = mnk.games().find((g) => g.id === id);
    if (spec === undefined) {
      const ids = mnk.games().map((g) => g.id).join(', ');
      throw Object.assign(
          new Error(`no game '${id}': expected one of ${ids}`),
          {code: 'NOT_FOUND'});
    }
    games.set(id, mnk.openGame(spec, {searchMemory}));
    if (books[id] !== undefined) {
      arriving.set(id, fetchBook(id, spec, searchMemory)
                           .finally(() => arriving.delete(id)));
    }
  }
  return games.get(id);
}

async function fetchBook(id, spec, searchMemory) {
  try {
    const response = await fetch(books[id]);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const book = await response.arrayBuffer();
    const opened = mnk.openGame(spec, {searchMemory, book});
    games.get(id).close();
    games.set(id, opened);
  } catch (error) {
    console.warn(`${books[id]}: ${error.message}; the built-in book answers`);
  }
}

// answer(request), but while its game's book is on its way, a request
// that the game cannot answer without a search (one node) waits for it,
// its time limit counted from its arrival; so does a best line (which a
// search's limit cuts short rather than fails).
async function answerWhenReady(request) {
  const start = performance.now();
  if (request.game !== undefined) game(request.game, request.searchMemory);
  const book = arriving.get(request.game);
  if (book === undefined) return answer(request);
  if (request.op !== 'pv') {
    try {
      return answer({...request, maxNodes: 1, timeLimit: 0});
    } catch (error) {
      if (error.code !== 'RESOURCE_EXHAUSTED') throw error;
    }
  }
  await book;
  const {timeLimit} = request;
  const left = timeLimit > 0 && timeLimit <= 2 ** 31 - 1 ?
      Math.max(1, timeLimit - (performance.now() - start)) : timeLimit;
  return answer({...request, timeLimit: left});
}

function answer({id, op, game: gameId, position, maxNodes, timeLimit,
                 searchMemory, depth, level, seed, vary, bestOnly}) {
  if (op === 'games') return mnk.games();
  if (op === 'choose') {
    const played = game(gameId, searchMemory);
    const cell = played.choose(position,
                               {level, seed, vary, maxNodes, timeLimit});
    return {cell, position: played.play(position, cell)};
  }
  if (op === 'pv') {
    return game(gameId, searchMemory).pv(position, {maxNodes, timeLimit});
  }
  if (op === 'tree') {
    return game(gameId, searchMemory).tree(position,
                                           {depth, maxNodes, timeLimit});
  }
  if (op === 'analyse') {
    return game(gameId, searchMemory).analyse(position, {
      maxNodes,
      timeLimit,
      bestOnly,
      onProgress: (done, total) => postMessage({id, progress: [done, total]}),
    });
  }
  throw Object.assign(new Error(`unknown request '${op}'`),
                      {code: 'INVALID_ARGUMENT'});
}

// The module, instantiated from the compiled one the first message brings;
// requests that arrive meanwhile wait for it, in order.
let loaded = null;

async function loadModule(module) {
  try {
    mnk = await load({
      instantiateWasm: (imports, done) => {
        WebAssembly.instantiate(module, imports)
            .then((instance) => done(instance, module))
            .catch((error) => postMessage({failed: String(error)}));
        return {};
      },
    });
    postMessage({ready: true});
  } catch (error) {
    postMessage({failed: String(error.message || error)});
    throw error;
  }
}

onmessage = async ({data}) => {
  if (data.module !== undefined) {
    books = data.books ?? {};
    loaded = loadModule(data.module);
    return;
  }
  try {
    await loaded;
    postMessage({id: data.id, result: await answerWhenReady(data)});
  } catch (error) {
    postMessage({id: data.id,
                 error: {message: error.message, code: error.code}});
  }
};
