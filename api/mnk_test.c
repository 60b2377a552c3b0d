/* Every call of the C library (mnk.h), from C99, bad input included: the
 * built-in tables, a table solved in-process and opened from its file,
 * Connect Four by search with its limits and a cancel from another thread,
 * many threads probing one source, and each error's status and message. */
#define _POSIX_C_SOURCE 200809L
#include "api/mnk.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                     \
  do {                                                                  \
    ++checks;                                                           \
    if (!(cond)) {                                                      \
      ++failures;                                                       \
      fprintf(stderr, "%s:%d: failed: %s (last error: %s)\n", __FILE__, \
              __LINE__, #cond, mnk_last_error());                       \
    }                                                                   \
  } while (0)

static int contains(const char* text, const char* part) {
  return strstr(text, part) != NULL;
}

static char* temp_path(const char* name) {
  static char path[4096];
  const char* dir = getenv("TEST_TMPDIR");
  snprintf(path, sizeof(path), "%s/%s", dir != NULL ? dir : "/tmp", name);
  return path;
}

static void test_tictactoe(void) {
  mnk_game game = {3, 3, 3, 0, 0};
  mnk_source* ttt = NULL;
  CHECK(mnk_open_game(&game, NULL, &ttt) == MNK_OK);
  mnk_game got;
  int searched = -1;
  CHECK(mnk_source_game(ttt, &got, &searched) == MNK_OK);
  CHECK(got.width == 3 && got.height == 3 && got.k == 3 && !got.gravity &&
        !got.misere && searched == 0);
  mnk_answer a;
  CHECK(mnk_probe(ttt, "X.O/X.X/OO.", &a) == MNK_OK);
  CHECK(a.to_move == 0 && a.value == MNK_WIN && a.remoteness == 1 &&
        a.best_move == 4 && a.num_moves == 3);
  CHECK(a.moves[0].cell == 1 && a.moves[0].value == MNK_LOSS &&
        a.moves[0].remoteness == 2);
  CHECK(a.moves[1].cell == 4 && a.moves[1].value == MNK_WIN);
  /* The empty board: a draw in 9, the corner first (the lowest cell). */
  CHECK(mnk_probe(ttt, ".........", &a) == MNK_OK);
  CHECK(a.value == MNK_DRAW && a.remoteness == 9 && a.best_move == 0 &&
        a.num_moves == 9);
  /* A game over: no move. */
  CHECK(mnk_probe(ttt, "XXX/OO./...", &a) == MNK_OK);
  CHECK(a.value == MNK_LOSS && a.remoteness == 0 && a.best_move == -1 &&
        a.num_moves == 0 && a.to_move == 1);
  /* Bad positions. */
  CHECK(mnk_probe(ttt, "XXXX", &a) == MNK_INVALID_ARGUMENT);
  CHECK(contains(mnk_last_error(), "position 'XXXX'"));
  CHECK(mnk_probe(ttt, "OOO/.../...", &a) == MNK_INVALID_ARGUMENT);
  CHECK(mnk_probe(ttt, NULL, &a) == MNK_INVALID_ARGUMENT);
  CHECK(mnk_probe(NULL, ".........", &a) == MNK_INVALID_ARGUMENT);
  /* A batch: the first failure's status, each position's own. */
  const char* positions[] = {".........", "X........", "bad", "XO......."};
  mnk_answer answers[4];
  mnk_status statuses[4];
  CHECK(mnk_probe_many(ttt, positions, 4, answers, statuses) ==
        MNK_INVALID_ARGUMENT);
  CHECK(contains(mnk_last_error(), "position 2: position 'bad'"));
  CHECK(statuses[0] == MNK_OK && statuses[1] == MNK_OK &&
        statuses[2] == MNK_INVALID_ARGUMENT && statuses[3] == MNK_OK);
  CHECK(answers[1].to_move == 1 && answers[1].value == MNK_DRAW &&
        answers[3].value == MNK_WIN);
  CHECK(mnk_probe_many(ttt, positions, 2, answers, NULL) == MNK_OK);
  mnk_close(ttt);

  game.misere = 1;
  mnk_source* misere = NULL;
  CHECK(mnk_open_game(&game, NULL, &misere) == MNK_OK);
  CHECK(mnk_probe(misere, ".........", &a) == MNK_OK);
  CHECK(a.value == MNK_DRAW && a.best_move == 4); /* the centre alone */
  mnk_close(misere);
}

static void test_bad_games_and_files(void) {
  mnk_source* s = NULL;
  mnk_game bad = {3, 3, 0, 0, 0};
  CHECK(mnk_open_game(&bad, NULL, &s) == MNK_INVALID_ARGUMENT && s == NULL);
  CHECK(contains(mnk_last_error(), "k"));
  CHECK(mnk_open_game(NULL, NULL, &s) == MNK_INVALID_ARGUMENT);
  mnk_game g444 = {4, 4, 4, 0, 0};
  CHECK(mnk_open_game(&g444, NULL, &s) == MNK_NOT_FOUND);
  CHECK(contains(mnk_last_error(),
                 "no built-in table for 4,4,4: mnk_solve(&game, FILE, ...) "
                 "makes one (`solve --width=4 --height=4 --k=4 --estimate` "
                 "says what it takes), and mnk_open_game with options.table "
                 "= FILE plays from it"));
  mnk_game g885 = {8, 8, 5, 0, 0};
  CHECK(mnk_open_game(&g885, NULL, &s) == MNK_NOT_FOUND);
  CHECK(contains(mnk_last_error(), "64 cells"));
  CHECK(mnk_open_table("/nonexistent/t.mnk", &s) == MNK_NOT_FOUND);
  CHECK(mnk_open_table("", &s) == MNK_INVALID_ARGUMENT);
  CHECK(mnk_open_table(NULL, &s) == MNK_INVALID_ARGUMENT);
  const char* dir = temp_path("a-dir.mnk");
  mkdir(dir, 0755);
  CHECK(mnk_open_table(dir, &s) == MNK_FAILED_PRECONDITION);
  CHECK(contains(mnk_last_error(), "directory"));
  const char* junk = temp_path("junk.mnk");
  FILE* f = fopen(junk, "w");
  fputs(
      "this is not a table file, though it is long enough to look at: "
      "........................................",
      f);
  fclose(f);
  CHECK(mnk_open_table(junk, &s) == MNK_DATA_LOSS);
  CHECK(contains(mnk_last_error(), "not a table file"));
  mnk_options options;
  mnk_options_init(&options);
  CHECK(options.builtin == 1 && options.searches == 1 &&
        options.search_threads == 1 &&
        options.search_memory == (uint64_t)16 << 20);
  mnk_game c4 = {7, 6, 4, 1, 0};
  options.search_memory = 1024;
  CHECK(mnk_open_game(&c4, &options, &s) == MNK_INVALID_ARGUMENT);
  CHECK(contains(mnk_last_error(), "too little"));
}

static int progress_calls = 0;
static uint64_t progress_total = 0;
static void on_progress(void* user, const char* phase, int layer, uint64_t done,
                        uint64_t total) {
  (void)phase;
  (void)layer;
  ++*(int*)user;
  progress_total = total;
  if (done > total) progress_total = 0;
}

static void test_solve_and_open_table(void) {
  mnk_game g443 = {4, 4, 3, 0, 0};
  const char* path = temp_path("4x4k3.mnk");
  CHECK(mnk_solve(&g443, path, 2, 0, on_progress, &progress_calls) == MNK_OK);
  CHECK(progress_calls >= 1 && progress_total > 0);
  mnk_source* t = NULL;
  CHECK(mnk_open_table(path, &t) == MNK_OK);
  mnk_game got;
  CHECK(mnk_source_game(t, &got, NULL) == MNK_OK && got.width == 4 &&
        got.k == 3);
  mnk_answer a;
  CHECK(mnk_probe(t, "..../..../..../....", &a) == MNK_OK);
  /* A first-player win in 5 (the published value), as `solve` prints. */
  CHECK(a.value == MNK_WIN && a.remoteness == 5 && a.best_move == 5 &&
        a.num_moves == 16);
  mnk_close(t);
  /* The table named as a game's, and as another game's. */
  mnk_options options;
  mnk_options_init(&options);
  options.table = path;
  CHECK(mnk_open_game(&g443, &options, &t) == MNK_OK);
  mnk_close(t);
  mnk_game other = {4, 4, 4, 0, 0};
  CHECK(mnk_open_game(&other, &options, &t) == MNK_FAILED_PRECONDITION);
  CHECK(contains(mnk_last_error(), "not for the game asked for"));
  /* Bad solves. */
  CHECK(mnk_solve(&g443, "", 1, 0, NULL, NULL) == MNK_INVALID_ARGUMENT);
  CHECK(mnk_solve(&g443, path, -1, 0, NULL, NULL) == MNK_INVALID_ARGUMENT);
  CHECK(mnk_solve(&g443, "/nonexistent/dir/t.mnk", 1, 0, NULL, NULL) != MNK_OK);
  mnk_game g444 = {4, 4, 4, 0, 0};
  CHECK(mnk_solve(&g444, path, 1, 1 << 20, NULL, NULL) ==
        MNK_RESOURCE_EXHAUSTED);
  mnk_game g76 = {7, 6, 4, 0, 0};
  CHECK(mnk_solve(&g76, path, 1, 0, NULL, NULL) == MNK_RESOURCE_EXHAUSTED);
  CHECK(contains(mnk_last_error(), "solving 7,6,4 needs"));
}

/* The solve's options: an estimate first, then a compressed table without
 * remoteness, solved in tiers; a cancelled solve writes nothing. */
static void test_estimate_and_solve_with_options(void) {
  mnk_game g444 = {4, 4, 4, 1, 0};
  mnk_solve_options o;
  mnk_solve_options_init(&o);
  mnk_solve_estimate e;
  CHECK(mnk_estimate(&g444, &o, &e) == MNK_OK);
  CHECK(strcmp(e.layout, "full") == 0 && e.remoteness == 1 &&
        e.indices == 201755 && e.fits == 1 && e.memory <= e.max_memory);
  CHECK(e.seconds_low <= e.seconds_high && e.table_bytes_low > 0);
  o.layout = "compressed";
  o.remoteness = 0;
  char* work_dir = strdup(temp_path("c-work"));
  o.work_dir = work_dir;
  o.tier_indices = 4096;
  CHECK(mnk_estimate(&g444, &o, &e) == MNK_OK);
  CHECK(strcmp(e.layout, "compressed") == 0 && e.remoteness == 0);
  const char* path = temp_path("4x4g.mnk");
  mnk_solve_result r;
  CHECK(mnk_solve_with(&g444, path, &o, &r) == MNK_OK);
  CHECK(r.start_value == MNK_DRAW && r.reachable > 0 && r.table_bytes > 0);
  mnk_source* t = NULL;
  CHECK(mnk_open_table(path, &t) == MNK_OK);
  mnk_answer a;
  CHECK(mnk_probe(t, "..../..../..../....", &a) == MNK_OK);
  CHECK(a.value == MNK_DRAW && a.remoteness == -1);
  mnk_close(t);
  /* Options that do not go together, a bad layout, a cancel. */
  o.layout = "full";
  CHECK(mnk_estimate(&g444, &o, &e) == MNK_INVALID_ARGUMENT);
  CHECK(contains(mnk_last_error(), "full tables always keep remoteness"));
  o.layout = "tiny";
  CHECK(mnk_solve_with(&g444, path, &o, NULL) == MNK_INVALID_ARGUMENT);
  CHECK(contains(mnk_last_error(), "layout 'tiny': expected auto"));
  mnk_solve_options_init(&o);
  o.remoteness = 2;
  CHECK(mnk_estimate(&g444, &o, &e) == MNK_INVALID_ARGUMENT);
  mnk_solve_options_init(&o);
  mnk_cancel* cancel = NULL;
  CHECK(mnk_cancel_new(&cancel) == MNK_OK);
  mnk_cancel_set(cancel);
  o.cancel = cancel;
  const char* cancelled = temp_path("cancelled.mnk");
  CHECK(mnk_solve_with(&g444, cancelled, &o, NULL) == MNK_CANCELLED);
  CHECK(fopen(cancelled, "rb") == NULL);
  mnk_cancel_free(cancel);
  free(work_dir);
}

/* Connect Four 7x6: by search past the built-in opening table (12 stones):
 * most of a second. */
static const char* kHard = "......./......./.X...../.OO..../XOX.O../XXO.X.O";

struct canceller {
  mnk_cancel* cancel;
};
static void* cancel_soon(void* arg) {
  const struct timespec wait = {0, 200 * 1000 * 1000};
  nanosleep(&wait, NULL);
  mnk_cancel_set(((struct canceller*)arg)->cancel);
  return NULL;
}

static void test_connect_four(void) {
  mnk_game c4 = {7, 6, 4, 1, 0};
  mnk_options options;
  mnk_options_init(&options);
  options.search_memory = 64 << 20;
  options.searches = 2;
  mnk_source* s = NULL;
  CHECK(mnk_open_game(&c4, &options, &s) == MNK_OK);
  int searched = 0;
  mnk_game got;
  CHECK(mnk_source_game(s, &got, &searched) == MNK_OK && searched == 1);
  mnk_answer a;
  CHECK(mnk_probe(s, "......./......./......./......./......./.......", &a) ==
        MNK_OK);
  CHECK(a.value == MNK_WIN && a.remoteness == 41 && a.best_move == 38 &&
        a.num_moves == 7);
  CHECK(a.moves[3].cell == 38 && a.moves[3].column == 3);
  /* A quick search: the same answer as play's. */
  CHECK(mnk_probe(s, "......./......./...O.../..XX.O./.OOXXX./OXXOOXO", &a) ==
        MNK_OK);
  CHECK(a.best_move == 16);
  /* Asking for less: the value, remoteness and best move alone, off the
   * book; a table lists the moves anyway. */
  const char* off_book = "......./......./......./...O.../.OXXO.O/XXOXO.X";
  mnk_answer best;
  CHECK(mnk_probe_best(s, off_book, NULL, &best) == MNK_OK);
  CHECK(mnk_probe(s, off_book, &a) == MNK_OK);
  CHECK(best.value == a.value && best.remoteness == a.remoteness &&
        best.best_move == a.best_move && best.num_moves == 0 &&
        a.num_moves == 7);
  CHECK(mnk_probe_best(s, "XXXX", NULL, &best) == MNK_INVALID_ARGUMENT);
  /* The limits of a long search. */
  mnk_limits limits = {1000, 0, NULL};
  CHECK(mnk_probe_within(s, kHard, &limits, &a) == MNK_RESOURCE_EXHAUSTED);
  CHECK(contains(mnk_last_error(), "1000 positions"));
  limits.max_nodes = 0;
  limits.max_seconds = 0.2;
  CHECK(mnk_probe_within(s, kHard, &limits, &a) == MNK_DEADLINE_EXCEEDED);
  CHECK(contains(mnk_last_error(), "took more than 0.2 s"));
  limits.max_seconds = -1;
  CHECK(mnk_probe_within(s, kHard, &limits, &a) == MNK_INVALID_ARGUMENT);
  mnk_cancel* cancel = NULL;
  CHECK(mnk_cancel_new(&cancel) == MNK_OK);
  struct canceller c = {cancel};
  pthread_t thread;
  pthread_create(&thread, NULL, cancel_soon, &c);
  limits.max_seconds = 0;
  limits.cancel = cancel;
  CHECK(mnk_probe_within(s, kHard, &limits, &a) == MNK_CANCELLED);
  pthread_join(thread, NULL);
  /* Reset, the flag lets a search run again; with time and cancel both. */
  mnk_cancel_reset(cancel);
  limits.max_seconds = 0.1;
  CHECK(mnk_probe_within(s, kHard, &limits, &a) == MNK_DEADLINE_EXCEEDED);
  mnk_cancel_set(cancel);
  limits.max_seconds = 5;
  CHECK(mnk_probe_within(s, kHard, &limits, &a) == MNK_CANCELLED);
  mnk_cancel_free(cancel);
  /* Any time limit too long to reach is no limit; NaN is refused. */
  const double forever[] = {INFINITY, 1e10, 1e20, 1e300, DBL_MAX};
  mnk_limits unlimited = {0, 0, NULL};
  for (int i = 0; i < 5; ++i) {
    unlimited.max_seconds = forever[i];
    CHECK(mnk_probe_within(s, "......./......./...O.../..XX.O./.OOXXX./OXXOOXO",
                           &unlimited, &a) == MNK_OK &&
          a.best_move == 16);
  }
  unlimited.max_seconds = NAN;
  CHECK(mnk_probe_within(s, kHard, &unlimited, &a) == MNK_INVALID_ARGUMENT);
  CHECK(contains(mnk_last_error(), "max_seconds nan: expected a number"));
  mnk_close(s);
  options.search_memory = (uint64_t)1 << 40;
  CHECK(mnk_open_game(&c4, &options, &s) == MNK_INVALID_ARGUMENT && s == NULL);
  CHECK(contains(mnk_last_error(), "expected at most 64 GiB"));
}

/* A message quotes user text escaped and cut, as play's do: a 10 MB
 * position gives a message of a few hundred bytes, control bytes escaped. */
static void test_messages_quote_user_text(void) {
  mnk_game game = {3, 3, 3, 0, 0};
  mnk_source* ttt = NULL;
  CHECK(mnk_open_game(&game, NULL, &ttt) == MNK_OK);
  const size_t size = 10 << 20;
  char* big = malloc(size + 1);
  memset(big, 'X', size);
  big[size] = '\0';
  mnk_answer a;
  CHECK(mnk_probe(ttt, big, &a) == MNK_INVALID_ARGUMENT);
  CHECK(strlen(mnk_last_error()) < 400);
  CHECK(contains(mnk_last_error(), "(10485760 bytes)"));
  free(big);
  CHECK(mnk_probe(ttt, "X\x1b[31m\n", &a) == MNK_INVALID_ARGUMENT);
  CHECK(contains(mnk_last_error(), "position 'X\\x1b[31m\\n'"));
  for (const char* c = mnk_last_error(); *c != '\0'; ++c) {
    CHECK(*c >= 0x20 && *c < 0x7f);
  }
  mnk_close(ttt);
}

/* Many threads probe one source: every answer the same as one thread's. */
struct prober {
  mnk_source* source;
  const char* const* positions;
  int count;
  const mnk_answer* expected;
  int wrong;
};
static void* probe_all(void* arg) {
  struct prober* p = (struct prober*)arg;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < p->count; ++i) {
      mnk_answer a;
      if (mnk_probe(p->source, p->positions[i], &a) != MNK_OK ||
          memcmp(&a, &p->expected[i], sizeof(a)) != 0) {
        ++p->wrong;
      }
    }
  }
  return NULL;
}

