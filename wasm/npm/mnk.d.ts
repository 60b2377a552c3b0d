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
  move: number;
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
}

/** Errors carry the code the C library and Python name. */
export interface MnkError extends Error {
  code: 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'FAILED_PRECONDITION' |
      'DATA_LOSS' | 'RESOURCE_EXHAUSTED' | 'DEADLINE_EXCEEDED' |
      'CANCELLED' | 'INTERNAL';
}

export interface Game {
  readonly title: string;
  analyse(position: string, options?: AnalyseOptions): Answer;
  close(): void;
}

export interface Mnk {
  readonly version: string;
  games(): GameInfo[];
  openGame(game: GameSpec, options?: {searchMemory?: number}): Game;
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
