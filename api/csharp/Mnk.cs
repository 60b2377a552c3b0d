// Mnk.cs: the perfect player of tic-tac-toe and its family from C#, one
// file over the C library (libmnk, api/mnk.h) by P/Invoke. Compile it with
// your program; `bazel run //install -- PREFIX` puts it in
// PREFIX/share/mnk/csharp/, naming PREFIX/lib/libmnk.so.1 as its library
// (no LD_LIBRARY_PATH needed).
//
//   using (var table = Mnk.Table.Open(new Mnk.GameSpec(3, 3, 3))) {
//     Mnk.Answer a = table.Probe("X.O/X.X/OO.");
//     // a.Value == Mnk.Value.Win, a.Remoteness == 1, a.BestMove == 4,
//     // a.Moves: every legal move's outcome.
//   }
//
// Positions are strings, rows from the top, '/' between rows (optional),
// each cell 'X', 'O' or '.'; a cell is numbered row * width + column.
// Every failure throws an Mnk.MnkException carrying the library's status
// and message. A Table may be probed by many threads at once; Dispose it
// (or a `using` block) when done.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Mnk {

// What a call returned (mnk_status).
public enum Status {
  Ok = 0,
  InvalidArgument = 1,     // a bad position, game, path or option
  NotFound = 2,            // no such file; no built-in table
  FailedPrecondition = 3,  // a table of another game or format
  DataLoss = 4,            // a damaged table, or one changed in use
  ResourceExhausted = 5,   // out of memory; a search past maxNodes
  DeadlineExceeded = 6,    // a search past maxSeconds
  Cancelled = 7,
  PermissionDenied = 8,
  Internal = 9
}

// A value for the side to move (mnk_value).
public enum Value { Loss = 1, Draw = 2, Win = 3 }

// Who won a finished game; None while it goes on.
public enum Winner { None = 0, X = 1, O = 2, Draw = 3 }

// A failed call: its status and the library's message.
public sealed class MnkException : Exception {
  public Status Status { get; }
  public MnkException(Status status, string message) : base(message) {
    Status = status;
  }
}

// A game: width m, height n, k in a row; gravity; misère (mnk_game).
[StructLayout(LayoutKind.Sequential)]
public struct GameSpec {
  public int Width, Height, K;
  int gravity, misere;
  public GameSpec(int width, int height, int k, bool gravity = false,
                  bool misere = false) {
    Width = width;
    Height = height;
    K = k;
    this.gravity = gravity ? 1 : 0;
    this.misere = misere ? 1 : 0;
  }
  public bool Gravity => gravity != 0;
  public bool Misere => misere != 0;
}

// One legal move and what it leads to, for the side to move (mnk_move).
[StructLayout(LayoutKind.Sequential)]
public struct Move {
  public int Cell;    // row * width + column
  public int Column;  // the cell's column
  public Value Value;
  public int Remoteness;  // plies to the end; -1 unknown (compact table)
}

// A position's answer, for the side to move.
public sealed class Answer {
  public char ToMove;     // 'X' or 'O'
  public Value Value;
  public int Remoteness;  // 0: the game is over; -1 unknown
  public int BestMove;    // the perfect player's cell; -1 once over
  public Move[] Moves;    // every legal move, in board order
  public bool GameOver => BestMove < 0;

  // Two answers are equal when every field and move is.
  public override bool Equals(object other) =>
      other is Answer a && ToMove == a.ToMove && Value == a.Value &&
      Remoteness == a.Remoteness && BestMove == a.BestMove &&
      ((IStructuralEquatable)Moves).Equals(
          a.Moves, StructuralComparisons.StructuralEqualityComparer);
  public override int GetHashCode() =>
      HashCode(ToMove, Value, Remoteness, BestMove, Moves.Length);
  static int HashCode(params object[] fields) {
    int h = 17;
    foreach (object f in fields) h = h * 31 + f.GetHashCode();
    return h;
  }
}

