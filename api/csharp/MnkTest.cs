// The C# binding's test program (Mnk.cs, installed): answers, every error's
// status and message, a table used by many threads, a closed table.
// Exits 1 at the first check that fails. Run by //tests:csharp_install_test.
using System;
using System.Threading.Tasks;

static class MnkTest {
  static int checks = 0;

  static void Check(bool ok, string what) {
    if (!ok) throw new Exception("FAIL: " + what);
    checks++;
  }

  // The status `action` throws, with its message.
  static Mnk.MnkException Thrown(Action action) {
    try {
      action();
    } catch (Mnk.MnkException e) {
      return e;
    }
    throw new Exception("FAIL: no MnkException");
  }

  // A game from the empty board by the rules calls alone, X at level
  // levels[0] and O at levels[1], seeded: its winner and moves.
  static Mnk.Winner PlayGame(Mnk.Table t, string start, int[] levels,
                             ulong seed, out string moves) {
    string position = start;
    moves = "";
    while (!t.IsOver(position)) {
      int level = levels[t.ToMove(position) == 'X' ? 0 : 1];
      int cell = t.Choose(position, level, seed);
      Check(Array.IndexOf(t.LegalMoves(position), cell) >= 0, "a legal move");
      position = t.Play(position, cell);
      moves += (moves == "" ? "" : " ") + cell;
    }
    Check(t.LegalMoves(position).Length == 0, "no move once over");
    return t.Winner(position);
  }

  static void RulesLevelsAndPv() {
    using (var ttt = Mnk.Table.Open(new Mnk.GameSpec(3, 3, 3))) {
      Check(string.Join(",", ttt.LegalMoves("X../.O./...")) == "1,2,3,5,6,7,8",
            "legal moves");
      Check(ttt.Play("X../.O./...", 8) == "X../.O./..X", "play");
      Check(ttt.Winner("XXX/OO./...") == Mnk.Winner.X &&
                ttt.Winner("XOX/XOO/OXX") == Mnk.Winner.Draw &&
                ttt.Winner("X../.O./...") == Mnk.Winner.None,
            "winner");
      Check(ttt.FromMoves(new[] {4, 0, 8}) == "O../.X./..X" &&
                ttt.ToMoves("O../.X./..X") == "4 0 8",
            "move sequences");
      var taken = Thrown(() => ttt.Play("X../.O./...", 4));
      Check(taken.Status == Mnk.Status.InvalidArgument &&
                taken.Message == "cell 4 is taken",
            "a taken cell: " + taken.Message);
      var level = Thrown(() => ttt.Choose(".........", 0));
      Check(level.Message ==
                "level 0: expected a level from 1 (random) to 10 (perfect)",
            "a bad level: " + level.Message);
      Check(PlayGame(ttt, ".........", new[] {10, 10}, 1, out string moves) ==
                Mnk.Winner.Draw,
            "perfect play draws");
      Check(string.Join(" ", ttt.Pv(".........")) == moves, "the pv");
      Mnk.TreeNode root = ttt.Tree("XO./XO./...");
      Check(root.Cell == -1 && root.Value == Mnk.Value.Win &&
                root.Remoteness == 1 && root.Children.Count == 5,
            "the tree's root");
      Mnk.TreeNode kept = root.Children[2];
      Check(kept.Cell == 6 && kept.Best && kept.Score == 9 &&
                kept.ToMove == 'O' && kept.Children.Count == 0,
            "the tree's kept move");
      Check(root.Children[0].Score == -8 && !root.Children[0].Best,
            "a losing move's score");
      // Past the first room of 256 nodes: 1 + 9 + 72 + 504.
      Check(ttt.Tree(".........", 3).Children[4].Children.Count == 8,
            "a tree of 586 nodes");
      Check(Thrown(() => ttt.Tree(".........", 9)).Status ==
                Mnk.Status.ResourceExhausted,
            "a tree past 100,000 nodes");
      int xWins = 0;
      for (ulong seed = 0; seed < 100; seed++) {
        Mnk.Winner w = PlayGame(ttt, ".........", new[] {10, 1}, seed, out _);
        Check(w != Mnk.Winner.O, "perfect play never loses");
        if (w == Mnk.Winner.X) xWins++;
      }
      Check(xWins > 80, "perfect X beats random: " + xWins);
      for (ulong seed = 0; seed < 50; seed++) {
        Check(PlayGame(ttt, ".........", new[] {5, 10}, seed, out _) !=
                  Mnk.Winner.X,
              "perfect O never loses");
      }
    }
    using (var g4 = Mnk.Table.Open(new Mnk.GameSpec(4, 4, 4, true))) {
      string p = g4.FromMoves("3312", "digits");
      Check(p == "..../..../..O./XOX." &&
                g4.ToMoves(p, "columns") == "2 2 0 1" &&
                g4.Drop("..../..../..../....", 2) == "..../..../..../..X.",
            "gravity moves: " + p);
      for (ulong seed = 0; seed < 20; seed++) {
        PlayGame(g4, "..../..../..../....", new[] {10, 3}, seed, out _);
      }
    }
  }

