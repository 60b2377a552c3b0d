// The page: plays and analyses the games of its source of answers, which
// does every rule while this file only draws: serve's JSON API
// (serve/server.h) when `serve` serves the page, else, from any static
// file server (the site, //:site), the perfect player compiled to
// WebAssembly in a web worker (wasm/mnk_player.mjs).
//
// Test contract: each cell is an element of #board with data-cell="N"
// (cells numbered row by row from the top left, as in position strings,
// and shown so on request: .num); each legal cell has
// data-value (win, draw or loss: what playing there gives the side to move)
// and data-remoteness; #status says whose turn it is or how the game ended;
// #pv lists the best line; in #tree each opened position is a .level with
// data-position, each of its moves an li with data-cell, data-value,
// data-remoteness and data-score (the child's, as /api/tree gives them) and
// data-best="true" on the one minimax keeps; #level (1 random .. 10
// perfect) and #vary choose how the computer plays, `seed=S` in the URL
// makes its choices repeatable (the same as /api/choose's with that seed).
'use strict';

const $ = (id) => document.getElementById(id);

const state = {
  games: [],        // as /api/games lists them
  game: null,       // the one being played
  line: [],         // positions from the start of this game (strings)
  cursor: 0,        // the shown position: line[cursor]
  human: 0,         // the person's side: 0 X, first; 1 O; 'both'
  answers: new Map(),  // "game position" -> its answer
  view: 0,          // bumped by each new view: older answers are dropped
  abort: null,      // cancels the answer the shown view waits for
  seed: undefined,  // the URL's seed: the computer's choices repeatable
};

// --- Where answers come from ----------------------------------------------