// A node of a game tree, for teaching minimax (Table.Tree).
public sealed class TreeNode {
  public int Cell;        // the move from the parent; -1 at the root
  public char ToMove;     // 'X' or 'O'
  public Value Value;     // for the side to move here
  public int Remoteness;  // plies to the end from here; -1 unknown
  public bool Best;       // the child minimax keeps at its parent
  // The seeds' score (+10 - plies to a win, -10 + plies to a loss, 0 a
  // draw) for the root's side to move, plies from the root; Sign +1/0/-1.
  public int Score, Sign;
  public List<TreeNode> Children = new List<TreeNode>();  // board order
}

// A game's answers: its table, or the exact search after a book.
public sealed class Table : IDisposable {
  readonly Handle handle;

  Table(Handle handle) { this.handle = handle; }

  // The library's version ("1.0.0").
  public static string Version =>
      Marshal.PtrToStringAnsi(Native.mnk_version());

  // The game's built-in table, or `tablePath`'s table (null: built-in);
  // Connect-style boards too big for a table: the search after the book.
  public static Table Open(GameSpec game, string tablePath = null) {
    var options = new Native.Options();
    Native.mnk_options_init(ref options);
    options.Table = tablePath;
    int status = Native.mnk_open_game(ref game, ref options, out Handle h);
    string message = Marshal.PtrToStringAnsi(Native.mnk_last_error());
    int hint = message == null ? -1 : message.IndexOf("mnk_solve(");
    if (status == (int)Status.NotFound && hint >= 0) {
      // No built-in table: say how a C# user makes one.
      throw new MnkException(Status.NotFound, message.Substring(0, hint) +
          $"the `solve` tool (`solve {SolveFlags(game)} --out=FILE`) " +
          "makes one, and Table.Open(game, FILE) plays from it");
    }
    Check(status);
    return new Table(h);
  }

  static string SolveFlags(GameSpec g) =>
      $"--width={g.Width} --height={g.Height} --k={g.K}" +
      (g.Gravity ? " --gravity" : "") + (g.Misere ? " --misere" : "");

  // A table file, whatever its game.
  public static Table OpenFile(string path) {
    Check(Native.mnk_open_table(path, out Handle h));
    return new Table(h);
  }

  public GameSpec Game {
    get {
      Check(Native.mnk_source_game(handle, out GameSpec game,
                                   out int searched));
      return game;
    }
  }

  // The answer to `position`; a search stops past `maxNodes` positions or
  // `maxSeconds` (0: no limit). `bestOnly`: the value, remoteness and best
  // move alone, Moves empty when a search answered (far sooner).
  public Answer Probe(string position, ulong maxNodes = 0,
                      double maxSeconds = 0, bool bestOnly = false) {
    var limits = new Native.Limits { MaxNodes = maxNodes,
                                     MaxSeconds = maxSeconds };
    Native.NativeAnswer a;
    if (bestOnly) {
      Check(Native.mnk_probe_best(handle, position, ref limits, out a));
    } else {
      Check(Native.mnk_probe_within(handle, position, ref limits, out a));
    }
    var moves = new Move[a.NumMoves];
    Array.Copy(a.Moves, moves, a.NumMoves);
    return new Answer { ToMove = a.ToMove == 0 ? 'X' : 'O',
                        Value = (Value)a.Value, Remoteness = a.Remoteness,
                        BestMove = a.BestMove, Moves = moves };
  }

  // The rules (MnkException InvalidArgument saying why for a bad position
  // or move): the legal moves' cells in board order (with gravity, columns
  // left to right), the position after the side to move plays `cell` or
  // drops a stone in `column`, whether the game is over, who won, and the
  // side to move.
  public int[] LegalMoves(string position) {
    Native.State state = Rules(position);
    var moves = new int[state.NumMoves];
    Array.Copy(state.Moves, moves, state.NumMoves);
    return moves;
  }
  public string Play(string position, int cell) {
    var text = new byte[Native.TextSize];
    Check(Native.mnk_play(handle, position, cell, text));
    return Native.Text(text);
  }
  public string Drop(string position, int column) {
    var text = new byte[Native.TextSize];
    Check(Native.mnk_drop(handle, position, column, text));
    return Native.Text(text);
  }
  public bool IsOver(string position) => Rules(position).Over != 0;
  public Winner Winner(string position) => (Winner)Rules(position).Winner;
  public char ToMove(string position) =>
      Rules(position).ToMove == 0 ? 'X' : 'O';

