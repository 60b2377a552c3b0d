// Types of mnk.mjs, the perfect player in JavaScript (docs/javascript.md).

/** A game of the family: width, height, k in a row; gravity; misère. */
export interface GameSpec {
  width: number;
  height: number;
  k: number;
  gravity?: boolean;
  misere?: boolean;
}

/** A value for the side that moves. */
export type Value = 'win' | 'draw' | 'loss';

/** One legal move (a cell, row * width + column) and what it leads to. */
export interface MoveAnswer {
  cell: number;
  /** With gravity: the move's column. */
  column?: number;
  value: Value;
  /** Plies to the end; null from a compact table. */
  remoteness: number | null;
}

/** A position's answer, as `play --position=P --json` gives it. */
export interface Answer {
  game: Required<GameSpec>;
  position: string;
  to_move: 'X' | 'O';
  value: Value;
  /** 0 once the game is over; null from a compact table. */
  remoteness: number | null;
  /** The perfect player's cell; absent once the game is over. */
  best_move?: number;
  /** With gravity: the best move's column. */
  best_column?: number;
  moves: MoveAnswer[];
}

/** A built-in game, as `serve`'s /api/games lists it. */
export interface GameInfo extends Required<GameSpec> {
  id: string;
  name: string;
  title: string;
  cells: number;
}

export interface AnalyseOptions {
  /** Positions a search may visit (0: no limit). */
  maxNodes?: number;
  /** Milliseconds a search may take (0, Infinity: no limit). */
  timeLimit?: number;
  /** Called after each move a search solves; a throw stops it. */
  onProgress?: (movesDone: number, moves: number) => void;
  /** The value, remoteness and best move alone: `moves` is empty when a
   * search answered (far sooner than every move's). */
  bestOnly?: boolean;
}

/** Errors carry the code the C library and Python name. */
export interface MnkError extends Error {
  code: 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'FAILED_PRECONDITION' |
      'DATA_LOSS' | 'RESOURCE_EXHAUSTED' | 'DEADLINE_EXCEEDED' |
      'CANCELLED' | 'INTERNAL';
}

/** How a move sequence is written: cells ('4 0 8'), columns from 0
 * ('3 3 4') or digits, columns from 1 ('4453'); the last two with gravity. */
export type Notation = 'cells' | 'columns' | 'digits';

export interface ChooseOptions {
  /** 1: a random move .. 10: the perfect move (the default). */
  level?: number;
  /** The same seed, level and position choose the same cell. */
  seed?: number;
  /** Level 10: a random one of the equally good moves. */
  vary?: boolean;
  maxNodes?: number;
  timeLimit?: number;
}

export interface Game {
  readonly title: string;
  analyse(position: string, options?: AnalyseOptions): Answer;
  /** Cells in board order (with gravity, columns left to right). */
  legalMoves(position: string): number[];
  play(position: string, cell: number): string;
  /** play() of a stone dropped in `column` (gravity only). */
  drop(position: string, column: number): string;
  isOver(position: string): boolean;
  /** Null while the game goes on. */
  winner(position: string): 'X' | 'O' | 'draw' | null;
  toMove(position: string): 'X' | 'O';
  fromMoves(moves: string | number[], options?: {notation?: Notation}):
      string;
  toMoves(position: string, options?: {notation?: Notation}): string;
  /** The cell a player of the level plays. */
  choose(position: string, options?: ChooseOptions): number;
  /** The principal variation: the cells played to the end. */
  pv(position: string, options?: {maxNodes?: number, timeLimit?: number}):
      number[];
  /** The game tree to `depth` plies (1 by default). */
  tree(position: string,
       options?: {depth?: number, maxNodes?: number, timeLimit?: number}):
      TreeNode;
  close(): void;
}

/** A node of the game tree, scores for the root's side to move. */
export interface TreeNode {
  /** The cell played from the parent (absent at the root). */
  cell?: number;
  column?: number;
  position: string;
  to_move: 'X' | 'O';
  value: Value;
  remoteness: number | null;
  /** The child minimax keeps at its parent. */
  best: boolean;
  /** The seeds' score: +10 - plies (a win), -10 + plies (a loss), 0;
   * cells + 1 for 10 on boards of more than 9 cells. */
  score: number;
  sign: -1 | 0 | 1;
  children: TreeNode[];
}

export interface Mnk {
  readonly version: string;
  games(): GameInfo[];
  /** `book`: an opening book's bytes, searched after (else the built-in
   * one). */
  openGame(game: GameSpec,
           options?: {searchMemory?: number,
                      book?: ArrayBuffer | ArrayBufferView}): Game;
  openTable(bytes: ArrayBuffer | ArrayBufferView): Game;
}

/** Emscripten's options: the module's bytes, or where to find them. */
export interface LoadOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

/** Loads the module: mnk_core.wasm from beside it (read in node). */
export function load(options?: LoadOptions): Promise<Mnk>;

/** A time limit in ms as the module's seconds (0: none). */
export function timeLimitSeconds(timeLimit: number): number;