async function getJson(url, signal) {
  const response = await fetch(url, {signal});
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

// The module in a web worker on the static site (its index.html says so:
// <meta name="mnk-answers" content="module">), else serve's API.
async function openSource() {
  const meta = document.querySelector('meta[name="mnk-answers"]');
  if (meta && meta.content === 'module') {
    const {Player} = await import('./mnk_player.mjs');
    const player = await Player.start();
    return {
      games: await player.games(),
      analyse: (game, position, signal, onProgress) =>
        player.analyse(game, position, {signal, onProgress}),
      pv: async (game, position, signal) => ({
        pv: await player.pv(game, position, {signal, timeLimit: 20000}),
        complete: true,
      }),
      tree: (game, position, signal) =>
        player.tree(game, position, {signal, depth: 1}),
      choose: (game, position, level, signal) =>
        player.choose(game, position, {...level, signal, timeLimit: 20000}),
    };
  }
  const query = (game, position) => `?game=${encodeURIComponent(game)}` +
      `&position=${encodeURIComponent(position)}`;
  return {
    games: await getJson('api/games'),
    analyse: (game, position, signal) =>
      getJson(`api/position${query(game, position)}`, signal),
    pv: (game, position, signal) =>
      getJson(`api/pv${query(game, position)}`, signal),
    tree: (game, position, signal) =>
      getJson(`api/tree${query(game, position)}&depth=1`, signal),
    choose: (game, position, {level, vary, seed}, signal) =>
      getJson(`api/choose${query(game, position)}&level=${level}` +
              `&vary=${vary}` + (seed === undefined ? '' : `&seed=${seed}`),
              signal),
  };
}
let source = null;

const answerKey = (position) => `${state.game.id} ${position}`;
const known = (position) => state.answers.get(answerKey(position));

// The answer to `position` of the current game, remembered; `signal`
// cancels it (an AbortError).
async function analyse(position, signal) {
  const key = answerKey(position);
  if (!state.answers.has(key)) {
    const answer = await source.analyse(state.game.id, position, signal,
                                        thinking);
    state.answers.set(key, answer);
  }
  return state.answers.get(key);
}

// A new view (a move, undo, a new game, a position opened): the answer the
// last one waited for is cancelled. Returns the new view's number.
function newView() {
  if (state.abort) state.abort.abort();
  state.abort = new AbortController();
  return ++state.view;
}
const current = (view) => view === state.view;
const cancelled = (error) =>
  error.name === 'AbortError' || error.name === 'TimeoutError';

// The status while a search runs: how many of the moves it has solved.
function thinking(done, total) {
  $('status').textContent = done === undefined ? 'Thinking…' :
      `Thinking… ${done} of ${total} moves solved`;
}

// --- Positions as strings --------------------------------------------------

function emptyPosition(game) {
  return Array(game.height).fill('.'.repeat(game.width)).join('/');
}

// The position after the side to move (`mark`) plays `cell`.
function play(position, cell, mark) {
  const width = state.game.width;
  const at = Math.floor(cell / width) * (width + 1) + (cell % width);
  return position.slice(0, at) + mark + position.slice(at + 1);
}

// --- Whose turn ------------------------------------------------------------

const sideOf = (answer) => (answer.to_move === 'X' ? 0 : 1);
const isOver = (answer) => answer.moves.length === 0;
const humanToMove = (answer) =>
  state.human === 'both' || sideOf(answer) === state.human;

// A side's mark, as in position strings: X moves first.
const markOf = (side) => (side === 0 ? 'X' : 'O');

// A move as the answers number it: its cell, or with gravity its column.
const moveName = (cell) => state.game.gravity ?
    `column ${cell % state.game.width}` : `cell ${cell}`;

function outcome(value, remoteness) {
  if (remoteness === null) return value;
  return `${value} in ${remoteness}`;
}

function statusText(answer) {
  const side = sideOf(answer);
  if (isOver(answer)) {
    if (answer.value === 'draw') return 'Game over: draw.';
    // The side to move has won (misère: the opponent made a line) or lost.
    const winner = answer.value === 'win' ? side : 1 - side;
    const who = state.human === 'both' ? '' :
        winner === state.human ? ' You win.' : ' The computer wins.';
    return `Game over: ${markOf(winner)} wins.${who}`;
  }
  const whose = state.human === 'both' ? '' :
      side === state.human ? ' (your turn)' : " (the computer's turn)";
  const value = $('show-values').checked ?
      `: ${outcome(answer.value, answer.remoteness)}` : '';
  return `${markOf(side)} to move${whose}${value}`;
}

// --- Drawing ---------------------------------------------------------------

function drawBoard(answer) {
  const game = state.game;
  const board = $('board');
  const focused = document.activeElement && document.activeElement.dataset ?
      document.activeElement.dataset.cell : undefined;
  board.replaceChildren();
  board.className = (game.gravity ? 'gravity ' : '') +
      ($('show-values').checked ? 'show-values ' : '') +
      ($('show-cells').checked ? 'show-cells' : '');
  board.style.gridTemplateColumns = `repeat(${game.width}, var(--cell))`;
  // As wide as the screen allows (a phone's 390 px holds 7x6), 64 px at most.
  const room = Math.min(480, document.documentElement.clientWidth - 48);
  const size = Math.max(24, Math.min(64, Math.floor(room / game.width) - 6));
  board.style.setProperty('--cell', `${size}px`);
  const rows = answer.position.split('/');
  const moves = new Map(answer.moves.map((m) => [m.cell, m]));
  // A position still being answered is drawn with its stones alone.
  const canPlay = !answer.pending && !isOver(answer) && humanToMove(answer);
  if (game.gravity) drawColumnValues(answer, canPlay);
  for (let cell = 0; cell < game.cells; ++cell) {
    const row = Math.floor(cell / game.width), col = cell % game.width;
    const stone = rows[row][col];
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'cell';
    button.dataset.cell = cell;
    button.dataset.row = row;
    button.dataset.col = col;
    const move = moves.get(cell);
    // With gravity, any cell of a column plays the column's move.
    const target = move || (game.gravity ?
        answer.moves.find((m) => m.column === col) : undefined);
    let label = `cell ${cell}`;
    const number = document.createElement('span');
    number.className = 'num';
    number.textContent = cell;
    button.append(number);
    if (stone !== '.') {
      // With gravity, a disc of the player's colour (the first player's
      // red, the second's yellow), as Connect Four is drawn; else the mark.
      const mark = markOf(stone === 'X' ? 0 : 1);
      button.dataset.stone = stone;
      if (!game.gravity) button.append(mark);
      label += `, ${mark}`;
    }
    if (move) {
      button.dataset.value = move.value;
      if (move.remoteness !== null) button.dataset.remoteness = move.remoteness;
      const rem = document.createElement('span');
      rem.className = 'rem';
      // The value in words' first letter too: it reads without colour.
      rem.textContent = move.value[0].toUpperCase() +
          (move.remoteness === null ? '' : move.remoteness);
      // With gravity the values stand above the columns, not on the holes.
      if (!game.gravity) button.append(rem);
      if (move.cell === answer.best_move && !game.gravity) {
        button.classList.add('best');
      }
      label += `, ${outcome(move.value, move.remoteness)}`;
    }
    button.setAttribute('aria-label', label);
    if (target && canPlay) {
      button.addEventListener('click', () => humanMove(target.cell));
    } else {
      button.setAttribute('aria-disabled', 'true');
    }
    board.append(button);
  }
  if (focused !== undefined) {
    const again = board.querySelector(`[data-cell="${focused}"]`);
    if (again) again.focus();
  }
  $('columns-hint').hidden = !game.gravity;
  $('gravity-legend').hidden = !game.gravity;
}

// A gravity board's first row: above each column, what playing there gives
// the side to move, so that no value looks like a disc.
function drawColumnValues(answer, canPlay) {
  for (let col = 0; col < state.game.width; ++col) {
    const move = answer.moves.find((m) => m.column === col);
    const label = document.createElement('button');
    label.type = 'button';
    label.className = 'colvalue';
    label.dataset.col = col;
    label.tabIndex = -1;
    if (move) {
      label.dataset.value = move.value;
      label.textContent = move.remoteness === null ? move.value :
          `${move.value} ${move.remoteness}`;
      if (move.cell === answer.best_move) label.classList.add('best');
      label.setAttribute('aria-label', `column ${col}, ` +
          outcome(move.value, move.remoteness));
    }
    if (move && canPlay) {
      label.addEventListener('click', () => humanMove(move.cell));
    } else {
      label.setAttribute('aria-disabled', 'true');
    }
    $('board').append(label);
  }
}

// Every move of the line, the computer's included, as far as its positions
// are answered.
function drawMoves() {
  const list = $('moves');
  const line = state.line;
  const items = [];
  for (let i = 1; i < line.length; ++i) {
    const before = known(line[i - 1]);
    const after = known(line[i]);
    if (!before || !after) break;  // the last, still being answered
    const cell = [...line[i].replace(/\//g, '')].findIndex(
        (c, j) => c !== line[i - 1].replace(/\//g, '')[j]);
    // The move's value for the player who made it, counted, as everywhere,
    // from the position before it.
    const {value, remoteness} = before.moves.find((m) => m.cell === cell);
    const item = document.createElement('li');
    const where = moveName(cell);
    const result = document.createElement('span');
    result.className = value;
    result.textContent = outcome(value, remoteness);
    item.append(`${markOf(sideOf(before))} ${where}: `, result);
    item.dataset.ply = i;
    if (i === state.cursor) item.classList.add('current');
    item.addEventListener('click', () => goTo(i));
    items.push(item);
  }
  list.replaceChildren(...items);
}

// Value of each position of the line for X: +1 X wins, 0 draw, -1 O wins,
// drawn nearer the middle the further away the end is.
function drawHistory() {
  const svg = $('history');
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  const w = 320, h = 120, pad = 14;
  const plies = Math.max(state.game.cells, 1);
  const x = (i) => pad + (i * (w - 2 * pad)) / plies;
  const y = (v) => h / 2 - v * (h / 2 - pad);
  const add = (name, attrs, text) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    svg.append(e);
    return e;
  };
  add('line', {x1: pad, x2: w - pad, y1: y(0), y2: y(0), stroke: '#bbb'});
  add('text', {x: 2, y: 11, 'font-size': 10}, `${markOf(0)} wins`);
  add('text', {x: 2, y: h - 3, 'font-size': 10}, `${markOf(1)} wins`);
  const points = [];
  for (let i = 0; i < state.line.length; ++i) {
    const a = known(state.line[i]);
    if (!a) break;
    const forX = sideOf(a) === 0 ? a.value : {win: 'loss', loss: 'win',
                                              draw: 'draw'}[a.value];
    const depth = a.remoteness === null ? 0 : a.remoteness / (plies + 1);
    const v = forX === 'draw' ? 0 : (forX === 'win' ? 1 : -1) * (1 - depth);
    points.push([x(i), y(v), forX, i]);
  }
  add('polyline', {points: points.map((p) => `${p[0]},${p[1]}`).join(' '),
                   fill: 'none', stroke: '#555'});
  const colour = {win: '#008000', draw: '#c8b400', loss: '#800000'};
  for (const [px, py, forX, i] of points) {
    add('circle', {cx: px, cy: py, r: i === state.cursor ? 5 : 3,
                   fill: colour[forX]});
  }
}

// The best line of the shown position: each side's moves under perfect
// play to the end ("…" where a search stopped short).
async function drawPv() {
  const view = state.view;
  const answer = known(state.line[state.cursor]);
  if (!answer) return;
  $('pv').textContent = 'Thinking…';
  let line;
  try {
    line = await source.pv(state.game.id, answer.position, state.abort.signal);
  } catch (error) {
    if (!current(view) || cancelled(error)) return;
    $('pv').textContent = `No best line: ${error.message}`;
    return;
  }
  if (!current(view)) return;
  const side = sideOf(answer);
  const moves = line.pv.map((cell, i) =>
    `${markOf((side + i) % 2)} ${moveName(cell)}`);
  $('pv').textContent = moves.length === 0 ? 'The game is over.' :
      moves.join(', ') + (line.complete ? '.' : ', …');
}

// --- The tree, for teaching ----------------------------------------------

// The tree panel: the shown position's moves, each with the answer of the
// position it leads to and the seeds' score for the side to move (as
// /api/tree gives them), the move minimax keeps marked; a move opens to the
// moves after it, scored for the side to move there.
async function drawTree(view) {
  $('tree').replaceChildren();
  if (!$('show-tree').checked) return;
  const level = await treeLevel(state.line[state.cursor], view);
  if (level) $('tree').append(level);
}

// The level of `position`'s moves, or null (the message says why).
async function treeLevel(position, view) {
  let node;
  try {
    node = await source.tree(state.game.id, position, state.abort.signal);
  } catch (error) {
    if (current(view) && !cancelled(error)) {
      $('message').textContent = `No tree: ${error.message}`;
    }
    return null;
  }
  if (!current(view)) return null;
  const level = document.createElement('div');
  level.className = 'level';
  level.dataset.position = node.position;
  const who = node.to_move;
  const head = document.createElement('p');
  head.textContent = node.children.length === 0 ? 'The game is over.' :
      `${who} to move (${outcome(node.value, node.remoteness)}) keeps ` +
      `the highest score for ${who}:`;
  const list = document.createElement('ul');
  list.append(...node.children.map((child) => treeItem(child, who, view)));
  level.append(head, list);
  return level;
}

function treeItem(child, who, view) {
  const item = document.createElement('li');
  item.dataset.cell = child.cell;
  item.dataset.value = child.value;
  if (child.remoteness !== null) item.dataset.remoteness = child.remoteness;
  item.dataset.score = child.score;
  item.dataset.best = child.best;
  const open = document.createElement('button');
  open.type = 'button';
  open.setAttribute('aria-expanded', 'false');
  open.textContent = `${who} ${moveName(child.cell)}`;
  open.addEventListener('click', async () => {
    const shown = item.querySelector('.level');
    if (shown) {
      shown.remove();
      open.setAttribute('aria-expanded', 'false');
      return;
    }
    const level = await treeLevel(child.position, view);
    if (level && !item.querySelector('.level')) {
      item.append(level);
      open.setAttribute('aria-expanded', 'true');
    }
  });
  const result = document.createElement('span');
  result.className = child.value;
  result.textContent = `: score ${child.score > 0 ? '+' : ''}` +
      `${child.score}, then ${child.to_move} to move, ` +
      outcome(child.value, child.remoteness) +
      (child.best ? ' \u2190 minimax keeps this' : '');
  item.append(open, result);
  return item;
}

// Shows the shown position: at once when it is answered; else its stones
// and "Thinking…" until the answer comes (null if, meanwhile, the person
// moved on, or it could not be answered: the message says why).
async function render() {
  const view = newView();
  const position = state.line[state.cursor];
  $('position').value = position;
  const level = playerLevel();
  const query = `?game=${encodeURIComponent(state.game.id)}` +
      `&position=${encodeURIComponent(position)}` +
      (level.level === 10 ? '' : `&level=${level.level}`) +
      (level.seed === undefined ? '' : `&seed=${level.seed}`);
  history.replaceState(null, '', query);
  let answer = known(position);
  if (!answer) {
    drawBoard({position, moves: [], pending: true});
    $('board').setAttribute('aria-busy', 'true');
    thinking();
    try {
      answer = await analyse(position, state.abort.signal);
    } catch (error) {
      if (!current(view) || cancelled(error)) return null;
      $('board').removeAttribute('aria-busy');
      $('status').textContent = 'No answer for this position.';
      $('message').textContent = `It could not be answered: ${error.message}`;
      $('undo').disabled = undoTarget() === null;
      return null;
    }
    if (!current(view)) return null;
  }
  $('board').removeAttribute('aria-busy');
  drawBoard(answer);
  $('status').textContent = statusText(answer);
  $('undo').disabled = undoTarget() === null;
  $('redo').disabled = redoTarget() === null;
  drawMoves();
  drawHistory();
  $('pv').textContent = '';
  drawTree(view);
  return answer;
}

// --- Playing ----------------------------------------------------------------

// Shows the position, then lets the computer move if it is its turn and
// the game goes on from here.
async function show() {
  const answer = await render();
  if (answer && !isOver(answer) && !humanToMove(answer) &&
      state.cursor === state.line.length - 1) {
    const next = await computerMove(answer);
    if (next === null) return;
    extend(next);
    await show();
  }
}

// How the computer plays: the level chosen (10: perfect), vary, the seed.
function playerLevel() {
  return {level: Number($('level').value), vary: $('vary').checked,
          seed: state.seed};
}

// The position after the computer's move at the shown position `answer`,
// at the chosen level (the answer's own best move at level 10 without
// vary: no second question); null when the person moved on meanwhile or
// it could not be chosen (the message says why).
async function computerMove(answer) {
  const level = playerLevel();
  if (level.level === 10 && !level.vary) {
    return play(answer.position, answer.best_move, answer.to_move);
  }
  const view = state.view;
  try {
    const choice = await source.choose(state.game.id, answer.position, level,
                                       state.abort.signal);
    return current(view) ? choice.position : null;
  } catch (error) {
    if (current(view) && !cancelled(error)) {
      $('message').textContent = `The computer could not move: ` +
          error.message;
    }
    return null;
  }
}

// Appends a position after the shown one (dropping what undo left behind).
function extend(position) {
  state.line = state.line.slice(0, state.cursor + 1);
  state.line.push(position);
  state.cursor = state.line.length - 1;
}

async function humanMove(cell) {
  const answer = known(state.line[state.cursor]);
  if (!answer || isOver(answer) || !humanToMove(answer)) return;
  $('message').textContent = '';
  extend(play(answer.position, cell, answer.to_move));
  await show();
}

// Undo and redo step between the positions where the person is to move (or
// the game is over); with both sides by hand, one move at a time.
function stopsAt(i) {
  const a = known(state.line[i]);
  return a && (humanToMove(a) || isOver(a));
}
function undoTarget() {
  for (let i = state.cursor - 1; i >= 0; --i) if (stopsAt(i)) return i;
  return null;
}
function redoTarget() {
  for (let i = state.cursor + 1; i < state.line.length; ++i) {
    if (stopsAt(i)) return i;
  }
  return null;
}
async function goTo(i) {
  if (i === null || i < 0 || i >= state.line.length) return;
  state.cursor = i;
  $('message').textContent = '';
  await show();
}

// Starts a game at `position` (already checked by the server).
async function start(position) {
  state.line = [position];
  state.cursor = 0;
  await show();
}

async function newGame() {
  const side = $('side').value;
  state.human = side === 'both' ? 'both' : side === 'X' ? 0 : 1;
  $('message').textContent = '';
  await start(emptyPosition(state.game));
}

// A position typed in the editor or given in the URL: opened with the
// person to move (unless both sides are played by hand); a clear message
// when it is not valid.
async function open(position, where) {
  const view = newView();
  thinking();
  let answer;
  try {
    answer = await analyse(position, state.abort.signal);
  } catch (error) {
    if (!current(view) || cancelled(error)) return false;
    $('message').textContent = `${where}: ${error.message}`;
    if (state.line.length > 0) await show();  // back to the game
    return false;
  }
  if (!current(view)) return false;
  if (state.human !== 'both') {
    // The person takes the side to move.
    state.human = sideOf(answer);
    $('side').value = answer.to_move;
  }
  $('message').textContent = '';
  await start(answer.position);
  return true;
}

function selectGame(id) {
  state.game = state.games.find((g) => g.id === id) || state.games[0];
  $('game').value = state.game.id;
}

// --- Start-up and controls --------------------------------------------------

function arrowKey(event) {
  const from = event.target.closest('.cell');
  if (!from) return;
  const step = {ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0],
                ArrowDown: [1, 0]}[event.key];
  if (!step) return;
  event.preventDefault();
  const row = Number(from.dataset.row) + step[0];
  const col = Number(from.dataset.col) + step[1];
  if (row < 0 || col < 0 || row >= state.game.height ||
      col >= state.game.width) {
    return;
  }
  $('board').querySelector(
      `[data-cell="${row * state.game.width + col}"]`).focus();
}

function shortcut(event) {
  if (event.target.closest('input, select, textarea') || event.ctrlKey ||
      event.metaKey || event.altKey) {
    return;
  }
  const action = {u: () => goTo(undoTarget()), r: () => goTo(redoTarget()),
                  n: newGame,
                  v: () => { $('show-values').click(); }}[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

async function main() {
  try {
    source = await openSource();
  } catch (error) {
    $('status').textContent = `The player did not load: ${error.message}`;
    return;
  }
  state.games = source.games;
  for (const g of state.games) {
    const option = document.createElement('option');
    option.value = g.id;
    option.textContent = g.title;
    $('game').append(option);
  }
  $('game').addEventListener('change', () => {
    selectGame($('game').value);
    newGame();
  });
  $('new').addEventListener('click', newGame);
  $('undo').addEventListener('click', () => goTo(undoTarget()));
  $('redo').addEventListener('click', () => goTo(redoTarget()));
  $('show-values').addEventListener('change', show);
  $('show-cells').addEventListener('change', show);
  $('show-tree').addEventListener('change', show);
  $('level').addEventListener('change', show);
  $('pv-button').addEventListener('click', drawPv);
  $('position-form').addEventListener('submit', (event) => {
    event.preventDefault();
    open($('position').value.trim(), 'That position');
  });
  $('board').addEventListener('keydown', arrowKey);
  document.addEventListener('keydown', shortcut);

  const params = new URLSearchParams(location.search);
  $('message').textContent = readLevel(params);
  const id = params.get('game');
  selectGame(id);
  if (id !== null && state.game.id !== id) {
    $('message').textContent = `The URL names no game '${id}': expected ` +
        `one of ${state.games.map((g) => g.id).join(', ')}.`;
  }
  state.human = 0;
  if (params.has('position') &&
      await open(params.get('position'), 'The position in the URL')) {
    return;
  }
  const message = $('message').textContent;
  await newGame();
  $('message').textContent = message;
}

// The URL's level (1 to 10) and seed (a whole number): set on the page; a
// message when one is not valid (the level stays 10, the choices fresh).
function readLevel(params) {
  const level = params.get('level');
  const seed = params.get('seed');
  const problems = [];
  if (level !== null) {
    if (/^([1-9]|10)$/.test(level)) {
      $('level').value = level;
    } else {
      problems.push(`level '${level}': expected 1 (random) to 10 (perfect)`);
    }
  }
  if (seed !== null) {
    if (/^[0-9]{1,15}$/.test(seed)) {
      state.seed = Number(seed);
    } else {
      problems.push(`seed '${seed}': expected a whole number`);
    }
  }
  return problems.length === 0 ? '' :
      `The URL's ${problems.join(' and ')}.`;
}

main();
