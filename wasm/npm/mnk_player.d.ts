// Types of mnk_player.mjs: the perfect player in a web worker, for pages
// (docs/javascript.md).
import type {Answer, AnalyseOptions, ChooseOptions, GameInfo, TreeNode}
    from './mnk.mjs';

export interface PlayerOptions {
  /** Where mnk_core.wasm is (default: beside the module). */
  wasmUrl?: string | URL;
  /** Bytes of Connect Four's transposition table (16 MiB). */
  searchMemory?: number;
  /**
   * A game's id to the URL of its opening book, fetched when the game is
   * first asked for (default: Connect Four's opening table,
   * 7x6k4g-opening.mnk beside the module); the built-in book answers
   * until it arrives.
   */
  books?: Record<string, string | URL>;
}

export interface PlayerAnalyseOptions extends AnalyseOptions {
  /** An AbortController's signal: rejects with an AbortError. */
  signal?: AbortSignal;
}

export class Player {
  static start(options?: PlayerOptions): Promise<Player>;
  games(): Promise<GameInfo[]>;
  /** `game`: an id of games(), such as '7x6k4g'. */
  analyse(game: string, position: string,
          options?: PlayerAnalyseOptions): Promise<Answer>;
  /** The principal variation: the cells played to the end. */
  pv(game: string, position: string,
     options?: PlayerAnalyseOptions): Promise<number[]>;
  /** The game tree to `depth` plies (1 by default). */
  tree(game: string, position: string,
       options?: PlayerAnalyseOptions & {depth?: number}): Promise<TreeNode>;
  /** The move a player of the level makes, and the position after it. */
  choose(game: string, position: string,
         options?: ChooseOptions & {signal?: AbortSignal}):
      Promise<{cell: number, position: string}>;
  close(): void;
}