static void test_threads(void) {
  mnk_game c4x4 = {4, 4, 4, 1, 0};
  mnk_source* s = NULL;
  CHECK(mnk_open_game(&c4x4, NULL, &s) == MNK_OK);
  static const char* positions[] = {
      "..../..../..../....", "..../..../..../X...", "..../..../..../XO..",
      "..../..../O.../X...", "..../..../.X../.OX.", "..../..../O.../XX.O"};
  mnk_answer expected[6];
  CHECK(mnk_probe_many(s, positions, 6, expected, NULL) == MNK_OK);
  struct prober probers[8];
  pthread_t threads[8];
  for (int t = 0; t < 8; ++t) {
    struct prober p = {s, positions, 6, expected, 0};
    probers[t] = p;
    pthread_create(&threads[t], NULL, probe_all, &probers[t]);
  }
  int wrong = 0;
  for (int t = 0; t < 8; ++t) {
    pthread_join(threads[t], NULL);
    wrong += probers[t].wrong;
  }
  CHECK(wrong == 0);
  mnk_close(s);
}

/* One game from the empty board, X at level x_level and O at o_level
 * (seeded with `seed`), by the rules calls alone: the winner. */
static mnk_winner play_game(mnk_source* source, const char* start, int x_level,
                            int o_level, uint64_t seed, char* moves_played) {
  char position[MNK_TEXT_SIZE];
  strcpy(position, start);
  mnk_state state;
  moves_played[0] = '\0';
  for (;;) {
    CHECK(mnk_rules(source, position, &state) == MNK_OK);
    if (state.over) break;
    mnk_level level;
    mnk_level_init(&level);
    level.level = state.to_move == 0 ? x_level : o_level;
    level.seeded = 1;
    level.seed = seed;
    int cell = -1;
    CHECK(mnk_choose(source, position, &level, NULL, &cell) == MNK_OK);
    int legal = 0;
    for (int i = 0; i < state.num_moves; ++i) legal |= state.moves[i] == cell;
    CHECK(legal);
    char next[MNK_TEXT_SIZE];
    CHECK(mnk_play(source, position, cell, next) == MNK_OK);
    strcpy(position, next);
    sprintf(moves_played + strlen(moves_played), "%s%d",
            moves_played[0] == '\0' ? "" : " ", cell);
  }
  CHECK(state.num_moves == 0 && state.winner != MNK_WINNER_NONE);
  return state.winner;
}

