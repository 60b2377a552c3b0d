"""python -m mnk: a game against the perfect player in the terminal, as the
`play` tool plays it (the same code): tic-tac-toe unless told otherwise.

    python -m mnk                          # tic-tac-toe, you move first as X
    python -m mnk --width 7 --height 6 --k 4 --gravity --first ai
"""

import argparse
import sys

import mnk


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m mnk",
        description="A game against the perfect player: type a cell's "
        "number (a column's, with gravity), or help.")
    parser.add_argument("--version", action="version",
                        version="mnk " + mnk.__version__)
    parser.add_argument("--width", type=int, default=3)
    parser.add_argument("--height", type=int, default=3)
    parser.add_argument("--k", type=int, default=3,
                        help="stones in a row that win")
    parser.add_argument("--gravity", action="store_true",
                        help="stones fall as in Connect Four")
    parser.add_argument("--misere", action="store_true",
                        help="whoever completes k in a row loses")
    parser.add_argument("--table", default="",
                        help="a table file (default: the built-in table)")
    parser.add_argument("--first", choices=["human", "ai"], default="human",
                        help="who moves first")
    parser.add_argument("--mark", choices=["X", "O"], default="X",
                        help="the mark you play")
    args = parser.parse_args(argv)
    try:
        game = mnk.Game(args.width, args.height, args.k, args.gravity,
                        args.misere)
        with game.table(args.table) as table:
            sys.stdout.flush()
            return table.play_in_terminal(args.first == "human", args.mark)
    except (ValueError, mnk.TableError) as e:
        print("python -m mnk: " + str(e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
