/* mnk.h: the perfect player of tic-tac-toe and its family (m,n,k-games,
 * Connect-style gravity, misère) from C, C++, or any language that calls
 * C (Python's ctypes, C#'s P/Invoke). The same code as the `play` tool:
 * its tables, its built-in tables and Connect Four book, its exact search.
 *
 *   mnk_source* ttt = NULL;
 *   mnk_game game = {3, 3, 3, 0, 0};          // width, height, k, gravity,
 *   if (mnk_open_game(&game, NULL, &ttt) != MNK_OK) {       // misère
 *     fprintf(stderr, "%s\n", mnk_last_error());
 *   }
 *   mnk_answer a;
 *   if (mnk_probe(ttt, "X.O/X.X/OO.", &a) == MNK_OK) {
 *     // a.value == MNK_WIN, a.remoteness == 1, a.best_move == 4, and
 *     // a.moves[0 .. a.num_moves - 1]: every legal move's outcome.
 *   }
 *   mnk_close(ttt);
 *
 * Positions are strings, rows from the top, '/' between rows (optional),
 * each cell 'X', 'O' or '.' ('x' and 'o' too, as `play` takes them):
 * "X.O/X.X/OO."; the side to move follows from
 * the counts (X moves first). A cell is numbered row * width +
 * column, row 0 at the top:
 *
 *   0 1 2      tic-tac-toe        0  1  2  3  4  5  6    Connect Four 7x6:
 *   3 4 5                         ...                    a move is a cell,
 *   6 7 8                         35 36 37 38 39 40 41   or its column
 *
 * Values are for the side to move; remoteness counts plies to the end
 * under perfect play (the winner takes the fastest win, the loser the
 * slowest loss; a draw lasts until the board is full).
 *
 * Errors: every call returns an mnk_status; on failure the calling
 * thread's mnk_last_error() says what was wrong and what was expected, in
 * the words `play` prints; text of the caller's (a position, a path) is
 * quoted as `play` quotes it, control and non-ASCII bytes escaped and cut
 * after 200 bytes. No C++ exception leaves a call. A table file is
 * mapped, not read: one cut short by another program while in use raises
 * SIGBUS when a probe reads past its new end, as any mapped file does (the
 * tools catch it and say so; a program that must survive it handles
 * SIGBUS itself).
 *
 * Threads: a source may be probed by many threads at once. A table's
 * probes run side by side; a searched game (Connect Four 7x6) answers as
 * many positions at once as it has searches (mnk_options.searches), the
 * others waiting for one. Opening and closing a source must not overlap
 * other calls on it: mnk_close waits for nothing, and a call on a closed
 * source, or a second mnk_close of it, is undefined (as free() twice is).
 * mnk_cancel_set may be called from any thread.
 */
#ifndef MNK_API_MNK_H_
#define MNK_API_MNK_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MNK_OK = 0,
  MNK_INVALID_ARGUMENT = 1,    /* a bad position, game, path or option */
  MNK_NOT_FOUND = 2,           /* no such file; no built-in table; a
                                  position the table marks unreachable */
  MNK_FAILED_PRECONDITION = 3, /* a table of another game or format version,
                                  a directory or special file, a book given
                                  as a table */
  MNK_DATA_LOSS = 4,           /* a damaged table, or one changed in use */
  MNK_RESOURCE_EXHAUSTED = 5,  /* out of memory; a search past max_nodes */
  MNK_DEADLINE_EXCEEDED = 6,   /* a search past max_seconds */
  MNK_CANCELLED = 7,           /* a search stopped by its mnk_cancel */
  MNK_PERMISSION_DENIED = 8,   /* a file that cannot be read or written */
  MNK_INTERNAL = 9             /* anything else (a bug: please report it) */
} mnk_status;

typedef enum { MNK_LOSS = 1, MNK_DRAW = 2, MNK_WIN = 3 } mnk_value;

/* A game: width m, height n, k in a row wins; gravity as in Connect Four;
 * misère: whoever completes k in a row loses. Booleans are 0 or 1. */
typedef struct {
  int width;
  int height;
  int k;
  int gravity;
  int misere;
} mnk_game;

/* One legal move and what it leads to, for the side to move. */
typedef struct {
  int cell;   /* row * width + column */
  int column; /* the cell's column */
  mnk_value value;
  int remoteness; /* plies to the end from the position; -1 unknown */
} mnk_move;