static void test_rules_levels_and_pv(void) {
  mnk_game game = {3, 3, 3, 0, 0};
  mnk_source* ttt = NULL;
  CHECK(mnk_open_game(&game, NULL, &ttt) == MNK_OK);
  mnk_state state;
  CHECK(mnk_rules(ttt, "XXX/OO./...", &state) == MNK_OK);
  CHECK(state.over == 1 && state.winner == MNK_WINNER_X && state.to_move == 1 &&
        state.num_moves == 0);
  CHECK(mnk_rules(ttt, "X../.O./...", &state) == MNK_OK);
  CHECK(state.over == 0 && state.winner == MNK_WINNER_NONE &&
        state.num_moves == 7 && state.moves[0] == 1 && state.moves[6] == 8);
  char out[MNK_TEXT_SIZE];
  CHECK(mnk_play(ttt, "X../.O./...", 4, out) == MNK_INVALID_ARGUMENT);
  CHECK(strcmp(mnk_last_error(), "cell 4 is taken") == 0);
  CHECK(mnk_play(ttt, "XXX/OO./...", 8, out) == MNK_INVALID_ARGUMENT);
  CHECK(strcmp(mnk_last_error(),
               "the game is over (X won): no move is legal") == 0);
  CHECK(mnk_play(ttt, "X../.O./...", 8, out) == MNK_OK);
  CHECK(strcmp(out, "X../.O./..X") == 0);
  CHECK(mnk_from_moves(ttt, "4 0 8", "cells", out) == MNK_OK);
  CHECK(strcmp(out, "O../.X./..X") == 0);
  CHECK(mnk_to_moves(ttt, "O../.X./..X", "cells", out) == MNK_OK);
  CHECK(strcmp(out, "4 0 8") == 0);
  CHECK(mnk_from_moves(ttt, "4453", "digits", out) == MNK_INVALID_ARGUMENT);
  CHECK(mnk_from_moves(ttt, "4", "pons", out) == MNK_INVALID_ARGUMENT);
  CHECK(strcmp(mnk_last_error(),
               "notation 'pons': expected cells, columns or digits") == 0);
  CHECK(mnk_drop(ttt, ".........", 0, out) == MNK_INVALID_ARGUMENT);

  /* Levels: perfect play never loses, and draws against itself; the
   * random player loses most games to it. */
  char moves[MNK_TEXT_SIZE];
  CHECK(play_game(ttt, ".........", 10, 10, 1, moves) == MNK_WINNER_DRAW);
  int pv[MNK_MAX_CELLS], count = 0, complete = 0;
  CHECK(mnk_pv(ttt, ".........", NULL, pv, &count, &complete) == MNK_OK);
  CHECK(count == 9 && complete == 1);
  char line[MNK_TEXT_SIZE] = "";
  for (int i = 0; i < count; ++i) {
    sprintf(line + strlen(line), "%s%d", i == 0 ? "" : " ", pv[i]);
  }
  CHECK(strcmp(line, moves) == 0); /* perfect play is the pv */
  /* The tree: the root, then each move's subtree in board order. */
  mnk_tree_node nodes[32];
  CHECK(mnk_tree(ttt, "XO./XO./...", 1, NULL, nodes, 32, &count) == MNK_OK);
  CHECK(count == 6 && nodes[0].parent == -1 && nodes[0].cell == -1);
  CHECK(nodes[0].value == MNK_WIN && nodes[0].remoteness == 1);
  CHECK(nodes[3].cell == 6 && nodes[3].best == 1 && nodes[3].score == 9);
  CHECK(nodes[3].parent == 0 && nodes[3].depth == 1 && nodes[3].sign == 1);
  CHECK(nodes[1].cell == 2 && nodes[1].best == 0 && nodes[1].score == -8);
  CHECK(nodes[4].cell == 7 && nodes[4].score == 0 && nodes[4].to_move == 1);
  CHECK(mnk_tree(ttt, "XO./XO./...", 2, NULL, nodes, 32, &count) == MNK_OK);
  CHECK(count == 22 && nodes[2].parent == 1 && nodes[2].depth == 2);
  CHECK(mnk_tree(ttt, "XO./XO./...", 2, NULL, nodes, 21, &count) ==
        MNK_RESOURCE_EXHAUSTED);
  CHECK(strstr(mnk_last_error(), "more than 21 nodes") != NULL);
  CHECK(mnk_tree(ttt, ".........", 9, NULL, nodes, 32, &count) ==
        MNK_RESOURCE_EXHAUSTED);
  CHECK(mnk_tree(ttt, ".........", 65, NULL, nodes, 32, &count) ==
        MNK_INVALID_ARGUMENT);
  int x_wins = 0, o_wins = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const mnk_winner w = play_game(ttt, ".........", 10, 1, seed, moves);
    CHECK(w != MNK_WINNER_O);
    x_wins += w == MNK_WINNER_X;
    const mnk_winner v = play_game(ttt, ".........", 5, 10, seed, moves);
    CHECK(v != MNK_WINNER_X);
    o_wins += v == MNK_WINNER_O;
  }
  CHECK(x_wins > 80);
  CHECK(o_wins > 10);
  mnk_level bad;
  mnk_level_init(&bad);
  bad.level = 0;
  int cell;
  CHECK(mnk_choose(ttt, ".........", &bad, NULL, &cell) ==
        MNK_INVALID_ARGUMENT);
  CHECK(strcmp(mnk_last_error(),
               "level 0: expected a level from 1 (random) to 10 (perfect)") ==
        0);
  mnk_close(ttt);

  /* Connect-style 4x4 from its built-in table, moves as columns. */
  mnk_game g4 = {4, 4, 4, 1, 0};
  mnk_source* c4 = NULL;
  CHECK(mnk_open_game(&g4, NULL, &c4) == MNK_OK);
  CHECK(mnk_drop(c4, "..../..../..../....", 2, out) == MNK_OK);
  CHECK(strcmp(out, "..../..../..../..X.") == 0);
  CHECK(mnk_from_moves(c4, "3312", "digits", out) == MNK_OK);
  CHECK(strcmp(out, "..../..../..O./XOX.") == 0);
  CHECK(mnk_rules(c4, out, &state) == MNK_OK);
  CHECK(state.num_moves == 4 && state.moves[0] == 8 && state.moves[2] == 6);
  CHECK(mnk_to_moves(c4, out, "columns", moves) == MNK_OK);
  CHECK(strcmp(moves, "2 2 0 1") == 0);
  mnk_answer start;
  CHECK(mnk_probe(c4, "..../..../..../....", &start) == MNK_OK);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const mnk_winner w =
        play_game(c4, "..../..../..../....", 10, 3, seed, moves);
    CHECK(start.value != MNK_DRAW || w != MNK_WINNER_O);
  }
  mnk_close(c4);
}

int main(void) {
  CHECK(strcmp(mnk_version(), "1.0.0") == 0);
  CHECK(strcmp(mnk_last_error(), "") == 0);
  test_tictactoe();
  test_bad_games_and_files();
  test_solve_and_open_table();
  test_estimate_and_solve_with_options();
  test_connect_four();
  test_threads();
  test_messages_quote_user_text();
  test_rules_levels_and_pv();
  mnk_close(NULL);
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures == 0 ? 0 : 1;
}
