// The web worker of mnk_player.mjs: answers its messages with the module
// (mnk.mjs), one at a time, off the page's thread. Started by Player, never
// by hand.
//
// Messages in:  {module}: the compiled mnk_core.wasm (a WebAssembly.Module),
//                 first and once;
//               {id, op: 'games'};
//               {id, op: 'analyse' | 'pv' | 'tree' | 'choose', game,
//                position, maxNodes, timeLimit, searchMemory, depth (tree
//                only), level, seed, vary (choose only), bestOnly (analyse
//                only)}
//                 (game: an id of games()); choose's result is
//                 {cell, position}: the move and the position after it.
// Messages out: {ready: true} or {failed: message}, once loaded;
//               {id, progress: [movesDone, moves]} while a search goes on;
//               {id, result} or {id, error: {message, code}}.
import {load} from './mnk.mjs';

let mnk = null;
const games = new Map();  // id -> Game, opened on first use

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
  }
  return games.get(id);
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
    loaded = loadModule(data.module);
    return;
  }
  try {
    await loaded;
    postMessage({id: data.id, result: answer(data)});
  } catch (error) {
    postMessage({id: data.id,
                 error: {message: error.message, code: error.code}});
  }
};
