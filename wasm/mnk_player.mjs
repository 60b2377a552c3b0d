// The perfect player for a web page: the module (mnk.mjs) in a web worker
// (mnk_worker.mjs), so that a search of seconds never freezes the page,
// with a time budget and a cancel. Every answer is the one
// `play --position=P --json` gives.
//
//   import {Player} from './mnk_player.mjs';
//   const player = await Player.start();      // fetches mnk_core.wasm
//   await player.games();                     // [{id: '3x3k3', title, ...}]
//   const stop = new AbortController();
//   const a = await player.analyse('7x6k4g', position, {
//     signal: stop.signal,                    // stop.abort() cancels
//     timeLimit: 10000,                       // ms; then a TimeoutError
//     onProgress: (done, moves) => {},        // as a search goes
//   });
//   await player.pv('3x3k3', 'X../.O./...');  // [1, 2, 6, ...]: the cells
//   await player.tree('3x3k3', 'XO./XO./...', {depth: 1});  // as mnk.mjs
//   await player.choose('3x3k3', 'X../.O./...', {level: 5, seed: 1});
//                                             // {cell, position after it}
//   player.close();
//
// A timed-out answer rejects with a DOMException named 'TimeoutError': the
// search stops itself inside the worker, which keeps its module, tables and
// built-in games. A cancelled one rejects with an 'AbortError'; the worker,
// stopped mid-search, is replaced by a fresh one (the compiled module is
// kept), and the other requests go on there.
const here = (name) => new URL(name, import.meta.url);