#define MNK_MAX_CELLS 64

/* A position's answer. The caller owns it (no allocation inside). */
typedef struct {
  int to_move; /* 0: X, 1: O */
  mnk_value value;
  int remoteness; /* -1: unknown (a compact table); 0: the game is over */
  int best_move;  /* the perfect player's cell; -1 once the game is over */
  int num_moves;  /* legal moves in board order: by cell; with gravity by
                     column, left to right */
  mnk_move moves[MNK_MAX_CELLS];
} mnk_answer;

/* How a game is opened (mnk_options_init sets the defaults). */
typedef struct {
  /* A table file (NULL: the game's built-in table, if any). */
  const char* table;
  /* The opening book of a searched game (NULL: the built-in one). */
  const char* book;
  /* 0: no built-in table or book. Default 1. */
  int builtin;
  /* A searched game: the memory of its transposition tables, shared by
   * `searches` searches of `search_threads` threads each (16 KiB to 64
   * GiB a search, 1 to 64 of each; else MNK_INVALID_ARGUMENT). Defaults
   * 16 MiB, 1 and 1. */
  uint64_t search_memory;
  int searches;
  int search_threads;
} mnk_options;

/* Limits of one answer that takes a search (mnk_probe_within), checked
 * inside the search; a table answers at once and ignores them. 0 or NULL:
 * none. max_seconds: any number from 0 up (INFINITY and anything too long
 * to reach, DBL_MAX included, are no limit); negative or NaN:
 * MNK_INVALID_ARGUMENT. */
typedef struct mnk_cancel mnk_cancel;
typedef struct {
  uint64_t max_nodes; /* positions searched: MNK_RESOURCE_EXHAUSTED past */
  double max_seconds; /* MNK_DEADLINE_EXCEEDED past */
  const mnk_cancel* cancel; /* MNK_CANCELLED once set */
} mnk_limits;

typedef struct mnk_source mnk_source;

/* "1.0.0": this library's version (semantic versioning), as every
 * tool's --version and the other bindings report it. */
const char* mnk_version(void);

/* The message of the calling thread's last failed call ("" if none). Valid
 * until that thread's next call. */
const char* mnk_last_error(void);

void mnk_options_init(mnk_options* options);

/* Opens `game` as `play` would: its built-in table, else (Connect-style)
 * the exact search after the built-in book; options->table names a table
 * file instead. `options` may be NULL (the defaults). MNK_NOT_FOUND for a
 * game with neither (the message says how to make its table). */
mnk_status mnk_open_game(const mnk_game* game, const mnk_options* options,
                         mnk_source** out);

/* Opens a table file, mapped and checked as `play` checks it (the header,
 * the size, each page's checksum as probes read it). */
mnk_status mnk_open_table(const char* path, mnk_source** out);

/* Frees a source (NULL is fine). */
void mnk_close(mnk_source* source);

/* The source's game; whether it answers by search (1) or from a table. */
mnk_status mnk_source_game(const mnk_source* source, mnk_game* game,
                           int* searched);

/* The answer to a position: value, remoteness, best move and every legal
 * move's outcome. A searched position takes as long as it takes. */
mnk_status mnk_probe(mnk_source* source, const char* position,
                     mnk_answer* answer);

/* mnk_probe within `limits` (NULL: none). */
mnk_status mnk_probe_within(mnk_source* source, const char* position,
                            const mnk_limits* limits, mnk_answer* answer);

/* mnk_probe_within asking for less: the value, remoteness and best move
 * alone. num_moves is 0 when a search answered (it looks for the best move
 * alone, far sooner); a table or the book lists the moves anyway. */
mnk_status mnk_probe_best(mnk_source* source, const char* position,
                          const mnk_limits* limits, mnk_answer* answer);

/* `count` positions: answers[i] and statuses[i] for each (statuses may be
 * NULL). Returns MNK_OK when every one was answered, else the first
 * failure's status (mnk_last_error says which position). */
mnk_status mnk_probe_many(mnk_source* source, const char* const* positions,
                          size_t count, mnk_answer* answers,
                          mnk_status* statuses);

/* Room for any position string or move sequence, its NUL included. */
#define MNK_TEXT_SIZE 256

/* Who won a finished game. */
typedef enum {
  MNK_WINNER_NONE = 0, /* the game goes on */
  MNK_WINNER_X = 1,
  MNK_WINNER_O = 2,
  MNK_WINNER_DRAW = 3 /* a full board without a line */
} mnk_winner;

