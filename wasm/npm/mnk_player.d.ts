// Types of mnk_player.mjs: the perfect player in a web worker, for pages
// (docs/javascript.md).
import type {Answer, AnalyseOptions, GameInfo} from './mnk.mjs';

export interface PlayerOptions {
  /** Where mnk_core.wasm is (default: beside the module). */
  wasmUrl?: string | URL;
  /** Bytes of Connect Four's transposition table (16 MiB). */
  searchMemory?: number;
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
  close(): void;
}
