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
  public Move[] Moves;    // every legal move, by cell
  public bool GameOver => BestMove < 0;
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
    Check(Native.mnk_open_game(ref game, ref options, out Handle h));
    return new Table(h);
  }

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
  // `maxSeconds` (0: no limit).
  public Answer Probe(string position, ulong maxNodes = 0,
                      double maxSeconds = 0) {
    var limits = new Native.Limits { MaxNodes = maxNodes,
                                     MaxSeconds = maxSeconds };
    Check(Native.mnk_probe_within(handle, position, ref limits,
                                  out Native.NativeAnswer a));
    var moves = new Move[a.NumMoves];
    Array.Copy(a.Moves, moves, a.NumMoves);
    return new Answer { ToMove = a.ToMove == 0 ? 'X' : 'O',
                        Value = (Value)a.Value, Remoteness = a.Remoteness,
                        BestMove = a.BestMove, Moves = moves };
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
  [DllImport(Library)] internal static extern void mnk_close(IntPtr source);
}

}  // namespace Mnk