  // The position after `moves` from the empty board, written in
  // `notation`: "cells" ("4 0 8"), "columns" ("3 3 4", from 0) or
  // "digits" ("4453", columns from 1); ToMoves writes one that builds
  // `position`.
  public string FromMoves(string moves, string notation = "cells") {
    var text = new byte[Native.TextSize];
    Check(Native.mnk_from_moves(handle, moves, notation, text));
    return Native.Text(text);
  }
  public string FromMoves(int[] cells) =>
      FromMoves(string.Join(" ", cells), "cells");
  public string ToMoves(string position, string notation = "cells") {
    var text = new byte[Native.TextSize];
    Check(Native.mnk_to_moves(handle, position, notation, text));
    return Native.Text(text);
  }

  // The cell a player of `level` plays: 1 a random move .. 10 the perfect
  // one (docs/api.md's table); the same for the same seed, level and
  // position; `vary`: level 10 picks among equally good moves at random.
  public int Choose(string position, int level = 10, ulong? seed = null,
                    bool vary = false, ulong maxNodes = 0,
                    double maxSeconds = 0) {
    var chosen = new Native.Level { Level_ = level, Vary = vary ? 1 : 0,
                                    Seeded = seed.HasValue ? 1 : 0,
                                    Seed = seed ?? 0 };
    var limits = new Native.Limits { MaxNodes = maxNodes,
                                     MaxSeconds = maxSeconds };
    Check(Native.mnk_choose(handle, position, ref chosen, ref limits,
                            out int cell));
    return cell;
  }

  // The principal variation: the cells both sides play under perfect play
  // to the end (a search's line stops early at its limits).
  public int[] Pv(string position, ulong maxNodes = 0, double maxSeconds = 0) {
    var limits = new Native.Limits { MaxNodes = maxNodes,
                                     MaxSeconds = maxSeconds };
    var cells = new int[64];
    Check(Native.mnk_pv(handle, position, ref limits, cells, out int count,
                        out int complete));
    Array.Resize(ref cells, count);
    return cells;
  }

  // The game tree of `position` to `depth` plies (0 to 64; at most
  // 100,000 nodes), a searched game's nodes within the limits each.
  public TreeNode Tree(string position, int depth = 1, ulong maxNodes = 0,
                       double maxSeconds = 0) {
    var limits = new Native.Limits { MaxNodes = maxNodes,
                                     MaxSeconds = maxSeconds };
    for (int room = 256;; room = Math.Min(room * 4, Native.MaxTreeNodes)) {
      var flat = new Native.TreeNode[room];
      int status = Native.mnk_tree(handle, position, depth, ref limits, flat,
                                   room, out int count);
      if (status == (int)Status.ResourceExhausted &&
          room < Native.MaxTreeNodes) {
        continue;  // more room
      }
      Check(status);
      var nodes = new TreeNode[count];
      for (int i = 0; i < count; ++i) {
        Native.TreeNode n = flat[i];
        nodes[i] = new TreeNode {
          Cell = n.Cell, ToMove = n.ToMove == 0 ? 'X' : 'O',
          Value = (Value)n.Value, Remoteness = n.Remoteness,
          Best = n.Best != 0, Score = n.Score, Sign = n.Sign };
        if (n.Parent >= 0) nodes[n.Parent].Children.Add(nodes[i]);
      }
      return nodes[0];
    }
  }

  Native.State Rules(string position) {
    Check(Native.mnk_rules(handle, position, out Native.State state));
    return state;
  }

  public void Dispose() { handle.Dispose(); }

  static void Check(int status) {
    if (status != 0) {
      throw new MnkException(
          (Status)status, Marshal.PtrToStringAnsi(Native.mnk_last_error()));
    }
  }

  // A source of the library's, freed by mnk_close once.
  internal sealed class Handle : SafeHandle {
    Handle() : base(IntPtr.Zero, true) {}
    public override bool IsInvalid => handle == IntPtr.Zero;
    protected override bool ReleaseHandle() {
      Native.mnk_close(handle);
      return true;
    }
  }
}

// The C API's functions and structs (api/mnk.h).
static class Native {
  // install.sh writes the installed library's path here.
  internal const string Library = "libmnk.so.1";

