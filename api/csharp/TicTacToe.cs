// A game of tic-tac-toe against the perfect player, from C# through Mnk.cs
// (the binding over libmnk): the person plays X, the cell numbers (0-8)
// of their moves read from standard input, separated by spaces or lines;
// the program answers each with the table's best move. A game the input
// ends before is abandoned, with no result. Built and run by
// //tests:csharp_install_test:
//
//   mcs -out:TicTacToe.exe TicTacToe.cs PREFIX/share/mnk/csharp/Mnk.cs
//   echo "4 2 3 7 8" | mono TicTacToe.exe
using System;
using System.Collections.Generic;

static class TicTacToe {
  // The person's moves: every whitespace-separated word of the input.
  static IEnumerator<string> Words() {
    string line;
    while ((line = Console.ReadLine()) != null) {
      foreach (string word in line.Split(
                   (char[])null, StringSplitOptions.RemoveEmptyEntries)) {
        yield return word;
      }
    }
  }

  static int Main() {
    Console.WriteLine("libmnk " + Mnk.Table.Version);
    using (var table = Mnk.Table.Open(new Mnk.GameSpec(3, 3, 3))) {
      try {  // a bad position is refused with the library's message
        table.Probe("XXXX");
      } catch (Mnk.MnkException e) {
        Console.WriteLine("refused: " + e.Message);
      }
      char[] board = ".........".ToCharArray();
      IEnumerator<string> moves = Words();
      Mnk.Answer answer;
      while (!(answer = table.Probe(new string(board))).GameOver) {
        if (answer.ToMove == 'O') {
          board[answer.BestMove] = 'O';
          Console.WriteLine("O plays " + answer.BestMove + " (" +
                            answer.Value.ToString().ToLower() + " in " +
                            answer.Remoteness + ")");
          continue;
        }
        if (!moves.MoveNext()) {
          Console.WriteLine(new string(board) + ": game abandoned");
          return 0;
        }
        int cell;
        if (!int.TryParse(moves.Current, out cell) || cell < 0 || cell > 8 ||
            board[cell] != '.') {
          Console.WriteLine("X " + moves.Current + ": not a free cell");
          continue;
        }
        board[cell] = 'X';
        Console.WriteLine("X plays " + cell);
      }
      // Over: the side to move has lost (the other completed a line) or
      // it is a draw.
      string result = answer.Value == Mnk.Value.Draw ? "a draw"
                      : answer.ToMove == 'X'         ? "O wins"
                                                     : "X wins";
      Console.WriteLine(new string(board) + ": " + result);
    }
    return 0;
  }
}
