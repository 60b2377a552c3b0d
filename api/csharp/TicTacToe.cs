// A game of tic-tac-toe against the perfect player, from C# through
// libmnk.so (api/mnk.h) by P/Invoke: the person's moves come as cell
// numbers (0-8) on standard input, one a line, and the program answers
// each with the table's best move. Built and run by //api:csharp_test:
//
//   mcs -out:TicTacToe.exe api/csharp/TicTacToe.cs
//   echo "0 1 2 3 5 6 7 8" | LD_LIBRARY_PATH=bazel-bin/api mono TicTacToe.exe
using System;
using System.Runtime.InteropServices;

static class Mnk {
  [StructLayout(LayoutKind.Sequential)]
  public struct Game {
    public int Width, Height, K, Gravity, Misere;
  }

  [StructLayout(LayoutKind.Sequential)]
  public struct Move {
    public int Cell, Column, Value, Remoteness;
  }

  [StructLayout(LayoutKind.Sequential)]
  public struct Answer {
    public int ToMove, Value, Remoteness, BestMove, NumMoves;
    [MarshalAs(UnmanagedType.ByValArray, SizeConst = 64)]
    public Move[] Moves;
  }

  public const int Ok = 0;
  public static readonly string[] Values = {"", "loss", "draw", "win"};

  [DllImport("mnk")] public static extern IntPtr mnk_version();
  [DllImport("mnk")] public static extern IntPtr mnk_last_error();
  [DllImport("mnk")]
  public static extern int mnk_open_game(ref Game game, IntPtr options,
                                         out IntPtr source);
  [DllImport("mnk")]
  public static extern int mnk_probe(IntPtr source, string position,
                                     out Answer answer);
  [DllImport("mnk")] public static extern void mnk_close(IntPtr source);

  public static string LastError() {
    return Marshal.PtrToStringAnsi(mnk_last_error());
  }
}

static class TicTacToe {
  static int Main() {
    Console.WriteLine("libmnk " + Marshal.PtrToStringAnsi(Mnk.mnk_version()));
    var game = new Mnk.Game { Width = 3, Height = 3, K = 3 };
    IntPtr table;
    if (Mnk.mnk_open_game(ref game, IntPtr.Zero, out table) != Mnk.Ok) {
      Console.Error.WriteLine("error: " + Mnk.LastError());
      return 1;
    }
    // A bad position is refused with the library's message.
    Mnk.Answer answer;
    if (Mnk.mnk_probe(table, "XXXX", out answer) != Mnk.Ok) {
      Console.WriteLine("refused: " + Mnk.LastError());
    }
    char[] board = ".........".ToCharArray();
    string line;
    while (true) {
      if (Mnk.mnk_probe(table, new string(board), out answer) != Mnk.Ok) {
        Console.Error.WriteLine("error: " + Mnk.LastError());
        return 1;
      }
      if (answer.BestMove < 0) break;  // the game is over
      char mark = answer.ToMove == 0 ? 'X' : 'O';
      if (mark == 'X') {  // the person
        if ((line = Console.ReadLine()) == null) break;
        int cell;
        if (!int.TryParse(line.Trim(), out cell) || cell < 0 || cell > 8 ||
            board[cell] != '.') {
          Console.WriteLine("X " + line.Trim() + ": not a free cell");
          continue;
        }
        board[cell] = 'X';
        Console.WriteLine("X plays " + cell);
      } else {
        board[answer.BestMove] = 'O';
        Console.WriteLine("O plays " + answer.BestMove + " (" +
                          Mnk.Values[answer.Value] + " in " +
                          answer.Remoteness + ")");
      }
    }
    string result = answer.Value == 2 ? "a draw"
                    : (answer.ToMove == 0) == (answer.Value == 1) ? "O wins"
                                                                  : "X wins";
    Console.WriteLine(new string(board) + ": " + result);
    Mnk.mnk_close(table);
    return 0;
  }
}