  [StructLayout(LayoutKind.Sequential)]
  internal struct Options {
    [MarshalAs(UnmanagedType.LPStr)] public string Table;
    [MarshalAs(UnmanagedType.LPStr)] public string Book;
    public int Builtin;
    public ulong SearchMemory;
    public int Searches, SearchThreads;
  }

  [StructLayout(LayoutKind.Sequential)]
  internal struct Limits {
    public ulong MaxNodes;
    public double MaxSeconds;
    public IntPtr Cancel;
  }

  // The most nodes mnk_tree gives (answer/play.h's kMaxTreeNodes).
  internal const int MaxTreeNodes = 100000;

  [StructLayout(LayoutKind.Sequential)]
  internal struct TreeNode {
    public int Parent, Depth, Cell, ToMove, Value, Remoteness, Best, Score,
        Sign;
  }

  [StructLayout(LayoutKind.Sequential)]
  internal struct NativeAnswer {
    public int ToMove, Value, Remoteness, BestMove, NumMoves;
    [MarshalAs(UnmanagedType.ByValArray, SizeConst = 64)]
    public Move[] Moves;
  }

  [DllImport(Library)] internal static extern IntPtr mnk_version();
  [DllImport(Library)] internal static extern IntPtr mnk_last_error();
  [DllImport(Library)]
  internal static extern void mnk_options_init(ref Options options);
  [DllImport(Library)]
  internal static extern int mnk_open_game(ref GameSpec game,
                                           ref Options options,
                                           out Table.Handle source);
  [DllImport(Library)]
  internal static extern int mnk_open_table(string path,
                                            out Table.Handle source);
  [DllImport(Library)]
  internal static extern int mnk_source_game(Table.Handle source,
                                             out GameSpec game,
                                             out int searched);
  [DllImport(Library)]
  internal static extern int mnk_probe_within(Table.Handle source,
                                              string position,
                                              ref Limits limits,
                                              out NativeAnswer answer);
  [DllImport(Library)]
  internal static extern int mnk_probe_best(Table.Handle source,
                                            string position,
                                            ref Limits limits,
                                            out NativeAnswer answer);
  internal const int TextSize = 256;  // MNK_TEXT_SIZE
  // A NUL-terminated ASCII text the library wrote.
  internal static string Text(byte[] text) =>
      System.Text.Encoding.ASCII.GetString(text, 0,
                                           Array.IndexOf(text, (byte)0));

  [StructLayout(LayoutKind.Sequential)]
  internal struct State {
    public int ToMove, Over, Winner, NumMoves;
    [MarshalAs(UnmanagedType.ByValArray, SizeConst = 64)]
    public int[] Moves;
  }

  [StructLayout(LayoutKind.Sequential)]
  internal struct Level {
    public int Level_, Vary, Seeded;
    public ulong Seed;
  }

  [DllImport(Library)]
  internal static extern int mnk_rules(Table.Handle source, string position,
                                       out State state);
  [DllImport(Library)]
  internal static extern int mnk_play(Table.Handle source, string position,
                                      int cell, byte[] text);
  [DllImport(Library)]
  internal static extern int mnk_drop(Table.Handle source, string position,
                                      int column, byte[] text);
  [DllImport(Library)]
  internal static extern int mnk_from_moves(Table.Handle source, string moves,
                                            string notation, byte[] text);
  [DllImport(Library)]
  internal static extern int mnk_to_moves(Table.Handle source,
                                          string position, string notation,
                                          byte[] text);
  [DllImport(Library)]
  internal static extern int mnk_choose(Table.Handle source, string position,
                                        ref Level level, ref Limits limits,
                                        out int cell);
  [DllImport(Library)]
  internal static extern int mnk_pv(Table.Handle source, string position,
                                    ref Limits limits, int[] cells,
                                    out int count, out int complete);
  [DllImport(Library)]
  internal static extern int mnk_tree(Table.Handle source, string position,
                                      int depth, ref Limits limits,
                                      [Out] TreeNode[] nodes, int capacity,
                                      out int count);
  [DllImport(Library)] internal static extern void mnk_close(IntPtr source);
}

}  // namespace Mnk