export class Player {
  // Compiles mnk_core.wasm (from beside this file unless `wasmUrl` says
  // where) and starts the worker. `searchMemory`: bytes of a searched
  // game's transposition table (16 MiB by default). `books`: for a game's
  // id, the URL of its opening book (by default Connect Four's opening
  // table, 7x6k4g-opening.mnk beside this file), fetched when the game is
  // first asked for, by each worker (the browser's cache keeps it); until
  // it arrives, or if it cannot be had, the built-in book answers.
  static async start({wasmUrl = here('mnk_core.wasm'),
                      searchMemory = 16 * 2 ** 20,
                      books = {'7x6k4g': here('7x6k4g-opening.mnk')}} = {}) {
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl)).catch(
        async () => WebAssembly.compile(await (await fetch(wasmUrl))
                                                  .arrayBuffer()));
    const player = new Player(module, searchMemory, books);
    await player.ready;
    return player;
  }

  constructor(module, searchMemory, books = {}) {
    this.module = module;
    this.searchMemory = searchMemory;
    this.books = Object.fromEntries(
        Object.entries(books).map(([id, url]) => [id, String(url)]));
    this.pending = new Map();  // id -> {message, resolve, reject, onProgress}
    this.next = 0;
    this.closed = false;
    this.startWorker();
  }

  // The built-in games: [{id, name, title, width, height, k, gravity,
  // misere, cells}], as serve's /api/games names them.
  games() {
    return this.request({op: 'games'});
  }

  // The answer to `position` of the game `game` (an id of games()). Rejects
  // with an Error (its `code` as mnk.mjs gives it) for a bad position or a
  // search over `maxNodes` positions; with a TimeoutError after `timeLimit`
  // ms of search (0, Infinity or more than 2^31 - 1: none; a negative
  // number or NaN: a RangeError), the search stopped inside the worker,
  // which keeps its module and tables; with an AbortError once `signal`
  // aborts (the worker is replaced then).
  analyse(game, position,
          {signal, timeLimit = 0, maxNodes = 0, onProgress,
           bestOnly = false} = {}) {
    return this.request({op: 'analyse', game, position, maxNodes, timeLimit,
                         bestOnly, searchMemory: this.searchMemory},
                        {signal, onProgress});
  }

  // The best line of `position`: the cells both sides play under perfect
  // play to the end (mnk.mjs's Game.pv), with analyse's options.
  pv(game, position, {signal, timeLimit = 0, maxNodes = 0} = {}) {
    return this.request({op: 'pv', game, position, maxNodes, timeLimit,
                         searchMemory: this.searchMemory},
                        {signal});
  }

  // The game tree of `position` to `depth` plies (mnk.mjs's Game.tree),
  // with analyse's options.
  tree(game, position,
       {depth = 1, signal, timeLimit = 0, maxNodes = 0} = {}) {
    return this.request({op: 'tree', game, position, depth, maxNodes,
                         timeLimit, searchMemory: this.searchMemory},
                        {signal});
  }

  // The move a player of `level` makes at `position` (mnk.mjs's
  // Game.choose, with its level, seed and vary), with analyse's options:
  // {cell, position}, the position the move leads to.
  choose(game, position, {level = 10, seed, vary = false, signal,
                          timeLimit = 0, maxNodes = 0} = {}) {
    return this.request({op: 'choose', game, position, level, seed, vary,
                         maxNodes, timeLimit,
                         searchMemory: this.searchMemory},
                        {signal});
  }

  // Stops the worker; pending answers reject with an AbortError, later
  // requests at once with an InvalidStateError.
  close() {
    this.closed = true;
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(abortError('closed'));
    this.pending.clear();
  }

  request(message, {signal, onProgress} = {}) {
    const {timeLimit = 0} = message;
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new DOMException('the player is closed', 'InvalidStateError'));
        return;
      }
      if (signal?.aborted) {
        reject(abortError('cancelled'));
        return;
      }
      if (typeof timeLimit !== 'number' || !(timeLimit >= 0)) {
        reject(Object.assign(new RangeError(
            `timeLimit ${String(timeLimit).slice(0, 200)}: expected a ` +
            'number of ms, 0 or more (0: no limit)'),
                             {code: 'INVALID_ARGUMENT'}));
        return;
      }
      const done = (settle) => (value) => {
        signal?.removeEventListener('abort', cancel);
        this.pending.delete(id);
        settle(value);
      };
      const cancel = () => this.cancel(id, abortError('cancelled'));
      signal?.addEventListener('abort', cancel);
      this.pending.set(id, {message: {id, ...message}, onProgress,
                            resolve: done(resolve), reject: done(reject)});
      this.worker.postMessage({id, ...message});
    });
  }

  // Rejects request `id` and, as a cancel cannot reach a search inside the
  // worker (it runs to its limits there), replaces the worker, sending it
  // the requests still pending.
  cancel(id, error) {
    const request = this.pending.get(id);
    if (request === undefined) return;
    request.reject(error);
    this.worker.terminate();
    this.startWorker();
    for (const p of this.pending.values()) this.worker.postMessage(p.message);
  }

  startWorker() {
    this.worker = new Worker(here('mnk_worker.mjs'), {type: 'module'});
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = ({data}) => {
        if (data.ready) resolve();
        if (data.failed !== undefined) {
          const error = new Error(`the module did not load: ${data.failed}`);
          reject(error);
          for (const p of this.pending.values()) p.reject(error);
        }
        const request = this.pending.get(data.id);
        if (request === undefined) return;
        if (data.progress !== undefined) {
          request.onProgress?.(...data.progress);
        } else if (data.error?.code === 'DEADLINE_EXCEEDED') {
          request.reject(new DOMException(
              `no answer within ${request.message.timeLimit} ms`,
              'TimeoutError'));
        } else if (data.error !== undefined) {
          request.reject(Object.assign(new Error(data.error.message),
                                       {code: data.error.code}));
        } else {
          request.resolve(data.result);
        }
      };
      this.worker.onerror = (event) => {
        const error = new Error(`the worker failed: ${event.message}`);
        reject(error);
        for (const p of this.pending.values()) p.reject(error);
      };
    });
    // A later worker's failure reaches its requests, not the first start.
    this.ready.catch(() => {});
    this.worker.postMessage({module: this.module, books: this.books});
  }
}

function abortError(why) {
  return new DOMException(`the answer was ${why}`, 'AbortError');
}