/* What the rules say of a position (mnk_rules): no table is read. */
typedef struct {
  int to_move;       /* 0: X, 1: O */
  int over;          /* 1 once the game is over (no legal move) */
  mnk_winner winner; /* MNK_WINNER_NONE while the game goes on */
  int num_moves;     /* legal moves, in board order: cells ascending; with */
  int moves[MNK_MAX_CELLS]; /* gravity, the columns' cells left to right */
} mnk_state;

/* The rules calls, for the source's game; each refuses a bad position,
 * and a move that is off the board, taken, not playable or played once
 * the game is over, with MNK_INVALID_ARGUMENT and a message saying why.
 * Positions are written to `out`, MNK_TEXT_SIZE bytes. */
mnk_status mnk_rules(const mnk_source* source, const char* position,
                     mnk_state* state);
/* The position after the side to move plays `cell`. */
mnk_status mnk_play(const mnk_source* source, const char* position, int cell,
                    char* out);
/* The same, a stone dropped in `column` (gravity only). */
mnk_status mnk_drop(const mnk_source* source, const char* position, int column,
                    char* out);
/* The position after `moves` from the empty board, X's first, written in
 * `notation`: "cells" ("4 0 8": 0-based cells, separated by spaces or
 * commas), "columns" ("3 3 4": 0-based columns, gravity only) or "digits"
 * ("4453": 1-based columns, a digit each, as Pons' solver and
 * connect-four-ai write them; gravity only). */
mnk_status mnk_from_moves(const mnk_source* source, const char* moves,
                          const char* notation, char* out);
/* A sequence of moves, in `notation`, that builds `position`. */
mnk_status mnk_to_moves(const mnk_source* source, const char* position,
                        const char* notation, char* out);

/* A level of play (mnk_level_init: perfect, lowest cell among equally
 * good moves, unseeded). Level 1 plays a random legal move, 10 the
 * perfect one; in between, move i with probability proportional to
 * exp(u_i / T), u_i +1 a win, 0 a draw, -1 a loss (less a thousandth a
 * ply of its remoteness), T = 4 * 0.625^(level - 2) (docs/api.md). */
typedef struct {
  int level;     /* 1 (random) to 10 (perfect) */
  int vary;      /* 1: level 10 picks at random among equally good moves */
  int seeded;    /* 1: the same seed, level and position choose the same */
  uint64_t seed; /*    move every time, on every machine */
} mnk_level;

void mnk_level_init(mnk_level* level);

/* The move `level` (NULL: perfect) plays at `position`, a game in play;
 * a searched game's answer within `limits` (NULL: none). */
mnk_status mnk_choose(mnk_source* source, const char* position,
                      const mnk_level* level, const mnk_limits* limits,
                      int* cell);

/* The principal variation: the moves both sides play from `position`
 * under perfect play to the end, into cells[0 .. *count - 1] (room for
 * MNK_MAX_CELLS). *complete is 0 when a search's limits (max_seconds for
 * the whole line, max_nodes for each move) stopped it first: the line is
 * then as far as it got. */
mnk_status mnk_pv(mnk_source* source, const char* position,
                  const mnk_limits* limits, int* cells, int* count,
                  int* complete);

/* One node of a game tree, for teaching minimax (mnk_tree). */
typedef struct {
  int parent; /* the parent's index in the array; -1 at the root */
  int depth;  /* plies from the root */
  int cell;   /* the move from the parent (-1 at the root) */
  int to_move;
  mnk_value value; /* for the side to move here */
  int remoteness;  /* plies to the end from here; -1 unknown */
  int best;        /* 1: the child minimax keeps at its parent */
  int score;       /* the seeds' score (+10 - plies to a win, -10 + plies to
                      a loss, 0 a draw) for the root's side to move, plies
                      counted from the root (cells + 1 for 10 past 9 cells) */
  int sign;        /* +1, 0, -1 */
} mnk_tree_node;

/* The game tree of `position` to `depth` plies (0 to 64), into
 * nodes[0 .. *count - 1] in preorder (a node, then its children's
 * subtrees in board order; nodes[0] the root). MNK_RESOURCE_EXHAUSTED
 * when it has more than `capacity` nodes or more than 100,000 (the
 * message says which depth fits); a searched game's nodes within
 * `limits` (NULL: none) each.
 *
 *   mnk_tree_node nodes[10];
 *   int count;
 *   mnk_tree(ttt, "XO./XO./...", 1, NULL, nodes, 10, &count);
 *   // count == 6; nodes[3].cell == 6, .best == 1, .score == 9 */