  static int Main(string[] args) {
    string version = args[0];
    try {
      Check(Mnk.Table.Version == version, "version " + Mnk.Table.Version);
      using (var ttt = Mnk.Table.Open(new Mnk.GameSpec(3, 3, 3))) {
        Mnk.Answer a = ttt.Probe("X.O/X.X/OO.");
        Check(a.ToMove == 'X' && a.Value == Mnk.Value.Win &&
                  a.Remoteness == 1 && a.BestMove == 4,
              "X.O/X.X/OO.");
        Check(a.Moves.Length == 3 && a.Moves[0].Cell == 1 &&
                  a.Moves[0].Value == Mnk.Value.Loss &&
                  a.Moves[0].Remoteness == 2,
              "its moves");
        Mnk.Answer over = ttt.Probe("XXX/OO./...");
        Check(over.GameOver && over.Value == Mnk.Value.Loss &&
                  over.Remoteness == 0 && over.Moves.Length == 0,
              "a finished game");
        Check(a.Equals(ttt.Probe("X.O/X.X/OO.")) &&
                  a.GetHashCode() == ttt.Probe("X.O/X.X/OO.").GetHashCode() &&
                  !a.Equals(over),
              "equal answers are equal");
        Check(ttt.Game.Width == 3 && ttt.Game.K == 3 && !ttt.Game.Gravity,
              "its game");
        var bad = Thrown(() => ttt.Probe("XXXX"));
        Check(bad.Status == Mnk.Status.InvalidArgument &&
                  bad.Message.StartsWith("position 'XXXX': position has 4"),
              "a bad position: " + bad.Message);
        // Many threads on one table.
        Parallel.For(0, 8, i => {
          for (int n = 0; n < 1000; n++) {
            Check(ttt.Probe(".........").Value == Mnk.Value.Draw, "threads");
          }
        });
        ttt.Dispose();
        ttt.Dispose();  // again: nothing
        bool disposed = false;
        try {
          ttt.Probe(".........");
        } catch (ObjectDisposedException) {
          disposed = true;
        }
        Check(disposed, "a closed table");
      }
      var missing = Thrown(() => Mnk.Table.Open(new Mnk.GameSpec(4, 4, 3)));
      Check(missing.Status == Mnk.Status.NotFound && missing.Message ==
                "no built-in table for 4,4,3: the `solve` tool (`solve " +
                "--width=4 --height=4 --k=3 --out=FILE`) makes one, and " +
                "Table.Open(game, FILE) plays from it", missing.Message);
      var file = Thrown(() => Mnk.Table.OpenFile("/nonexistent.mnk"));
      Check(file.Status == Mnk.Status.NotFound, "no file: " + file.Message);
      var game = Thrown(() => Mnk.Table.Open(new Mnk.GameSpec(3, 3, 4)));
      Check(game.Status == Mnk.Status.InvalidArgument, "k over the board");
      using (var c4 = Mnk.Table.Open(new Mnk.GameSpec(7, 6, 4, true))) {
        Mnk.Answer start = c4.Probe("......./......./......./......./......./.......");
        Check(start.Value == Mnk.Value.Win && start.Remoteness == 41 &&
                  start.BestMove == 38,
              "Connect Four's start, from the book");
        var budget = Thrown(() => c4.Probe(
            "......./......./......./...O.../.OXXO.O/XXOXO.X", 1000));
        Check(budget.Status == Mnk.Status.ResourceExhausted,
              "a search past its node budget: " + budget.Message);
        const string offBook =
            "......./......./......./...O.../.OXXO.O/XXOXO.X";
        Mnk.Answer best = c4.Probe(offBook, bestOnly: true);
        Mnk.Answer full = c4.Probe(offBook);
        Check(best.Value == full.Value &&
                  best.Remoteness == full.Remoteness &&
                  best.BestMove == full.BestMove && best.Moves.Length == 0 &&
                  full.Moves.Length == 7,
              "asking for the best move alone");
      }
      RulesLevelsAndPv();
    } catch (Exception e) {
      Console.WriteLine(e.Message);
      return 1;
    }
    Console.WriteLine(checks + " checks passed");
    return 0;
  }
}