mnk_status mnk_tree(mnk_source* source, const char* position, int depth,
                    const mnk_limits* limits, mnk_tree_node* nodes,
                    int capacity, int* count);

/* A flag that stops searches from another thread. */
mnk_status mnk_cancel_new(mnk_cancel** out);
void mnk_cancel_set(mnk_cancel* cancel);
void mnk_cancel_reset(mnk_cancel* cancel);
void mnk_cancel_free(mnk_cancel* cancel);

/* Called now and then while a game is solved: the phase ("marking",
 * "solving"), the layer (stones on the board, -1: none), and the work done
 * of `total`: every quarter second from a thread of the solver's, and once
 * at the end from the thread that called mnk_solve. It may read and write
 * the caller's `user` data (guarding it from the caller's other threads)
 * and call mnk_* functions on other sources; the solve waits for it to
 * return (mnk_solve_options.cancel stops it). */
typedef void (*mnk_progress)(void* user, const char* phase, int layer,
                             uint64_t done, uint64_t total);

/* How a game is solved (mnk_solve_options_init sets the defaults), as
 * `solve`'s flags say it (docs/tables.md, docs/big-boards.md). */
typedef struct {
  /* "auto" (or NULL: full up to 64 MiB, else compressed, else what fits
   * in max_memory), "full", "compact", "compressed" or "book". */
  const char* layout;
  /* -1: the layout's own; 0: a compressed table without remoteness. */
  int remoteness;
  int threads;         /* 0: one per core; at most 256 */
  uint64_t max_memory; /* 0: 3/4 of the machine's */
  /* A directory for the solved tiers (NULL: in memory); resume 1
   * continues the solve kept there; tier_indices a power of two (0:
   * 1048576). */
  const char* work_dir;
  int resume;
  uint64_t tier_indices;
  mnk_progress progress; /* NULL: none */
  void* user;
  const mnk_cancel* cancel; /* MNK_CANCELLED once set; nothing written */
} mnk_solve_options;

/* What a solve will take, before it starts, as `solve --estimate` says. */
typedef struct {
  char layout[16];     /* the layout chosen: "full", "compressed", ... */
  int remoteness;      /* 1: the table keeps remoteness */
  uint64_t indices;    /* boards the solve tests */
  uint64_t memory;     /* the most it holds (0 for a book: unknown) */
  uint64_t max_memory; /* the limit it is held to */
  int fits;            /* 0: memory > max_memory; mnk_solve_with refuses */
  double seconds_low, seconds_high; /* from the rates measured here */
  double table_bytes_low, table_bytes_high;
  double work_dir_bytes_low, work_dir_bytes_high; /* 0 in memory */
} mnk_solve_estimate;

/* What a solve found and wrote. */
typedef struct {
  mnk_value start_value; /* for X, the first player */
  int start_remoteness;
  uint64_t reachable; /* positions */
  uint64_t table_bytes;
  double seconds;
} mnk_solve_result;

void mnk_solve_options_init(mnk_solve_options* options);

/* The estimate of solving `game` with `options` (NULL: the defaults);
 * MNK_INVALID_ARGUMENT for options that do not go together (the message
 * says why). Solves nothing. */
mnk_status mnk_estimate(const mnk_game* game, const mnk_solve_options* options,
                        mnk_solve_estimate* out);

/* Solves `game` completely with `options` (NULL: the defaults) and writes
 * its table to `path`; `out` may be NULL. MNK_RESOURCE_EXHAUSTED for a
 * solve past max_memory (the message says what would fit) or a full work
 * dir; MNK_PERMISSION_DENIED and the writer's errors for a table that
 * cannot be written (checked before solving). */
mnk_status mnk_solve_with(const mnk_game* game, const char* path,
                          const mnk_solve_options* options,
                          mnk_solve_result* out);

/* mnk_solve_with the full layout, `threads`, `max_memory` and `progress`:
 * for small games (4x4 takes a second, 5x4 with gravity a few). */
mnk_status mnk_solve(const mnk_game* game, const char* path, int threads,
                     uint64_t max_memory, mnk_progress progress, void* user);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MNK_API_MNK_H_ */
